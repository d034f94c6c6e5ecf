package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import java.lang.management.ManagementFactory;
import java.time.Duration;
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
 * High-water marks against a peer that stops reading (a SUB or PULL with RCVHWM 10 and a 64 KiB SO_RCVBUF that
 * never receives until the end): our PUB (SNDHWM 1000) drops and counts, and everything it did not count as
 * dropped is delivered once the peer reads; our PUSH blocks, {@code send(msg, timeout)} returns false after the
 * timeout, and resumes once the peer reads. In both, 2 KiB messages from fresh arrays, so a queue that grew
 * without bound would show in the heap: {@value #PUB_COUNT} messages (~200 MB) must leave the heap within
 * {@value #HEAP_SLACK_MB} MB of where it was.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SocketHwmIT {
    private static final Logger LOG = LoggerFactory.getLogger(SocketHwmIT.class);
    private static final int PUB_COUNT = 100_000;
    private static final int SIZE = 2048;
    private static final long HEAP_SLACK_MB = 48;
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final String STALLED_READER = "rcvhwm=10 rcvbuf=65536";

    private ZmtpContext ctx;

    @BeforeEach
    void setUp() {
        ctx = ZmtpContext.builder().lingerCapMillis(1000).build();
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private static ZmtpMessage message(String tag, long seq) {
        return ZmtpMessage.wrap(Unpooled.wrappedBuffer(SocketPeer.bytes(tag)),
                Unpooled.wrappedBuffer(SocketPeer.bytes(Long.toString(seq))), Unpooled.wrappedBuffer(new byte[SIZE]));
    }

    /** Heap in use after garbage collection, in bytes. */
    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(30);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @ParameterizedTest(name = "our PUB -> {0} SUB that stops reading: drops, counts, heap flat")
    @EnumSource(SocketPeer.Kind.class)
    void pubDropsAtHwm(SocketPeer.Kind kind) throws InterruptedException {
        try (SocketPeer peer = kind.start()) {
            ZmtpSocket pub = ctx.socket(ZmtpSocketType.PUB);
            pub.setOption(ZmtpSocketOption.LINGER, 0);
            String endpoint = pub.bind("tcp://127.0.0.1:*");
            new SocketEnd.Theirs(peer, "s", ZmtpSocketType.SUB, (STALLED_READER + " sub=-").split(" "));
            peer.ok("connect s " + endpoint);
            long deadline = System.nanoTime() + WAIT.toNanos();
            do {
                assertThat(System.nanoTime()).as("subscriber warm within %s", WAIT).isLessThan(deadline);
                pub.send(ZmtpMessage.of("w"));
            } while (peer.call("recv s 20").equals("NONE"));

            long before = usedHeap();
            long start = System.nanoTime();
            for (int i = 0; i < PUB_COUNT; i++) {
                assertThat(pub.send(message("d", i), Duration.ZERO)).as("PUB never blocks").isTrue();
            }
            long sendMs = (System.nanoTime() - start) / 1_000_000;
            long dropped = pub.droppedCount();
            long after = usedHeap();
            LOG.info("our PUB -> {} stalled SUB: {} x {} B sent in {} ms, {} dropped; heap used {} MB -> {} MB",
                    peer.version(), PUB_COUNT, SIZE, sendMs, dropped, before >> 20, after >> 20);
            assertThat(dropped).as("dropped").isGreaterThan(PUB_COUNT / 2);
            assertThat((after - before) >> 20).as("heap growth in MB").isLessThan(HEAP_SLACK_MB);

            // Reading again, the subscriber gets exactly what was not dropped, in order.
            Map<String, Integer> c = SocketDistributionIT.counts(peer.ok("drain s " + scaledMillis(1000)));
            LOG.info("stalled SUB then read {}", c);
            assertThat(c.getOrDefault("d", 0)).as("delivered = sent - dropped").isEqualTo(PUB_COUNT - (int) dropped);
            // And the PUB delivers again.
            pub.send(message("d", PUB_COUNT));
            assertThat(SocketPeer.frames(peer.call("recv s " + WAIT.toMillis()))).as("after the drain").isNotNull();
            assertThat(pub.droppedCount()).isEqualTo(dropped);
        }
    }

    @ParameterizedTest(name = "our PUSH -> {0} PULL that stops reading: blocks, send(msg, timeout) false")
    @EnumSource(SocketPeer.Kind.class)
    void pushBlocksAtHwm(SocketPeer.Kind kind) throws InterruptedException {
        try (SocketPeer peer = kind.start()) {
            ZmtpSocket push = ctx.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.LINGER, 0);
            String endpoint = push.bind("tcp://127.0.0.1:*");
            new SocketEnd.Theirs(peer, "p", ZmtpSocketType.PULL, STALLED_READER.split(" "));
            peer.ok("connect p " + endpoint);
            assertThat(push.send(message("d", 0), WAIT)).as("first message, once the peer is connected").isTrue();

            long before = usedHeap();
            long accepted = 1;
            long blockedMs = -1;
            while (accepted < 1_000_000) {
                long t0 = System.nanoTime();
                if (!push.send(message("d", accepted), Duration.ofMillis(200))) {
                    blockedMs = (System.nanoTime() - t0) / 1_000_000;
                    break;
                }
                accepted++;
            }
            assertThat(blockedMs).as("PUSH blocked (send returned false) within %d messages", accepted)
                    .isGreaterThanOrEqualTo(150);
            assertThat(push.trySend(message("d", -1))).as("trySend at HWM").isFalse();
            long after = usedHeap();
            LOG.info("our PUSH -> {} stalled PULL: {} x {} B accepted, then send(msg, 200 ms) returned false after {}"
                    + " ms; heap used {} MB -> {} MB", peer.version(), accepted, SIZE, blockedMs, before >> 20,
                    after >> 20);
            assertThat(accepted).as("accepted before blocking").isGreaterThanOrEqualTo(1000);
            assertThat((after - before) >> 20).as("heap growth in MB").isLessThan(HEAP_SLACK_MB);

            // Reading again, the puller gets every accepted message, in order, and PUSH sends again.
            Map<String, Integer> c = SocketDistributionIT.counts(peer.ok("drain p " + scaledMillis(1000)));
            assertThat(c).containsEntry("total", (int) accepted).containsEntry("d", (int) accepted);
            assertThat(push.send(message("d", accepted), WAIT)).as("send after the drain").isTrue();
            assertThat(SocketPeer.frames(peer.call("recv p " + WAIT.toMillis()))).as("after the drain").isNotNull();
        }
    }
}
