package io.zmtp.jeromq.guide.lbbroker;

import java.util.ArrayDeque;
import java.util.Queue;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Poller;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's lbbroker: the load-balancing broker, with its clients and workers as threads of the same process.
 *
 * <p>Clients (REQ) send "HELLO" to the broker's frontend ROUTER; workers (REQ) announce themselves with "READY" on
 * the backend ROUTER and then answer requests. The broker keeps a queue of ready workers, polls the frontend only
 * while the queue has one, and hands each request to the least recently used worker. It ends when every client has
 * its reply.
 *
 * <p>Arguments: {@code [frontend backend [clients workers]]} (defaults {@code ipc://frontend.ipc},
 * {@code ipc://backend.ipc}, 10, 3). Each worker's reply names it ("OK from worker-1"), and the broker prints each
 * worker's READY, each request it hands to a worker and each reply, so the order in which it used its workers shows.
 */
public final class LbBroker {
    private LbBroker() {}

    /** A basic request-reply client using REQ: one request, one reply. */
    private static final class ClientTask extends Thread {
        private final String frontend;
        private final int id;

        ClientTask(String frontend, int id) {
            this.frontend = frontend;
            this.id = id;
            setDaemon(true);
        }

        @Override
        public void run() {
            // Prepare our context and sockets
            try (ZContext context = new ZContext()) {
                Socket client = context.createSocket(SocketType.REQ);
                client.setIdentity(("client-" + id).getBytes(ZMQ.CHARSET));
                client.connect(frontend);

                // Send request, get reply
                client.send("HELLO");
                String reply = client.recvStr();
                System.out.println("Client client-" + id + ": " + reply);
            }
        }
    }

    /** A worker using REQ: it says READY, then gets one request at a time and answers it. */
    private static final class WorkerTask extends Thread {
        private final String backend;
        private final int id;

        WorkerTask(String backend, int id) {
            this.backend = backend;
            this.id = id;
            setDaemon(true);
        }

        @Override
        public void run() {
            try (ZContext context = new ZContext()) {
                Socket worker = context.createSocket(SocketType.REQ);
                String name = "worker-" + id;
                worker.setIdentity(name.getBytes(ZMQ.CHARSET));
                worker.connect(backend);

                // Tell backend we're ready for work
                worker.send("READY");

                while (!Thread.currentThread().isInterrupted()) {
                    String address = worker.recvStr();
                    String empty = worker.recvStr();
                    assert empty.isEmpty();

                    // Get request, send reply
                    String request = worker.recvStr();
                    System.out.println("Worker " + name + ": " + request);

                    worker.sendMore(address);
                    worker.sendMore("");
                    worker.send("OK from " + name);
                }
            }
        }
    }

    /**
     * The main task starts the clients and workers, then routes requests between them: the least recently used
     * worker gets the next request.
     */
    public static void main(String[] args) {
        String frontendEndpoint = args.length > 0 ? args[0] : "ipc://frontend.ipc";
        String backendEndpoint = args.length > 1 ? args[1] : "ipc://backend.ipc";
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : 3;

        // Prepare our context and sockets
        try (ZContext context = new ZContext()) {
            Socket frontend = context.createSocket(SocketType.ROUTER);
            Socket backend = context.createSocket(SocketType.ROUTER);
            frontend.bind(frontendEndpoint);
            backend.bind(backendEndpoint);

            int clientNbr;
            for (clientNbr = 0; clientNbr < clients; clientNbr++) {
                new ClientTask(frontendEndpoint, clientNbr).start();
            }
            for (int workerNbr = 0; workerNbr < workers; workerNbr++) {
                new WorkerTask(backendEndpoint, workerNbr).start();
            }

            // Queue of available workers
            Queue<String> workerQueue = new ArrayDeque<>();

            while (!Thread.currentThread().isInterrupted()) {
                // Initialize poll set: always poll the backend; the frontend only if we have available workers
                Poller items = context.createPoller(2);
                items.register(backend, Poller.POLLIN);
                if (!workerQueue.isEmpty()) {
                    items.register(frontend, Poller.POLLIN);
                }
                if (items.poll() < 0) {
                    break; // Interrupted
                }

                // Handle worker activity on backend (pollin of an index never registered is false, as in JeroMQ)
                if (items.pollin(0)) {
                    // Queue worker address for LRU routing
                    String workerAddr = backend.recvStr();
                    workerQueue.add(workerAddr);

                    // Second frame is empty
                    String empty = backend.recvStr();
                    assert empty.isEmpty();

                    // Third frame is READY or else a client reply address
                    String clientAddr = backend.recvStr();

                    // If client reply, send rest back to frontend
                    if (clientAddr.equals("READY")) {
                        System.out.println("Broker: " + workerAddr + " ready");
                    } else {
                        empty = backend.recvStr();
                        assert empty.isEmpty();

                        String reply = backend.recvStr();
                        System.out.println(
                                "Broker: " + clientAddr + " <- " + reply + " (" + workerAddr + " ready again)");
                        frontend.sendMore(clientAddr);
                        frontend.sendMore("");
                        frontend.send(reply);

                        if (--clientNbr == 0) {
                            items.close();
                            break;
                        }
                    }
                }

                if (items.pollin(1)) {
                    // Now get next client request, route to LRU worker
                    // Client request is [address][empty][request]
                    String clientAddr = frontend.recvStr();
                    String empty = frontend.recvStr();
                    assert empty.isEmpty();

                    String request = frontend.recvStr();

                    String workerAddr = workerQueue.poll();
                    System.out.println("Broker: " + clientAddr + " -> " + workerAddr);

                    backend.sendMore(workerAddr);
                    backend.sendMore("");
                    backend.sendMore(clientAddr);
                    backend.sendMore("");
                    backend.send(request);
                }
                items.close();
            }
            System.out.println("I: all " + clients + " clients served");
        }
    }
}
