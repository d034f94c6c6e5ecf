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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our socket with three foreign peers (three sockets of one libzmq or JeroMQ peer), where the pattern distributes:
 * round-robin of PUSH and DEALER (exactly a third each), fair-queuing of PULL (three queued streams interleaved),
 * fan-out of PUB (each subscriber gets what its subscription selects, counted).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketDistributionIT {
    private static final Logger LOG = LoggerFactory.getLogger(SocketDistributionIT.class);
    private static final List<String> NAMES = List.of("a", "b", "c");
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));

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

    private static ZmtpMessage seqMessage(String tag, long seq) {
        return ZmtpMessage.ofBytes(SocketPeer.bytes(tag), SocketPeer.bytes(Long.toString(seq)), SocketPeer.payload(seq));
    }

    /** "total=100 d=100" -> {total=100, d=100}. */
    static Map<String, Integer> counts(String okReply) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String kv : okReply.trim().split(" ")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                counts.put(kv.substring(0, eq), Integer.parseInt(kv.substring(eq + 1)));
            }
        }
        return counts;
    }

    @ParameterizedTest(name = "our PUSH -> 3 {0} PULL: round-robin")
    @EnumSource(SocketPeer.Kind.class)
    void pushRoundRobin(SocketPeer.Kind kind) {
        roundRobin(kind, ZmtpSocketType.PUSH, ZmtpSocketType.PULL, 0);
    }

    @ParameterizedTest(name = "our DEALER -> 3 {0} ROUTER: round-robin")
    @EnumSource(SocketPeer.Kind.class)
    void dealerRoundRobin(SocketPeer.Kind kind) {
        roundRobin(kind, ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, 1);
    }

    /** Ours connects to three bound peers: its pipes exist from connect(), so the split is exact. */
    private void roundRobin(SocketPeer.Kind kind, ZmtpSocketType ourType, ZmtpSocketType theirType, int skip) {
        try (SocketPeer peer = kind.start()) {
            LOG.info("our {} -> 3 {} {}", ourType, peer.version(), theirType);
            ZmtpSocket ours = socket(ourType);
            for (String n : NAMES) {
                new SocketEnd.Theirs(peer, n, theirType);
                ours.connect(peer.ok("bind " + n + " tcp://127.0.0.1:*"));
            }
            for (int i = 0; i < 300; i++) {
                assertThat(ours.send(seqMessage("d", i), WAIT)).as("send %d", i).isTrue();
            }
            for (String n : NAMES) {
                // drain also checks that each peer's share arrives in order; then nothing more may come.
                Map<String, Integer> c = counts(peer.ok("drain " + n + " 5000 " + skip + " 100"));
                assertThat(c).as("%s %s %s", kind, theirType, n).containsEntry("total", 100).containsEntry("d", 100);
            }
            for (String n : NAMES) {
                assertThat(peer.call("recv " + n + " 200")).as("%s %s %s: a 101st message", kind, theirType, n)
                        .isEqualTo("NONE");
            }
        }
    }

    @ParameterizedTest(name = "3 {0} PUSH -> our PULL: fair-queuing")
    @EnumSource(SocketPeer.Kind.class)
    void pullFairQueue(SocketPeer.Kind kind) throws InterruptedException {
        try (SocketPeer peer = kind.start()) {
            LOG.info("3 {} PUSH -> our PULL", peer.version());
            ZmtpSocket pull = socket(ZmtpSocketType.PULL);
            String endpoint = pull.bind("tcp://127.0.0.1:*");
            for (String n : NAMES) {
                new SocketEnd.Theirs(peer, n, ZmtpSocketType.PUSH);
                peer.ok("connect " + n + " " + endpoint);
            }
            // Each peer queues its whole stream before we read anything (300 < RCVHWM), so our pipes all have
            // input when we start and fair-queuing must interleave them. Wait until all 900 have arrived: a fixed
            // pause (500 ms) left a pipe empty on a busy machine, and the first reads then came from two peers.
            for (String n : NAMES) {
                peer.ok("sendseq " + n + " 300 " + n.toUpperCase());
            }
            long queued = System.nanoTime() + WAIT.toNanos();
            while (pull.receivedCount() < 900) {
                assertThat(System.nanoTime()).as("all 900 arrived within %s (%d)", WAIT, pull.receivedCount())
                        .isLessThan(queued);
                Thread.sleep(10);
            }
            Map<String, Integer> next = new HashMap<>();
            Map<String, Integer> firstNinety = new HashMap<>();
            for (int i = 0; i < 900; i++) {
                ZmtpMessage m = pull.receive(WAIT);
                assertThat(m).as("message %d", i).isNotNull();
                List<byte[]> frames = SocketEnd.Ours.frames(m);
                String tag = SocketPeer.text(frames.get(0));
                int seq = next.getOrDefault(tag, 0);
                assertThat(SocketPeer.check(frames, SocketPeer.bytes(tag), seq)).as("from %s", tag).isNull();
                next.put(tag, seq + 1);
                if (i < 90) {
                    firstNinety.merge(tag, 1, Integer::sum);
                }
            }
            assertThat(next).containsOnly(Map.entry("A", 300), Map.entry("B", 300), Map.entry("C", 300));
            LOG.info("3 {} PUSH -> our PULL: first 90 messages by sender {}", kind, firstNinety);
            assertThat(firstNinety.values()).as("first 90 by sender: %s", firstNinety).hasSize(3)
                    .allSatisfy(n -> assertThat(n).isBetween(20, 40));
            assertThat(pull.receive(Duration.ofMillis(100))).isNull();
        }
    }

    @ParameterizedTest(name = "our PUB -> 3 {0} SUB: fan-out")
    @EnumSource(SocketPeer.Kind.class)
    void pubFanOut(SocketPeer.Kind kind) {
        try (SocketPeer peer = kind.start()) {
            LOG.info("our PUB -> 3 {} SUB", peer.version());
            ZmtpSocket pub = socket(ZmtpSocketType.PUB);
            String endpoint = pub.bind("tcp://127.0.0.1:*");
            // a: everything; b: "d" (and the warm-up "w"); c: "x", which nothing matches (and "w").
            new SocketEnd.Theirs(peer, "a", ZmtpSocketType.SUB, "sub=-");
            new SocketEnd.Theirs(peer, "b", ZmtpSocketType.SUB, "sub=" + SocketPeer.hex(SocketPeer.bytes("d")),
                    "sub=" + SocketPeer.hex(SocketPeer.bytes("w")));
            new SocketEnd.Theirs(peer, "c", ZmtpSocketType.SUB, "sub=" + SocketPeer.hex(SocketPeer.bytes("x")),
                    "sub=" + SocketPeer.hex(SocketPeer.bytes("w")));
            for (String n : NAMES) {
                peer.ok("connect " + n + " " + endpoint);
            }
            // Warm up until each subscriber has got a "w": their subscriptions are then in place at our PUB.
            Map<String, Boolean> warm = new HashMap<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (warm.size() < 3) {
                assertThat(System.nanoTime()).as("all 3 subscribers warm within %s (warm: %s)", WAIT, warm.keySet())
                        .isLessThan(deadline);
                pub.send(ZmtpMessage.of("w"));
                for (String n : NAMES) {
                    if (!warm.containsKey(n) && !peer.call("recv " + n + " 20").equals("NONE")) {
                        warm.put(n, true);
                    }
                }
            }
            for (int i = 0; i < 400; i++) {
                pub.send(seqMessage(i % 4 == 3 ? "e" : "d", i));
            }
            // The warm-up "w"s (a few) come first; all were sent before the data, so idle gaps are short (but longer
            // on a busy machine: the idle limit is a deadline for the next message).
            Map<String, Integer> a = counts(peer.ok("drain a " + scaledMillis(1000)));
            Map<String, Integer> b = counts(peer.ok("drain b " + scaledMillis(1000)));
            Map<String, Integer> c = counts(peer.ok("drain c 300"));
            LOG.info("our PUB -> 3 {} SUB: received a {}, b {}, c {}", kind, a, b, c);
            assertThat(a).containsEntry("d", 300).containsEntry("e", 100);
            assertThat(b).containsEntry("d", 300).doesNotContainKey("e");
            assertThat(c).doesNotContainKeys("d", "e");
            assertThat(pub.droppedCount()).isZero();
        }
    }
}
