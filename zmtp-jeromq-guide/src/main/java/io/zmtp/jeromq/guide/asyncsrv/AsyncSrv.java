package io.zmtp.jeromq.guide.asyncsrv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Poller;
import org.zeromq.ZMQ.Socket;
import org.zeromq.ZMsg;
import org.zeromq.ZThread;

/**
 * The Guide's asyncsrv: an asynchronous client/server. Clients (DEALER) send a request every tick and print the
 * replies whenever they come; the server's ROUTER frontend and inproc DEALER backend are joined by
 * {@code ZMQ.proxy}, and its workers (DEALER, forked with {@code ZThread.fork} in the server's context, as the C
 * version of the Guide does) answer each request with any number of replies, each after a random pause.
 *
 * <p>Arguments: {@code [mode [endpoint [clients requests [workers]]]]}, mode {@code all} (defaults; the Guide's one
 * process), {@code server} (the server task on the main thread, until the process is stopped) or {@code clients}
 * (the clients only); endpoint {@code tcp://127.0.0.1:5570}; 3 clients sending 5 requests each; 5 workers.
 * Differences from the Guide, for the tests: clients are named {@code client-N} (the Guide: random ids); a worker
 * answers request #n with n % 4 replies (the Guide: 0 to 4 at random), after pauses of 1 to 20 ms (the Guide: up to
 * a second) and prints what it served; a tick is 100 ms (the Guide: a second); clients are attached threads
 * ({@code ZThread.fork}) that stop once every request has had its replies and then report on their pipe, and the
 * main thread prints each report (the Guide runs everything for five seconds); each worker says on its pipe that it
 * has connected, and the server starts its proxy once all have (the Guide starts it at once).
 */
public final class AsyncSrv {
    private static final Random RAND = new Random(System.nanoTime());
    private static final int CENTITICKS = 10;

    private AsyncSrv() {}

    /**
     * This is our client task. It connects to the server, and then sends a request once per tick. It collects
     * responses as they arrive, and it prints them out.
     */
    private static final class ClientTask implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            String endpoint = (String) args[0];
            String identity = (String) args[1];
            int requests = (Integer) args[2];
            int expected = 0;
            for (int n = 1; n <= requests; n++) {
                expected += n % 4;
            }

            Socket client = ctx.createSocket(SocketType.DEALER);
            client.setIdentity(identity.getBytes(ZMQ.CHARSET));
            client.connect(endpoint);

            Poller poller = ctx.createPoller(1);
            poller.register(client, Poller.POLLIN);

            int requestNbr = 0;
            int replies = 0;
            while (!Thread.currentThread().isInterrupted()) {
                // Tick once per 100 ms, pulling in arriving messages
                for (int centitick = 0; centitick < CENTITICKS; centitick++) {
                    poller.poll(10);
                    if (poller.pollin(0)) {
                        ZMsg msg = ZMsg.recvMsg(client);
                        System.out.println(identity + " " + msg.getLast());
                        msg.destroy();
                        replies++;
                    }
                }
                if (requestNbr < requests) {
                    client.send(String.format("request #%d", ++requestNbr), 0);
                } else if (replies >= expected) {
                    break;
                }
            }
            poller.close();
            pipe.send(identity + " got " + replies + " replies to " + requestNbr + " requests");
        }
    }

    /**
     * This is our server task. It uses the multithreaded server model to deal requests out to a pool of workers and
     * route replies back to clients. One worker can handle one request at a time but one client can talk to
     * multiple workers at once.
     */
    private static void serverTask(String endpoint, int workers) {
        try (ZContext ctx = new ZContext()) {
            // Frontend socket talks to clients over TCP
            Socket frontend = ctx.createSocket(SocketType.ROUTER);
            frontend.bind(endpoint);

            // Backend socket talks to workers over inproc
            Socket backend = ctx.createSocket(SocketType.DEALER);
            backend.bind("inproc://backend");

            // Launch pool of worker threads, precise number is not critical
            List<Socket> workerPipes = new ArrayList<>();
            for (int threadNbr = 0; threadNbr < workers; threadNbr++) {
                workerPipes.add(ZThread.fork(ctx, new ServerWorker(), "worker-" + threadNbr));
            }
            // Not in the Guide: wait until every worker has connected, so that the proxy deals the first request
            // over all of them (requests that come sooner wait in the frontend's queue).
            for (Socket workerPipe : workerPipes) {
                workerPipe.recvStr();
            }
            System.out.println("I: server ready on " + endpoint);

            // Connect backend to frontend via a proxy
            ZMQ.proxy(frontend, backend, null);
        }
    }

    /**
     * Each worker task works on one request at a time and sends a random number of replies back, with random
     * delays between replies.
     */
    private static final class ServerWorker implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            String name = (String) args[0];
            Socket worker = ctx.createSocket(SocketType.DEALER);
            worker.connect("inproc://backend");
            pipe.send("connected");

            while (!Thread.currentThread().isInterrupted()) {
                // The DEALER socket gives us the address envelope and message
                ZMsg msg = ZMsg.recvMsg(worker);
                if (msg == null) {
                    break; // Interrupted
                }
                ZFrame address = msg.pop();
                ZFrame content = msg.pop();
                assert (content != null);
                msg.destroy();

                // Send 0..3 replies back
                int replies = Integer.parseInt(content.toString().substring("request #".length())) % 4;
                System.out.println("Worker " + name + ": " + address + " " + content + ", " + replies + " replies");
                for (int reply = 0; reply < replies; reply++) {
                    // Sleep for some fraction of a second
                    try {
                        Thread.sleep(RAND.nextInt(20) + 1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                    address.send(worker, ZFrame.REUSE + ZFrame.MORE);
                    content.send(worker, ZFrame.REUSE);
                }
                address.destroy();
                content.destroy();
            }
        }
    }

    /** The main thread simply starts several clients, and a server, and then waits for the clients to finish. */
    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "all";
        String endpoint = args.length > 1 ? args[1] : "tcp://127.0.0.1:5570";
        int clients = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int requests = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        int workers = args.length > 4 ? Integer.parseInt(args[4]) : 5;

        if (mode.equals("server")) {
            serverTask(endpoint, workers);
            return;
        }
        if (mode.equals("all")) {
            ZThread.start(arguments -> serverTask(endpoint, workers));
        }
        try (ZContext ctx = new ZContext()) {
            List<Socket> pipes = new ArrayList<>();
            for (int clientNbr = 0; clientNbr < clients; clientNbr++) {
                pipes.add(ZThread.fork(ctx, new ClientTask(), endpoint, "client-" + clientNbr, requests));
            }
            for (Socket pipe : pipes) {
                System.out.println("I: " + pipe.recvStr());
            }
        }
    }
}
