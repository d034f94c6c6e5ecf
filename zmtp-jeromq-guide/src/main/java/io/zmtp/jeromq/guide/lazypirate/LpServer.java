package io.zmtp.jeromq.guide.lazypirate;

import java.util.Random;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's lpserver, the Lazy Pirate server: a REP echo service that, after a few requests, at random either
 * "crashes" (stops, dropping the request it holds) or "overloads" (answers late, after the client gave up).
 *
 * <p>Arguments: {@code [endpoint [seed [workMillis [overloadMillis]]]]} (defaults {@code tcp://*:5555}, the clock,
 * 1000, 2000). A seed makes the crashes and overloads repeatable.
 */
public final class LpServer {
    private LpServer() {}

    public static void main(String[] args) throws Exception {
        String endpoint = args.length > 0 ? args[0] : "tcp://*:5555";
        Random rand = new Random(args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime());
        long workMillis = args.length > 2 ? Long.parseLong(args[2]) : 1000;
        long overloadMillis = args.length > 3 ? Long.parseLong(args[3]) : 2000;

        try (ZContext context = new ZContext()) {
            Socket server = context.createSocket(SocketType.REP);
            server.bind(endpoint);
            System.out.println("I: bound " + endpoint);

            int cycles = 0;
            while (true) {
                String request = server.recvStr();
                cycles++;

                // Simulate various problems, after a few cycles
                if (cycles > 3 && rand.nextInt(3) == 0) {
                    System.out.println("I: simulating a crash");
                    break;
                } else if (cycles > 3 && rand.nextInt(3) == 0) {
                    System.out.println("I: simulating CPU overload");
                    Thread.sleep(overloadMillis);
                }
                System.out.printf("I: normal request (%s)\n", request);
                Thread.sleep(workMillis); // Do some heavy work
                server.send(request);
            }
        }
    }
}
