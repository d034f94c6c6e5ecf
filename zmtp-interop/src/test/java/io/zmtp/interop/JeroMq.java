package io.zmtp.interop;

import io.zmtp.testkit.TestTimeouts;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * JeroMQ peers for the interop tests, in-process: each runs on its own thread (a JeroMQ socket belongs to one
 * thread), binds or connects, and reports a one-line result like the Python peers do.
 */
final class JeroMq {
    private static final int RECEIVE_TIMEOUT_MILLIS = (int) TestTimeouts.scaledMillis(10_000);
    /**
     * JeroMQ's handshake timeout (default 30 s). About one fresh JeroMQ 0.6.0 connection in 20 stalls with JeroMQ
     * never sending its greeting (the peer accepted and sent its own); the timeout closes it and JeroMQ reconnects.
     */
    static final int HANDSHAKE_IVL_MILLIS = 2_000;

    private JeroMq() {}

    /** "JeroMQ 0.6.0 (ZMQ version 4.x.y)", from the jar's Maven metadata. */
    static String version() {
        String artifact = "?";
        try (InputStream in = ZMQ.class.getResourceAsStream("/META-INF/maven/org.zeromq/jeromq/pom.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                artifact = p.getProperty("version", "?");
            }
        } catch (IOException ignored) {
            // reported as "?"
        }
        return "JeroMQ " + artifact + " (ZMQ version " + ZMQ.getVersionString() + ")";
    }

    /** A peer thread: {@link #endpoint} completes once bound or connected, {@link #result} at the end. */
    static final class Peer implements AutoCloseable {
        final CompletableFuture<String> endpoint = new CompletableFuture<>();
        final CompletableFuture<String> result = new CompletableFuture<>();
        private final ZContext context = new ZContext(1);
        private final Thread thread;

        /**
         * Starts a peer of {@code type} that binds 127.0.0.1 on a random port ({@code connectTo == null}) or
         * connects to {@code connectTo}, then runs {@code body} with the socket.
         */
        Peer(SocketType type, String connectTo, Body body) {
            // ZContext.destroySocket applies the context's linger (default 0: queued messages dropped).
            context.setLinger(10_000);
            thread = new Thread(() -> {
                ZMQ.Socket socket = context.createSocket(type);
                try {
                    socket.setReceiveTimeOut(RECEIVE_TIMEOUT_MILLIS);
                    socket.setHandshakeIvl(HANDSHAKE_IVL_MILLIS);
                    body.configure(socket);
                    if (connectTo == null) {
                        int port = socket.bindToRandomPort("tcp://127.0.0.1");
                        endpoint.complete("tcp://127.0.0.1:" + port);
                    } else {
                        socket.connect(connectTo);
                        endpoint.complete(connectTo);
                    }
                    result.complete(body.run(socket));
                } catch (Throwable t) {
                    endpoint.completeExceptionally(t);
                    result.completeExceptionally(t);
                } finally {
                    context.destroySocket(socket);
                }
            }, "jeromq-" + type);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            thread.join(15_000);
            context.close();
        }
    }

    interface Body {
        default void configure(ZMQ.Socket socket) {
        }

        String run(ZMQ.Socket socket) throws Exception;
    }

    /** Receives one multipart message, or fails after the receive timeout. */
    static List<byte[]> receive(ZMQ.Socket socket, String what) {
        List<byte[]> frames = new ArrayList<>();
        do {
            byte[] frame = socket.recv();
            if (frame == null) {
                throw new AssertionError("JeroMQ: nothing received for " + RECEIVE_TIMEOUT_MILLIS + " ms, " + what);
            }
            frames.add(frame);
        } while (socket.hasReceiveMore());
        return frames;
    }

    static void send(ZMQ.Socket socket, List<byte[]> frames) {
        for (int f = 0; f < frames.size(); f++) {
            check(socket.send(frames.get(f), f < frames.size() - 1 ? ZMQ.SNDMORE : 0), socket);
        }
    }

    static void check(boolean sent, ZMQ.Socket socket) {
        if (!sent) {
            throw new ZMQException("send failed", socket.errno());
        }
    }

    /** Checks and echoes {@code count} messages of {@code payloads}; a ROUTER keeps the routing id in front. */
    static Body echo(Payloads payloads, int count, boolean router) {
        return socket -> {
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                List<byte[]> frames = receive(socket, "after " + i + " messages");
                List<byte[]> body = router ? frames.subList(1, frames.size()) : frames;
                payloads.check(i, body);
                for (byte[] b : body) {
                    bytes += b.length;
                }
                send(socket, frames);
            }
            return "received=" + count + " bytes=" + bytes;
        };
    }

    /**
     * A publisher: warm-up messages every 10 ms until {@code go}, then {@code data} + message i for i < count,
     * with a {@code skip} message after every 10th. No high-water mark, so nothing is dropped.
     */
    static Body publisher(Payloads payloads, int count, BooleanSupplier go) {
        return new Body() {
            @Override
            public void configure(ZMQ.Socket socket) {
                socket.setSndHWM(0);
            }

            @Override
            public String run(ZMQ.Socket socket) throws InterruptedException {
                long deadline = System.nanoTime() + 20_000_000_000L;
                int warmups = 0;
                while (!go.getAsBoolean()) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("JeroMQ PUB: no GO within 20 s");
                    }
                    check(socket.send(Payloads.WARMUP_TOPIC), socket);
                    warmups++;
                    Thread.sleep(10);
                }
                int skipped = 0;
                for (int i = 0; i < count; i++) {
                    check(socket.send(Payloads.TOPIC, ZMQ.SNDMORE), socket);
                    payloads.forEachFrame(i, (array, offset, length, more) ->
                            check(socket.send(array, offset, length, more ? ZMQ.SNDMORE : 0), socket));
                    if (i % 10 == 9) {
                        check(socket.send(Payloads.SKIP_TOPIC, ZMQ.SNDMORE), socket);
                        check(socket.send("x"), socket);
                        skipped++;
                    }
                }
                return "sent=" + count + " skipped=" + skipped + " warmups=" + warmups;
            }
        };
    }

    /** A subscriber to {@code data} that checks {@code count} messages. */
    static Body subscriber(Payloads payloads, int count) {
        return new Body() {
            @Override
            public void configure(ZMQ.Socket socket) {
                socket.subscribe(Payloads.TOPIC);
            }

            @Override
            public String run(ZMQ.Socket socket) {
                long bytes = 0;
                for (int i = 0; i < count; i++) {
                    List<byte[]> frames = receive(socket, "after " + i + " messages");
                    if (!java.util.Arrays.equals(frames.get(0), Payloads.TOPIC)) {
                        throw new AssertionError("message " + i + ": topic " + new String(frames.get(0),
                                java.nio.charset.StandardCharsets.ISO_8859_1));
                    }
                    payloads.check(i, frames.subList(1, frames.size()));
                    for (byte[] b : frames.subList(1, frames.size())) {
                        bytes += b.length;
                    }
                }
                return "received=" + count + " bytes=" + bytes;
            }
        };
    }
}
