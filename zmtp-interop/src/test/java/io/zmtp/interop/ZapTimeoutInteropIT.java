package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our PLAIN or CURVE server with a short handshake timeout and a ZAP handler (a REP at {@code inproc://zeromq.zap.01}
 * on our context) that is slow for its first request, as a fresh JVM's is under load; a real libzmq or JeroMQ client.
 * The first handshake times out while its request is with the handler; the client must reconnect and get through.
 * Both give up for good on an ERROR during the handshake (their session ends on a protocol error), so our timeout
 * must close as libzmq's does, without one: JeromqApiInteropIT with HANDSHAKE_IVL 500 ms saw no handshake complete
 * after a first one timed out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZapTimeoutInteropIT {
    private static final Logger LOG = LoggerFactory.getLogger(ZapTimeoutInteropIT.class);
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));

    record Case(SocketPeer.Kind client, SecurityMatrix.Mechanism mechanism) {
        @Override
        public String toString() {
            return mechanism + " " + client + " client";
        }
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (SocketPeer.Kind k : SocketPeer.Kind.values()) {
            for (SecurityMatrix.Mechanism m : SecurityMatrix.Mechanism.values()) {
                cases.add(new Case(k, m));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldLetTheClientInAfterItsFirstHandshakeTimedOutWaitingForZap(Case c) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        BlockingQueue<String> requests = new LinkedBlockingQueue<>();
        try (SocketPeer peer = c.client().start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(2000).build()) {
            ZmtpSocket handler = ctx.socket(ZmtpSocketType.REP);
            handler.setOption(ZmtpSocketOption.LINGER, 0);
            handler.bind("inproc://zeromq.zap.01");
            Thread zap = new Thread(() -> serve(handler, release, requests), "test-slow-zap-handler");
            zap.setDaemon(true);
            zap.start();
            try {
                exchange(c, peer, ctx, release, requests);
            } finally {
                release.countDown();
            }
        }
    }

    private static void exchange(Case c, SocketPeer peer, ZmtpContext ctx, CountDownLatch release,
                                 BlockingQueue<String> requests) throws InterruptedException {
        ZmtpSocket server = ctx.socket(ZmtpSocketType.PULL);
        server.setOption(ZmtpSocketOption.LINGER, 0);
        server.setOption(ZmtpSocketOption.HANDSHAKE_IVL, 500);
        if (c.mechanism() == SecurityMatrix.Mechanism.PLAIN) {
            server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        } else {
            server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, SecurityMatrix.SERVER_KEYS.secretKey());
        }
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        server.monitor(events::add);
        String endpoint = server.bind("tcp://127.0.0.1:*");

        SocketEnd client = new SocketEnd.Theirs(peer, "client", ZmtpSocketType.PUSH,
                SecurityMatrix.theirClient(c.mechanism(), SecurityMatrix.PASSWORD, SecurityMatrix.CLIENT_KEYS,
                        SecurityMatrix.SERVER_KEYS).toArray(new String[0]));
        client.connect(endpoint);
        client.send("hello");

        assertThat(requests.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("first ZAP request").isNotNull();
        String failed = next(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED).detail();
        if (c.client() == SocketPeer.Kind.JEROMQ && failed.startsWith("CONNECTION_CLOSED")) {
            // Now and then JeroMQ closes a connection itself during its CURVE handshake before our 500 ms are up
            // (1 run in the CI runs of a day; its greeting-less connections, jeromq#1022, look alike): the first
            // handshake then ends on its side, and what follows, its reconnecting and getting through, is the same.
            LOG.info("{}: the client closed its first connection during the handshake, before our timeout", c);
        } else {
            assertThat(failed).startsWith("TIMEOUT");
        }
        // The handler now answers the first request, whose handshake is gone, and then the client's next one.
        release.countDown();

        ZmtpMessage m = server.receive(WAIT);
        assertThat(m).as("%s's message within %s after its first handshake timed out (ZAP requests after the first:"
                + " %s)", c.client(), WAIT, requests).isNotNull();
        try {
            assertThat(m.toStrings()).containsExactly("hello");
        } finally {
            m.release();
        }
    }

    /** Holds the first request until {@code release}, then answers it (late) and the others at once, allowing all. */
    private static void serve(ZmtpSocket handler, CountDownLatch release, BlockingQueue<String> requests) {
        try {
            for (boolean first = true; ; first = false) {
                ZmtpMessage m = handler.receive();
                List<String> frames;
                try {
                    frames = m.toStrings();
                } finally {
                    m.release();
                }
                requests.add(frames.get(1) + ":" + frames.get(5));
                LOG.info("ZAP request {} ({}){}", frames.get(1), frames.get(5), first ? ", held" : "");
                if (first) {
                    release.await();
                }
                handler.send("1.0".getBytes(US_ASCII), frames.get(1).getBytes(US_ASCII), "200".getBytes(US_ASCII),
                        "OK".getBytes(US_ASCII), "user".getBytes(US_ASCII), new byte[0]);
            }
        } catch (ZmtpSocketException | InterruptedException e) {
            // The context closed.
        }
    }

    private static ZmtpSocketEvent next(BlockingQueue<ZmtpSocketEvent> events, ZmtpSocketEvent.Type type)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ZmtpSocketEvent e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError("no " + type + " event within " + WAIT);
            }
            if (e.type() == type) {
                return e;
            }
        }
    }
}
