package io.zmtp.socket;

import io.netty.util.internal.PlatformDependent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile peers against a bound ROUTER that serves a well-behaved DEALER throughout: each test checks that the
 * ROUTER deals with the hostile one as documented (closes it, or bounds what it holds for it), keeps answering the
 * DEALER while it does, and ends with no buffer leaked (LeakCheckExtension, paranoid), no connection left open
 * (file descriptors) and its heap back near where it was. The figures (heap after a GC, Netty's direct memory) are
 * printed for docs/RELIABILITY.md.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostilePeersIT {
    private static final int HANDSHAKE_IVL = 1500;
    private static final long MAXMSGSIZE = 64 * 1024;
    /** What any test's attack may leave on the heap or in Netty's direct memory (a GC away from the baseline). */
    private static final long MEMORY_SLACK = 32L * 1024 * 1024;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private ZmtpSocket router;
    private String endpoint;
    /**
     * The ROUTER's monitor events. A queue, not a copy-on-write list: 10,000 dropped connections make tens of
     * thousands of events, which a copy-on-write list copied on every add. They are the test's own bookkeeping, so
     * they are dropped before the heap is measured after an attack.
     */
    private final Queue<ZmtpSocketEvent> events = new ConcurrentLinkedQueue<>();
    private final AtomicLong hostileMessages = new AtomicLong();
    /** The routing id the ROUTER gave the first hostile peer that sent a message. */
    private final AtomicReference<byte[]> hostileId = new AtomicReference<>();
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong slowestRoundTripNanos = new AtomicLong();
    /** When the test method's attack ended (0 while it runs): a failure says whether the good peer's wait outlived it. */
    private volatile long attackEndedNanos;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The good peer's loop: stops sending when the attack ends. */
    private volatile boolean running = true;
    /**
     * The server's loop: stops only once the good peer has stopped, so that a ping sent just before the attack ended
     * is still answered (it wasn't: the server saw {@code running} false first, under load, and the good peer waited
     * 30 s for a reply nobody would send; CI with two busy loops, and once in six runs at load 17).
     */
    private volatile boolean serving = true;
    private Thread server;
    private Thread client;
    private ZmtpSocket good;
    private long heapBefore;
    private long directBefore;
    private long fdsBefore;

    @BeforeEach
    void startRouterAndAGoodPeer() throws Exception {
        router = sockets.socket(ZmtpSocketType.ROUTER);
        router.setOption(ZmtpSocketOption.HANDSHAKE_IVL, HANDSHAKE_IVL);
        router.setOption(ZmtpSocketOption.MAXMSGSIZE, MAXMSGSIZE);
        router.monitor(events::add);
        endpoint = router.bind("tcp://127.0.0.1:*");
        server = new Thread(this::serve, "hostile-it-server");
        server.start();
        good = sockets.socket(ZmtpSocketType.DEALER);
        good.setOption(ZmtpSocketOption.ROUTING_ID, SocketTestSupport.b("good"));
        good.connect(endpoint);
        good.send(ZmtpMessage.of("warm-up"));
        assertThat(PropertySockets.receive(good, WAIT)).isEqualTo("warm-up");
        client = new Thread(this::ping, "hostile-it-good-peer");
        client.start();
        heapBefore = heapAfterGc();
        directBefore = PlatformDependent.usedDirectMemory();
        fdsBefore = openFiles();
    }

    /** The ROUTER's application: echoes the good peer, counts and drops what anyone else sends. */
    private void serve() {
        try {
            while (serving) {
                ZmtpMessage m = router.receive(Duration.ofMillis(50));
                if (m == null) {
                    continue;
                }
                if (m.frameString(0).equals("good")) {
                    router.send(m);
                } else {
                    hostileId.compareAndSet(null, io.netty.buffer.ByteBufUtil.getBytes(m.frame(0)));
                    hostileMessages.incrementAndGet();
                    m.release();
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    /**
     * The good peer: one request at a time. Each must be answered, and is given 30 s: under the paranoid leak detector
     * every frame costs a stack trace, so a flood of tiny messages keeps the I/O thread busy far longer than it would
     * in production; the slowest round trip is printed.
     */
    private void ping() {
        try {
            for (long i = 0; running; i++) {
                long start = System.nanoTime();
                good.send(ZmtpMessage.of("ping-" + i));
                String reply = PropertySockets.receive(good, WAIT.multipliedBy(6));
                if (!("ping-" + i).equals(reply)) {
                    long ended = attackEndedNanos;
                    throw new AssertionError("good peer: expected ping-" + i + ", got " + reply + " (sent "
                            + (ended == 0 ? "during the attack, which had not ended"
                                    : TimeUnit.NANOSECONDS.toMillis(ended - start) + " ms before the attack ended")
                            + "; the good peer's connection: " + good.peers() + "; the ROUTER's peers: "
                            + router.peers().size() + ", dropped " + router.droppedCount() + ")");
                }
                slowestRoundTripNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                served.incrementAndGet();
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    @AfterEach
    void checkTheGoodPeerWasServedAndNothingIsLeft() throws Exception {
        attackEndedNanos = System.nanoTime();
        long servedDuringAttack = served.get();
        running = false;
        client.join(WAIT.toMillis() * 7);
        serving = false;
        server.join(WAIT.toMillis());
        if (failure.get() != null) {
            throw new AssertionError("the good peer or the server failed during the attack", failure.get());
        }
        assertThat(servedDuringAttack).as("requests of the good peer answered while the attack ran").isPositive();
        // The hostile connections are gone: their descriptors are closed, and what they made us hold is released.
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (openFiles() > fdsBefore + 8 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(openFiles()).as("open file descriptors (before the attack: %d)", fdsBefore)
                .isLessThanOrEqualTo(fdsBefore + 8);
        // What the test kept (the events of every hostile connection, tens of MiB after 10,000 of them) is not what
        // the socket holds: measured with it, the check failed once at 60 MiB against a 54 MiB bound (CI, 08:14).
        int eventCount = events.size();
        events.clear();
        long heapAfter = heapAfterGc();
        System.out.printf("[hostile] heap after GC %d -> %d KiB (the test's %d events dropped), Netty direct %d ->"
                        + " %d KiB, good peer served %d, slowest round trip %d ms%n", heapBefore / 1024,
                heapAfter / 1024, eventCount, directBefore / 1024,
                PlatformDependent.usedDirectMemory() / 1024, servedDuringAttack,
                TimeUnit.NANOSECONDS.toMillis(slowestRoundTripNanos.get()));
        assertThat(heapAfter).as("heap after the attack").isLessThan(heapBefore + MEMORY_SLACK);
    }

    @Test
    void shouldCloseAPeerSendingItsGreetingOneByteASecondAtTheHandshakeTimeout() throws Exception {
        try (HostileWire slow = new HostileWire(endpoint)) {
            byte[] greeting = HostileWire.greeting();
            long start = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < greeting.length && !closed; i++) {
                slow.out.write(greeting[i]);
                slow.out.flush();
                closed = slow.closedBySocketWithin(1000);
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(closed).as("closed by the ROUTER before the greeting ended").isTrue();
            assertThat(millis).as("closed after HANDSHAKE_IVL (%d ms)", HANDSHAKE_IVL)
                    .isBetween((long) HANDSHAKE_IVL - 100, (long) HANDSHAKE_IVL + 3000);
        }
        awaitEvent(ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
    }

    @Test
    void shouldCloseAPeerWhoseFrameHeaderClaims2To63Bytes() throws Exception {
        for (long size : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, -1L}) {
            try (HostileWire peer = new HostileWire(endpoint).handshake("DEALER")) {
                peer.out.write(0x02);
                peer.out.write(ByteBuffer.allocate(8).putLong(size).array());
                peer.out.write(new byte[4096]);
                peer.out.flush();
                assertThat(peer.closedBySocketWithin((int) WAIT.toMillis())).as("closed on size %s", size).isTrue();
            }
        }
        assertThat(events.stream().filter(e -> e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR)).hasSize(3);
        assertThat(hostileMessages.get()).isZero();
    }

    @Test
    void shouldStayUpThrough10000ConnectionsOpenedAndDropped() throws Exception {
        byte[] greeting = HostileWire.greeting();
        for (int i = 0; i < 10_000; i++) {
            try (Socket s = new Socket("127.0.0.1", port())) {
                s.setSoLinger(true, 0); // dropped: a reset, and no TIME_WAIT left on this side
                if (i % 3 == 1) {
                    s.getOutputStream().write(greeting, 0, 1 + i % greeting.length);
                }
            }
        }
        assertThat(hostileMessages.get()).isZero();
    }

    @Test
    void shouldBoundWhatItHoldsForAPeerThatNeverReads() throws Exception {
        try (HostileWire deaf = new HostileWire(endpoint).handshake("DEALER")) {
            deaf.out.write(new byte[] {0x00, 0x05, 'h', 'e', 'l', 'l', 'o'});
            deaf.out.flush();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (hostileMessages.get() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            ZmtpSocketEvent connected = events.stream()
                    .filter(e -> e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED && e.peerIdentity().length == 0)
                    .findFirst().orElseThrow();
            assertThat(connected).isNotNull();
            byte[] id = hostileId.get();
            byte[] kib = new byte[1024];
            long offered = 0;
            for (int i = 0; i < 100_000; i++) {
                router.send(ZmtpMessage.ofBytes(id, kib));
                offered += kib.length;
            }
            long heapHeld = heapAfterGc();
            long directHeld = PlatformDependent.usedDirectMemory();
            System.out.printf("[hostile] never-reads: offered %d MiB, dropped %d, heap held %d KiB (+%d), "
                            + "Netty direct held %d KiB (+%d)%n", offered >> 20, router.droppedCount(),
                    heapHeld / 1024, (heapHeld - heapBefore) / 1024, directHeld / 1024,
                    (directHeld - directBefore) / 1024);
            assertThat(router.droppedCount()).as("messages ROUTER dropped for the full peer").isPositive();
            assertThat(heapHeld - heapBefore).as("heap held for a peer that never reads").isLessThan(MEMORY_SLACK);
            assertThat(directHeld - directBefore).as("direct memory held for it").isLessThan(MEMORY_SLACK);
        }
    }

    @Test
    void shouldServeThroughAFloodOfOneByteMessagesAndCloseAFloodOfOneByteFramesOfOneMessage() throws Exception {
        byte[] messages = new byte[3 * 64 * 1024];
        for (int i = 0; i < messages.length; i += 3) {
            messages[i] = 0x00;      // last frame
            messages[i + 1] = 0x01;  // of one byte
            messages[i + 2] = 'x';
        }
        byte[] frames = messages.clone();
        for (int i = 0; i < frames.length; i += 3) {
            frames[i] = 0x01;        // MORE: a message that never ends
        }
        try (HostileWire flood = new HostileWire(endpoint).handshake("DEALER")) {
            for (int i = 0; i < 3; i++) {
                flood.out.write(messages);
            }
            flood.out.flush();
            long expected = 3L * messages.length / 3;
            long deadline = System.nanoTime() + WAIT.toNanos() * 12;
            while (hostileMessages.get() < expected && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(hostileMessages.get()).as("one-byte messages received").isEqualTo(expected);
        }
        try (HostileWire flood = new HostileWire(endpoint).handshake("DEALER")) {
            boolean closed = false;
            try {
                for (int i = 0; i < 64 && !closed; i++) {
                    flood.out.write(frames);
                }
            } catch (IOException reset) {
                closed = true;
            }
            assertThat(closed || flood.closedBySocketWithin((int) WAIT.toMillis()))
                    .as("closed past MAXMSGSIZE (%d) of held frames", MAXMSGSIZE).isTrue();
        }
        awaitEvent(ZmtpSocketEvent.Type.PROTOCOL_ERROR);
    }

    @Test
    void shouldDeliverNothingFromAPeerThatDisconnectsMidMessageAgainAndAgain() throws Exception {
        for (int i = 0; i < 1000; i++) {
            try (HostileWire peer = new HostileWire(endpoint).handshake("DEALER")) {
                if (i % 2 == 0) {
                    peer.socket.setSoLinger(true, 0);
                }
                // Two whole MORE frames, then a frame header announcing 5 bytes and 2 of them: then gone.
                peer.out.write(new byte[] {0x01, 0x03, 'a', 'b', 'c', 0x01, 0x00, 0x00, 0x05, 'd', 'e'});
                peer.out.flush();
            }
        }
        assertThat(hostileMessages.get()).as("messages from peers that never finished one").isZero();
    }

    private int port() {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    private void awaitEvent(ZmtpSocketEvent.Type type) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (events.stream().noneMatch(e -> e.type() == type) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(events.stream().map(ZmtpSocketEvent::type)).contains(type);
    }

    static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    static long openFiles() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? 0 : Arrays.stream(fds).count();
    }
}
