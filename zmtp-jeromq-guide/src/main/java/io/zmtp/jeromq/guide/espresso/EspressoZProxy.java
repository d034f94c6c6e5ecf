package io.zmtp.jeromq.guide.espresso;

import java.util.HashSet;
import java.util.Set;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Socket;
import org.zeromq.ZProxy;
import org.zeromq.ZThread;

/**
 * espresso with JeroMQ's {@link ZProxy} in place of {@code ZMQ.proxy}: the same XSUB/XPUB tracer, its proxy an actor
 * steered from the main thread ({@code start}, {@code pause}, {@code exit}), its capture a PUSH socket the proxy
 * creates and connects to the main thread's PULL.
 *
 * <p>Arguments: {@code [publisher proxy [count [interval]]]}, as {@link Espresso}. The subscriber (a forked thread)
 * hands each message it gets to the main thread on its pipe; once it has {@code count}, the main thread pauses the
 * proxy and reads the capture until it has seen both subscriptions and every one of those messages (the proxy copies
 * a message to the capture before forwarding it), then ends the proxy.
 */
public final class EspressoZProxy {
    private EspressoZProxy() {}

    /** The proxy's sockets: XSUB connected to the publisher, XPUB bound for subscribers, PUSH to the capture. */
    private static final class Sockets extends ZProxy.Proxy.SimpleProxy {
        @Override
        public Socket create(ZContext ctx, ZProxy.Plug place, Object... args) {
            switch (place) {
                case FRONT:
                    return ctx.createSocket(SocketType.XSUB);
                case BACK:
                    return ctx.createSocket(SocketType.XPUB);
                default:
                    return ctx.createSocket(SocketType.PUSH);
            }
        }

        @Override
        public boolean configure(Socket socket, ZProxy.Plug place, Object... args) {
            switch (place) {
                case FRONT:
                    return socket.connect((String) args[0]);
                case BACK:
                    return socket.bind((String) args[1]);
                default:
                    return socket.connect((String) args[2]);
            }
        }
    }

    /** The subscriber thread subscribes to A and B, and passes on what it gets to its parent. */
    private static final class Subscriber implements ZThread.IAttachedRunnable {
        @Override
        public void run(Object[] args, ZContext ctx, Socket pipe) {
            Socket subscriber = ctx.createSocket(SocketType.SUB);
            subscriber.connect((String) args[0]);
            subscriber.subscribe("A".getBytes(ZMQ.CHARSET));
            subscriber.subscribe("B".getBytes(ZMQ.CHARSET));
            for (int count = 0; count < (Integer) args[1]; count++) {
                String string = subscriber.recvStr();
                if (string == null) {
                    break; // Interrupted
                }
                System.out.println("Subscriber: " + string);
                pipe.send(string);
            }
        }
    }

    public static void main(String[] args) {
        String publisherEndpoint = args.length > 0 ? args[0] : "tcp://127.0.0.1:6000";
        String proxyEndpoint = args.length > 1 ? args[1] : "tcp://127.0.0.1:6001";
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        long interval = args.length > 3 ? Long.parseLong(args[3]) : 100;
        String captureEndpoint = "inproc://espresso-capture";

        try (ZContext ctx = new ZContext()) {
            ZThread.fork(ctx, new Espresso.Publisher(), publisherEndpoint, interval);
            Socket capture = ctx.createSocket(SocketType.PULL);
            capture.bind(captureEndpoint);

            ZProxy proxy = ZProxy.newProxy(ctx, "espresso", new Sockets(), "EXIT", publisherEndpoint, proxyEndpoint,
                    captureEndpoint);
            System.out.println("I: proxy " + proxy.start(true));

            Socket subscriber = ZThread.fork(ctx, new Subscriber(), proxyEndpoint, count);
            Set<String> unseen = new HashSet<>();
            unseen.add("0141"); // The subscriptions, \x01 + topic, not printable: shown in hex
            unseen.add("0142");
            for (int received = 0; received < count; received++) {
                unseen.add(subscriber.recvStr());
            }
            System.out.println("I: proxy " + proxy.pause(true));

            capture.setReceiveTimeOut(10_000);
            while (!unseen.isEmpty()) {
                ZFrame frame = ZFrame.recvFrame(capture);
                if (frame == null) {
                    break;
                }
                String text = frame.toString();
                System.out.println("Capture: " + text);
                unseen.remove(text);
                frame.destroy();
            }
            System.out.println("I: not captured " + unseen.size());
            System.out.println("I: proxy " + proxy.exit());
        }
    }
}
