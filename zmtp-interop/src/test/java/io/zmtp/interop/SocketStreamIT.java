package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * 100,000 messages ([tag, seq, 0 to 199 bytes of payload(seq)]) with every one checked, in order, for DEALER/ROUTER
 * (a round trip through an echo, at most {@value #WINDOW} in flight) and PUSH/PULL (one way), our socket on either
 * side, against libzmq and JeroMQ.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SocketStreamIT {
    private static final Logger LOG = LoggerFactory.getLogger(SocketStreamIT.class);
    static final int COUNT = 100_000;
    static final int WINDOW = 500;
    private static final byte[] TAG = SocketPeer.bytes("s");
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final Duration DONE_WAIT = scaled(Duration.ofSeconds(60));

    private ZmtpContext ctx;

    @BeforeEach
    void setUp() {
        ctx = ZmtpContext.builder().lingerCapMillis(2000).build();
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    private static ZmtpMessage message(long seq) {
        return ZmtpMessage.ofBytes(TAG, SocketPeer.bytes(Long.toString(seq)), SocketPeer.payload(seq));
    }

    private static void send(ZmtpSocket s, ZmtpMessage m, long seq) {
        assertThat(s.send(m, WAIT)).as("%s: message %d queued within %s", s.type(), seq, WAIT).isTrue();
    }

    /** Receives message {@code seq} and checks it; {@code skip} leading frames (a ROUTER's id) are ignored. */
    private static void receiveAndCheck(ZmtpSocket s, long seq, int skip) {
        ZmtpMessage m = s.receive(WAIT);
        assertThat(m).as("%s: message %d within %s", s.type(), seq, WAIT).isNotNull();
        List<byte[]> frames = SocketEnd.Ours.frames(m);
        String error = SocketPeer.check(frames.subList(skip, frames.size()), TAG, seq);
        if (error != null) {
            throw new AssertionError(s.type() + ": " + error);
        }
    }

    private static void log(String what, SocketPeer peer, long startNanos, String reply) {
        long ms = Math.max(1, (System.nanoTime() - startNanos) / 1_000_000);
        LOG.info("{} ({}): {} messages in {} ms, {} msg/s; peer: {}", what, peer.version(), COUNT, ms,
                COUNT * 1000L / ms, reply);
    }

    @ParameterizedTest(name = "our DEALER <-> {0} ROUTER echo, 100,000 messages")
    @EnumSource(SocketPeer.Kind.class)
    void ourDealerTheirRouter(SocketPeer.Kind kind) {
        try (SocketPeer peer = kind.start()) {
            new SocketEnd.Theirs(peer, "r", ZmtpSocketType.ROUTER);
            String endpoint = peer.ok("bind r tcp://127.0.0.1:*");
            ZmtpSocket dealer = socket(ZmtpSocketType.DEALER);
            dealer.connect(endpoint);
            long start = System.nanoTime();
            peer.submit("echo r " + COUNT + " " + scaledMillis(10_000));
            long received = 0;
            for (long sent = 0; sent < COUNT; sent++) {
                send(dealer, message(sent), sent);
                if (sent - received >= WINDOW) {
                    receiveAndCheck(dealer, received++, 0);
                }
            }
            while (received < COUNT) {
                receiveAndCheck(dealer, received++, 0);
            }
            String reply = peer.reply(DONE_WAIT);
            assertThat(reply).isEqualTo("OK echoed=" + COUNT);
            log("our DEALER <-> ROUTER echo", peer, start, reply);
        }
    }

    @ParameterizedTest(name = "{0} DEALER <-> our ROUTER echo, 100,000 messages")
    @EnumSource(SocketPeer.Kind.class)
    void theirDealerOurRouter(SocketPeer.Kind kind) {
        try (SocketPeer peer = kind.start()) {
            ZmtpSocket router = socket(ZmtpSocketType.ROUTER);
            String endpoint = router.bind("tcp://127.0.0.1:*");
            new SocketEnd.Theirs(peer, "d", ZmtpSocketType.DEALER);
            peer.ok("connect d " + endpoint);
            long start = System.nanoTime();
            peer.submit("stream d " + COUNT + " " + WINDOW + " s " + scaledMillis(10_000));
            for (long i = 0; i < COUNT; i++) {
                ZmtpMessage m = router.receive(WAIT);
                assertThat(m).as("ROUTER: message %d within %s", i, WAIT).isNotNull();
                assertThat(m.size()).as("ROUTER: frames of message %d", i).isEqualTo(4);
                // Echo as it came, routing id first: the DEALER checks contents and order.
                send(router, m, i);
            }
            String reply = peer.reply(DONE_WAIT);
            assertThat(reply).isEqualTo("OK streamed=" + COUNT);
            assertThat(router.droppedCount()).isZero();
            log("DEALER <-> our ROUTER echo", peer, start, reply);
        }
    }

    @ParameterizedTest(name = "our PUSH -> {0} PULL, 100,000 messages")
    @EnumSource(SocketPeer.Kind.class)
    void ourPushTheirPull(SocketPeer.Kind kind) {
        try (SocketPeer peer = kind.start()) {
            ZmtpSocket push = socket(ZmtpSocketType.PUSH);
            String endpoint = push.bind("tcp://127.0.0.1:*");
            new SocketEnd.Theirs(peer, "p", ZmtpSocketType.PULL);
            peer.ok("connect p " + endpoint);
            long start = System.nanoTime();
            peer.submit("recvseq p " + COUNT + " s " + scaledMillis(10_000));
            for (long i = 0; i < COUNT; i++) {
                send(push, message(i), i);
            }
            String reply = peer.reply(DONE_WAIT);
            assertThat(reply).isEqualTo("OK received=" + COUNT + " ignored=0");
            log("our PUSH -> PULL", peer, start, reply);
        }
    }

    @ParameterizedTest(name = "{0} PUSH -> our PULL, 100,000 messages")
    @EnumSource(SocketPeer.Kind.class)
    void theirPushOurPull(SocketPeer.Kind kind) {
        try (SocketPeer peer = kind.start()) {
            new SocketEnd.Theirs(peer, "p", ZmtpSocketType.PUSH);
            String endpoint = peer.ok("bind p tcp://127.0.0.1:*");
            ZmtpSocket pull = socket(ZmtpSocketType.PULL);
            pull.connect(endpoint);
            long start = System.nanoTime();
            peer.submit("sendseq p " + COUNT + " s");
            for (long i = 0; i < COUNT; i++) {
                receiveAndCheck(pull, i, 0);
            }
            String reply = peer.reply(DONE_WAIT);
            assertThat(reply).isEqualTo("OK sent=" + COUNT);
            log("PUSH -> our PULL", peer, start, reply);
        }
    }
}
