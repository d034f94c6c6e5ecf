package io.zmtp.interop;

import static io.zmtp.interop.SecurityMatrix.CLIENT_KEYS;
import static io.zmtp.interop.SecurityMatrix.PASSWORD;
import static io.zmtp.interop.SecurityMatrix.SERVER_KEYS;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.interop.SecurityMatrix.Mechanism;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Refusals with a real foreign peer on the other side: wrong credentials either way, a wrong server key, a NULL peer
 * where CURVE is required. Each must end in a HANDSHAKE_FAILED monitor event on our socket, with the reason, and no
 * message from the refused side may reach the application on the other.
 */
final class SecurityRefusals implements AutoCloseable {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final Duration NOTHING_WAIT = Duration.ofMillis(500);

    final SocketPeer peer;
    final ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(500).build();
    final BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();

    SecurityRefusals(SocketPeer.Kind kind) {
        this.peer = kind.start();
    }

    ZmtpSocket ours(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 0);
        s.monitor(events::add);
        return s;
    }

    /**
     * The first HANDSHAKE_FAILED event of ours (HANDSHAKE_SUCCEEDED fails the test: the peer should have been
     * refused).
     */
    String handshakeFailure() throws InterruptedException {
        return handshakeFailure(false);
    }

    /**
     * As {@link #handshakeFailure()}, leaving out connections closed before they said anything: a JeroMQ 0.6.0
     * client now and then connects without sending a greeting and closes at its handshake timeout (see
     * {@link SocketPeer}), then reconnects; the refusal comes on a later connection.
     */
    String refusalOfTheirClient() throws InterruptedException {
        return handshakeFailure(true);
    }

    private String handshakeFailure(boolean skipClosed) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ZmtpSocketEvent e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError("no HANDSHAKE_FAILED event within " + WAIT);
            }
            assertThat(e.type()).as("event %s", e).isNotEqualTo(ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED);
            if (e.type() == ZmtpSocketEvent.Type.HANDSHAKE_FAILED
                    && !(skipClosed && e.detail().startsWith("CONNECTION_CLOSED"))) {
                return e.detail();
            }
        }
    }

    /** Their server (bound, ZAP handler allowing the matrix's client); returns its endpoint. */
    String theirServer(Mechanism mechanism, ZmtpSocketType type) {
        peer.ok(SecurityMatrix.theirZap(mechanism));
        List<String> options = new ArrayList<>(SecurityMatrix.theirServer(mechanism));
        peer.ok("new srv " + type + " " + String.join(" ", options));
        return peer.ok("bind srv tcp://127.0.0.1:*");
    }

    /** Their client, connected to {@code endpoint}, sending one message. */
    void theirClient(String endpoint, ZmtpSocketType type, List<String> options) {
        peer.ok("new cli " + type + (options.isEmpty() ? "" : " " + String.join(" ", options)));
        peer.ok("connect cli " + endpoint);
        peer.call("send cli " + SocketPeer.hex(SocketPeer.bytes("smuggled")));
    }

    /** Our server, bound; returns its endpoint. */
    ZmtpSocket ourServer(Mechanism mechanism, ZmtpSocketType type) {
        ZmtpSocket s = ours(type);
        SecurityMatrix.ourServer(s, mechanism);
        return s;
    }

    void assertTheirServerReceivedNothing() {
        assertThat(peer.call("recv srv " + NOTHING_WAIT.toMillis())).as("their server").isEqualTo("NONE");
    }

    static void assertReceivedNothing(ZmtpSocket socket) {
        assertThat(socket.receive(NOTHING_WAIT)).as("our server").isNull();
    }

    static String wrongPassword() {
        return PASSWORD + "-wrong";
    }

    static CurveKeyPair stranger() {
        return CurveKeyPair.generate();
    }

    static byte[] serverKey() {
        return SERVER_KEYS.publicKey();
    }

    static CurveKeyPair clientKeys() {
        return CLIENT_KEYS;
    }

    @Override
    public void close() {
        try {
            ctx.close();
        } finally {
            peer.close();
        }
    }
}
