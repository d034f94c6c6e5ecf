package io.zmtp.interop;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import static io.zmtp.testkit.TestTimeouts.scaled;

/** Shared settings and plumbing of the interop tests. */
final class Interop {
    /** Messages per stream test (10,000 multipart messages, every payload checked: enough to cross many reads and writes). */
    static final int COUNT = 10_000;
    static final int SEED = 20250;
    /** Messages in flight in the echo tests. */
    static final int WINDOW = 64;
    static final Duration HANDSHAKE_WAIT = scaled(Duration.ofSeconds(10));
    static final Duration STREAM_WAIT = scaled(Duration.ofSeconds(120));

    private Interop() {}

    /** Who listens: our Netty server with the peer connecting, or the peer with our Netty client connecting. */
    enum Side {
        WE_BIND, THEY_BIND
    }

    /** A Python peer linked to our handler; {@code server} is set when we bind. */
    record Link(PyZmq.Peer peer, NettyZmtp.Server server, Channel channel) {}

    /**
     * Starts {@code script} (its arguments may contain {@code {endpoint}} and {@code {mode}}, filled in for the side)
     * and links {@code handler} to it: when we bind, the peer connects to our server, whose first accepted connection
     * gets {@code handler} (later ones, which a correct run never has, get {@link Handlers.Passive}); when they bind,
     * the script prints {@code ENDPOINT <address>} and our client connects there.
     */
    static Link link(NettyZmtp netty, Side side, ZmtpConfig config, PeerHandler handler, boolean interactive,
                     String script, String... args) {
        if (side == Side.WE_BIND) {
            boolean[] first = {true};
            NettyZmtp.Server server = netty.bind(config, () -> {
                synchronized (first) {
                    if (first[0]) {
                        first[0] = false;
                        return handler;
                    }
                    return new Handlers.Passive();
                }
            });
            PyZmq.Peer peer = start(interactive, script, fill(args, server.endpoint(), "connect"));
            try {
                server.nextAccepted(HANDSHAKE_WAIT);
            } catch (AssertionError e) {
                peer.close();
                throw new AssertionError(e.getMessage() + describe(peer), e);
            }
            return new Link(peer, server, handler.channel);
        }
        PyZmq.Peer peer = start(interactive, script, fill(args, "tcp://127.0.0.1:*", "bind"));
        String line = peer.readLine();
        if (!line.startsWith("ENDPOINT ")) {
            peer.close();
            throw new AssertionError("expected 'ENDPOINT <address>' from " + script + ", got: " + line);
        }
        Channel channel = netty.connect(line.substring("ENDPOINT ".length()), config, handler);
        return new Link(peer, null, channel);
    }

    /** A JeroMQ peer linked to our handler; {@code server} is set when we bind. */
    record JeroLink(JeroMq.Peer peer, NettyZmtp.Server server) {}

    /**
     * As {@link #link}, with an in-process JeroMQ peer of {@code type} running {@code body}. When we bind, the
     * handler goes to the first accepted connection whose handshake succeeds, not simply the first one accepted:
     * JeroMQ 0.6.0's connecting side now and then never sends a byte on a fresh connection (seen against libzmq
     * too), and only its handshake timeout ({@link JeroMq#HANDSHAKE_IVL_MILLIS}) and reconnect get it going again.
     */
    static JeroLink linkJeroMq(NettyZmtp netty, Side side, ZmtpConfig config, PeerHandler handler,
                               org.zeromq.SocketType type, JeroMq.Body body) {
        if (side == Side.WE_BIND) {
            java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
            NettyZmtp.Server server = netty.bindDeferred(config, () -> new NettyZmtp.Deferred(handler, claimed));
            JeroMq.Peer peer = new JeroMq.Peer(type, server.endpoint(), body);
            server.nextAccepted(HANDSHAKE_WAIT);
            return new JeroLink(peer, server);
        }
        JeroMq.Peer peer = new JeroMq.Peer(type, null, body);
        String endpoint = await(peer.endpoint, HANDSHAKE_WAIT, "JeroMQ bind", () -> "");
        netty.connect(endpoint, config, handler);
        return new JeroLink(peer, null);
    }

    /** Context for failure messages: our handler's progress and the JeroMQ peer's outcome so far. */
    static Supplier<String> context(PeerHandler handler, JeroMq.Peer peer) {
        return () -> " [ours: " + handler.progress() + ", events " + handler.events + "] [JeroMQ peer: "
                + (peer.result.isDone() ? peer.result.handle((r, t) -> t == null ? r : t.toString()).join()
                : "running") + "]";
    }

    private static PyZmq.Peer start(boolean interactive, String script, String[] args) {
        return interactive ? PyZmq.startInteractive(script, args) : PyZmq.start(script, args);
    }

    private static String[] fill(String[] args, String endpoint, String mode) {
        List<String> out = new ArrayList<>();
        for (String a : args) {
            out.add(a.replace("{endpoint}", endpoint).replace("{mode}", mode));
        }
        return out.toArray(new String[0]);
    }

    /** The peer's {@code RESULT ...} line (earlier lines are skipped). */
    static String result(PyZmq.Peer peer) {
        while (true) {
            String line = peer.readLine(STREAM_WAIT);
            if (line.startsWith("RESULT ")) {
                return line;
            }
        }
    }

    /** Waits for {@code future}; on failure or timeout, the error says what the test was waiting for. */
    static <T> T await(CompletableFuture<T> future, Duration timeout, String what, Supplier<String> context) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed: " + e.getCause() + context.get(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError(what + " not done within " + timeout + context.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }

    /** Context for failure messages: our handler's progress and the peer's stderr. */
    static Supplier<String> context(PeerHandler handler, PyZmq.Peer peer) {
        return () -> " [ours: " + handler.progress() + ", events " + handler.events + "]" + describe(peer);
    }

    static String describe(PyZmq.Peer peer) {
        if (peer == null) {
            return "";
        }
        String err = peer.stderr();
        return err.isEmpty() ? "" : " [peer stderr: " + err + "]";
    }

    static String libzmq() {
        PyZmq.Versions v = PyZmq.versions();
        return "libzmq " + v.libzmq() + " (pyzmq " + v.pyzmq() + ")";
    }
}
