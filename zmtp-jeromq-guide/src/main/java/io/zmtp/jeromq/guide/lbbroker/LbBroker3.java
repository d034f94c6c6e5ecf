package io.zmtp.jeromq.guide.lbbroker;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Queue;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZLoop;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.PollItem;
import org.zeromq.ZMQ.Socket;
import org.zeromq.ZMsg;
import org.zeromq.ZThread;

/**
 * The Guide's lbbroker3: the load-balancing broker written as a reactor, with {@link ZLoop}, {@link ZMsg} and
 * {@link ZThread}.
 *
 * <p>The backend is always polled; the frontend is added to the reactor when a worker becomes ready and removed
 * when none is left, so requests wait in the frontend's queue while every worker is busy. Clients and workers are
 * detached threads ({@code ZThread.start}), each with its own {@code ZContext}, as separate processes would be.
 *
 * <p>Arguments: {@code [frontend backend [clients workers]]} (defaults {@code ipc://frontend.ipc},
 * {@code ipc://backend.ipc}, 10, 3). Differences from the Guide, for the tests: each client sends one request (the
 * Guide's send one a second forever), workers name themselves in their replies ("OK from worker-1"), the broker
 * prints each worker's READY, each request it hands to a worker and each reply (so the order in which it used its
 * workers shows), and its backend handler ends the reactor (returns -1) once every client has its reply.
 */
public final class LbBroker3 {
    private static final byte[] WORKER_READY = {'\001'}; // Signals worker is ready

    private LbBroker3() {}

    /** A basic request-reply client using REQ. */
    private static final class ClientTask implements ZThread.IDetachedRunnable {
        @Override
        public void run(Object... args) {
            String frontend = (String) args[0];
            String name = "client-" + args[1];
            try (ZContext context = new ZContext()) {
                Socket client = context.createSocket(SocketType.REQ);
                client.setIdentity(name.getBytes(ZMQ.CHARSET));
                client.connect(frontend);

                // Send request, get reply
                client.send("HELLO".getBytes(ZMQ.CHARSET), 0);
                byte[] reply = client.recv(0);
                if (reply != null) {
                    System.out.println("Client " + name + ": " + new String(reply, ZMQ.CHARSET));
                }
            }
        }
    }

    /** A worker using REQ: it signals READY, then echoes each request back with its reply in the last frame. */
    private static final class WorkerTask implements ZThread.IDetachedRunnable {
        @Override
        public void run(Object... args) {
            String backend = (String) args[0];
            String name = "worker-" + args[1];
            try (ZContext context = new ZContext()) {
                Socket worker = context.createSocket(SocketType.REQ);
                worker.setIdentity(name.getBytes(ZMQ.CHARSET));
                worker.connect(backend);

                // Tell backend we're ready for work
                ZFrame frame = new ZFrame(WORKER_READY);
                frame.send(worker, 0);

                while (true) {
                    ZMsg msg = ZMsg.recvMsg(worker);
                    if (msg == null) {
                        break;
                    }
                    msg.getLast().reset("OK from " + name);
                    msg.send(worker);
                }
            }
        }
    }

    /** Our load-balancer structure, passed to reactor handlers. */
    private static final class LbBroker {
        Socket frontend; // Listen to clients
        Socket backend; // Listen to workers
        Queue<ZFrame> workers; // List of ready workers
        int clientsLeft; // Clients still waiting for their reply
    }

    /**
     * In the reactor design, each time a message arrives on a socket, the reactor passes it to a handler function.
     * We have two handlers; one for the frontend, one for the backend.
     */
    private static final class FrontendHandler implements ZLoop.IZLoopHandler {
        @Override
        public int handle(ZLoop loop, PollItem item, Object arg) {
            LbBroker broker = (LbBroker) arg;
            ZMsg msg = ZMsg.recvMsg(broker.frontend);
            if (msg != null) {
                ZFrame worker = broker.workers.poll();
                System.out.println("Broker: " + msg.getFirst() + " -> " + worker);
                msg.wrap(worker);
                msg.send(broker.backend);

                // Cancel reader on frontend if we went from 1 to 0 workers
                if (broker.workers.isEmpty()) {
                    loop.removePoller(new PollItem(broker.frontend, 0));
                }
            }
            return 0;
        }
    }

    private static final class BackendHandler implements ZLoop.IZLoopHandler {
        @Override
        public int handle(ZLoop loop, PollItem item, Object arg) {
            LbBroker broker = (LbBroker) arg;
            ZMsg msg = ZMsg.recvMsg(broker.backend);
            if (msg != null) {
                ZFrame address = msg.unwrap();
                String worker = address.toString();
                // Queue worker address for load-balancing
                broker.workers.add(address);

                // Enable reader on frontend if we went from 0 to 1 workers
                if (broker.workers.size() == 1) {
                    PollItem poller = new PollItem(broker.frontend, ZMQ.Poller.POLLIN);
                    loop.addPoller(poller, FRONTEND_HANDLER, broker);
                }

                // Forward message to client if it's not a READY
                ZFrame frame = msg.getFirst();
                if (Arrays.equals(frame.getData(), WORKER_READY)) {
                    System.out.println("Broker: " + worker + " ready");
                    msg.destroy();
                } else {
                    System.out.println("Broker: " + frame + " <- " + msg.getLast() + " (" + worker + " ready again)");
                    msg.send(broker.frontend);
                    if (--broker.clientsLeft == 0) {
                        return -1; // The Guide's broker runs forever; this one ends when all are served
                    }
                }
            }
            return 0;
        }
    }

    private static final FrontendHandler FRONTEND_HANDLER = new FrontendHandler();
    private static final BackendHandler BACKEND_HANDLER = new BackendHandler();

    /**
     * And the main task now sets up child tasks, then starts its reactor. If you press Ctrl-C, the reactor exits
     * and the main task shuts down.
     */
    public static void main(String[] args) {
        String frontendEndpoint = args.length > 0 ? args[0] : "ipc://frontend.ipc";
        String backendEndpoint = args.length > 1 ? args[1] : "ipc://backend.ipc";
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : 3;

        // Prepare our context and sockets
        try (ZContext context = new ZContext()) {
            LbBroker broker = new LbBroker();
            broker.frontend = context.createSocket(SocketType.ROUTER);
            broker.backend = context.createSocket(SocketType.ROUTER);
            broker.frontend.bind(frontendEndpoint);
            broker.backend.bind(backendEndpoint);
            broker.clientsLeft = clients;

            for (int clientNbr = 0; clientNbr < clients; clientNbr++) {
                ZThread.start(new ClientTask(), frontendEndpoint, clientNbr);
            }
            for (int workerNbr = 0; workerNbr < workers; workerNbr++) {
                ZThread.start(new WorkerTask(), backendEndpoint, workerNbr);
            }

            // Queue of available workers
            broker.workers = new ArrayDeque<>();

            // Prepare reactor and fire it up
            ZLoop reactor = new ZLoop(context);
            PollItem item = new PollItem(broker.backend, ZMQ.Poller.POLLIN);
            reactor.addPoller(item, BACKEND_HANDLER, broker);
            int rc = reactor.start();

            for (ZFrame frame : broker.workers) {
                frame.destroy();
            }
            broker.workers.clear();
            System.out.println("I: reactor ended (" + rc + "), all " + clients + " clients served");
        }
    }
}
