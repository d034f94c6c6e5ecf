package io.zmtp.jeromq.guide.rtdealer;

import java.util.Random;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's rtdealer and rtreq: a ROUTER broker hands out work to workers (DEALER or REQ), each a thread with its
 * own context, as if each were a process; after a while it answers each worker's next request with "Fired!", and
 * closes its context right after the last one. Each worker prints how many tasks it did once fired.
 *
 * <p>Arguments: {@code [DEALER|REQ] [endpoint] [workers] [millis]} (defaults: DEALER, {@code tcp://*:5671} bound and
 * {@code tcp://localhost:5671} connected, 10 workers, 5000 ms). A worker waits up to 5 s for each reply (the Guide's
 * wait for ever) and prints {@code E: no reply} if none came. Work takes 1 to 100 ms (the Guide's: up to 500).
 */
public final class RtDealer {
    private RtDealer() {}

    public static void main(String[] args) throws Exception {
        SocketType workerType = SocketType.valueOf(args.length > 0 ? args[0] : "DEALER");
        String bind = args.length > 1 ? args[1] : "tcp://*:5671";
        String connect = bind.replace("*", "localhost");
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        long millis = args.length > 3 ? Long.parseLong(args[3]) : 5000;

        try (ZContext context = new ZContext()) {
            ZMQ.Socket broker = context.createSocket(SocketType.ROUTER);
            broker.bind(bind);

            for (int workerNbr = 0; workerNbr < workers; workerNbr++) {
                new Thread(() -> work(workerType, connect)).start();
            }

            // Run for a while and then tell workers to end
            long endTime = System.currentTimeMillis() + millis;
            int workersFired = 0;
            while (true) {
                // Next message gives us least recently used worker
                String identity = broker.recvStr();
                broker.sendMore(identity);
                broker.recv(0); // Envelope delimiter
                broker.recv(0); // Response from worker
                broker.sendMore("");

                // Encourage workers until it's time to fire them
                if (System.currentTimeMillis() < endTime) {
                    broker.send("Work harder");
                } else {
                    broker.send("Fired!");
                    if (++workersFired == workers) {
                        break;
                    }
                }
            }
        }
    }

    private static void work(SocketType type, String endpoint) {
        Random rand = new Random();
        try (ZContext context = new ZContext()) {
            ZMQ.Socket worker = context.createSocket(type);
            worker.setIdentity(String.format("%04X-%04X", rand.nextInt(0x10000), rand.nextInt(0x10000))
                    .getBytes(ZMQ.CHARSET));
            worker.setReceiveTimeOut(5000);
            worker.connect(endpoint);

            int total = 0;
            while (true) {
                // Tell the broker we're ready for work
                if (type == SocketType.DEALER) {
                    worker.sendMore("");
                }
                worker.send("Hi Boss");

                // Get workload from broker, until finished
                if (type == SocketType.DEALER && worker.recvStr() == null) { // Envelope delimiter
                    System.out.println("E: no reply");
                    return;
                }
                String workload = worker.recvStr();
                if (workload == null) {
                    System.out.println("E: no reply");
                    return;
                }
                if (workload.equals("Fired!")) {
                    System.out.printf("Completed: %d tasks%n", total);
                    return;
                }
                total++;

                // Do some random work
                try {
                    Thread.sleep(rand.nextInt(100) + 1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
