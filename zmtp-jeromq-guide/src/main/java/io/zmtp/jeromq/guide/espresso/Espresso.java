package io.zmtp.jeromq.guide.espresso;

import java.util.Random;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Socket;
import org.zeromq.ZThread;

/**
 * The Guide's espresso: a pub-sub tracer. A proxy (XSUB/XPUB) stands between a publisher and a subscriber, and
 * its capture socket, the pipe of a forked listener thread, gets a copy of everything that crosses it: the
 * subscriptions going up and the messages coming down. Publisher, subscriber and listener are attached threads
 * ({@code ZThread.fork}).
 *
 * <p>Arguments: {@code [publisher proxy [count [interval]]]} (defaults {@code tcp://127.0.0.1:6000},
 * {@code tcp://127.0.0.1:6001}, 5, 100 ms): both endpoints are bound and connected to. Differences from the Guide,
 * for the tests: the listener prints a frame in one
 * line ({@code ZFrame.toString}: text, or hex when not printable); the subscriber prints what it receives and, after {@code count} messages, sends TERMINATE on its
 * pipe, which is the proxy's control socket (the Guide's proxy runs until Ctrl-C); the main thread then sends END
 * down the capture pipe and waits for the listener's DONE, so that every captured frame is printed before the
 * process ends.
 */
public final class Espresso {
    private Espresso() {}

    /** The subscriber thread requests messages starting with A and B, then reads and counts incoming messages. */
    private static final class Subscriber implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            String endpoint = (String) args[0];
            int expected = (Integer) args[1];
            // Subscribe to "A" and "B"
            Socket subscriber = ctx.createSocket(SocketType.SUB);
            subscriber.connect(endpoint);
            subscriber.subscribe("A".getBytes(ZMQ.CHARSET));
            subscriber.subscribe("B".getBytes(ZMQ.CHARSET));

            int count = 0;
            while (count < expected) {
                String string = subscriber.recvStr();
                if (string == null) {
                    break; // Interrupted
                }
                System.out.println("Subscriber: " + string);
                count++;
            }
            ctx.destroySocket(subscriber);
            // The proxy's control socket is this pipe's other end
            pipe.send("TERMINATE");
        }
    }

    /**
     * The publisher sends random messages starting with A-J, until the context is closed (the send then throws
     * ETERM, which ends the thread quietly).
     */
    static final class Publisher implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            String endpoint = (String) args[0];
            long interval = (Long) args[1];
            Socket publisher = ctx.createSocket(SocketType.PUB);
            publisher.bind(endpoint);
            Random rand = new Random(System.currentTimeMillis());

            while (!Thread.currentThread().isInterrupted()) {
                String string = String.format("%c-%05d", 'A' + rand.nextInt(10), rand.nextInt(100000));
                if (!publisher.send(string)) {
                    break; // Interrupted
                }
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * The listener receives all messages flowing through the proxy, on its pipe. Here, the pipe is a pair of
     * ZMQ_PAIR sockets that connects attached child threads via inproc. In other languages your mileage may vary.
     */
    private static final class Listener implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            // Print everything that arrives on pipe
            while (true) {
                ZFrame frame = ZFrame.recvFrame(pipe);
                if (frame == null) {
                    break; // Interrupted
                }
                if (frame.streq("END")) {
                    frame.destroy();
                    pipe.send("DONE");
                    break;
                }
                // One println per frame (the Guide's frame.print writes a line in several pieces, which the
                // subscriber's lines could split)
                System.out.println("Listener: " + frame);
                frame.destroy();
            }
        }
    }

    /** The main task starts the subscriber and publisher, and then sets itself up as a listening proxy. */
    public static void main(String[] args) {
        String publisherEndpoint = args.length > 0 ? args[0] : "tcp://127.0.0.1:6000";
        String proxyEndpoint = args.length > 1 ? args[1] : "tcp://127.0.0.1:6001";
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        long interval = args.length > 3 ? Long.parseLong(args[3]) : 100;

        // Start child threads
        try (ZContext ctx = new ZContext()) {
            ZThread.fork(ctx, new Publisher(), publisherEndpoint, interval);
            Socket control = ZThread.fork(ctx, new Subscriber(), proxyEndpoint, count);

            Socket subscriber = ctx.createSocket(SocketType.XSUB);
            subscriber.connect(publisherEndpoint);
            Socket publisher = ctx.createSocket(SocketType.XPUB);
            publisher.bind(proxyEndpoint);
            Socket listener = ZThread.fork(ctx, new Listener());
            boolean terminated = ZMQ.proxy(subscriber, publisher, listener, control);
            System.out.println("I: proxy returned " + terminated);

            listener.send("END");
            System.out.println("I: listener " + listener.recvStr());
        }
    }
}
