package io.zmtp.socket;

import io.netty.util.internal.PlatformDependent;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static io.zmtp.socket.HostileWsWire.BINARY;
import static io.zmtp.socket.HostileWsWire.CONTINUATION;
import static io.zmtp.socket.HostileWsWire.PING;
import static io.zmtp.socket.HostileWsWire.TEXT;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile peers over ws:// (ZWS 2.0) against a bound ROUTER that echoes a well-behaved DEALER throughout: the
 * WebSocket layer's own attacks (frames ZWS refuses, a huge declared length, an upgrade never finished, a flood of
 * WebSocket pings whose answers are never read) and, over ws, those of the ZMTP layer that HostileCommandsIT runs
 * over tcp where they apply (a PING command flood never reading, huge and over-budget subscriptions). Each refused
 * one must close that connection with a monitor event saying why (PROTOCOL_ERROR or HANDSHAKE_FAILED), every flood
 * must leave the victim's memory within a bound while the connection is still open, and the good peer must be served
 * throughout. Buffers are checked by the leak detector (paranoid) as in every test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WsHostilePeersIT {
    private static final long MIB = 1 << 20;
    private static final int HANDSHAKE_IVL = 1000;
    private static final long MAXMSGSIZE = 64 * 1024;
    /** What a flood may add to the heap (after GC) or to Netty's direct memory while its connection is open. */
    private static final long FLOOD_BOUND = 16 * MIB;
    /**
     * Each flood's volume: before WsPingHandler, 9 MiB of WebSocket pings had the victim hold 113 MiB of heap. Small
     * enough that the good peer, on the same I/O thread, is answered within its 30 s under the paranoid leak
     * detector, which records every buffer of the flood.
     */
    private static final long FLOOD_BYTES = 8 * MIB;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private ZmtpSocket router;
    private String endpoint;
    private final BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
    private final AtomicLong served = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;
    private Thread server;
    private Thread client;

    @BeforeEach
    void startRouterAndAGoodPeer() {
        router = sockets.socket(ZmtpSocketType.ROUTER);
        router.setOption(ZmtpSocketOption.HANDSHAKE_IVL, HANDSHAKE_IVL);
        router.setOption(ZmtpSocketOption.MAXMSGSIZE, MAXMSGSIZE);
        router.monitor(events::add);
        endpoint = router.bind("ws://127.0.0.1:*/zmq");
        ZmtpSocket good = sockets.socket(ZmtpSocketType.DEALER);
        good.setOption(ZmtpSocketOption.ROUTING_ID, SocketTestSupport.b("good"));
        good.connect(endpoint);
        good.send(ZmtpMessage.of("warm-up"));
        router.send(router.receive(WAIT));
        assertThat(PropertySockets.receive(good, WAIT)).isEqualTo("warm-up");
        server = new Thread(this::serve, "ws-hostile-server");
        server.start();
        client = new Thread(() -> ping(good), "ws-hostile-good-peer");
        client.start();
    }

    /** The ROUTER's application: echoes the good peer, drops what anyone else sends. */
    private void serve() {
        try {
            while (running) {
                ZmtpMessage m = router.receive(Duration.ofMillis(50));
                if (m != null && m.frameString(0).equals("good")) {
                    router.send(m);
                } else if (m != null) {
                    m.release();
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    private void ping(ZmtpSocket good) {
        try {
            for (long i = 0; running; i++) {
                good.send(ZmtpMessage.of("ping-" + i));
                String reply = PropertySockets.receive(good, WAIT.multipliedBy(6));
                if (!("ping-" + i).equals(reply)) {
                    throw new AssertionError("good peer: expected ping-" + i + ", got " + reply);
                }
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
    void checkTheGoodPeerWasServed() throws Exception {
        long before = served.get();
        long deadline = System.nanoTime() + WAIT.toNanos() * 3;
        while (served.get() < before + 3 && System.nanoTime() < deadline && failure.get() == null) {
            Thread.sleep(10);
        }
        running = false;
        client.join(WAIT.toMillis() * 7);
        server.join(WAIT.toMillis());
        if (failure.get() != null) {
            throw new AssertionError("the good peer or the server failed during the attack", failure.get());
        }
        assertThat(served.get()).as("requests of the good peer answered after the attack").isGreaterThan(before);
    }

    static Stream<Arguments> refusedFrames() {
        byte[] message = {0x00, 'h', 'i'};
        return Stream.of(
                Arguments.of("a text message", HostileWsWire.frame(true, TEXT, "hi".getBytes(StandardCharsets.UTF_8))),
                Arguments.of("a fragment", HostileWsWire.frame(false, BINARY, message)),
                Arguments.of("a continuation out of the blue", HostileWsWire.frame(true, CONTINUATION, message)),
                Arguments.of("an unmasked client frame", HostileWsWire.frame(0x80 | BINARY, message, false)),
                Arguments.of("RSV1 without an extension", HostileWsWire.frame(0x80 | 0x40 | BINARY, message, true)),
                Arguments.of("a reserved opcode", HostileWsWire.frame(0x80 | 0x3, message, true)),
                Arguments.of("an empty binary message", HostileWsWire.frame(true, BINARY, new byte[0])),
                Arguments.of("a declared length of 2^63 - 1", HostileWsWire.declaring(Long.MAX_VALUE)),
                Arguments.of("a declared length of 2^63", HostileWsWire.declaring(Long.MIN_VALUE)),
                Arguments.of("a declared length of 2 GiB", HostileWsWire.declaring(1L << 31)),
                Arguments.of("a message over MAXMSGSIZE", HostileWsWire.frame(true, BINARY,
                        new byte[(int) MAXMSGSIZE + 200])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFrames")
    void shouldCloseAConnectionSendingWhatZwsRefusesAndSayWhy(String what, byte[] frame) throws Exception {
        try (HostileWsWire peer = new HostileWsWire(endpoint).handshake("DEALER")) {
            peer.out.write(frame);
            peer.out.flush();
            assertThat(peer.closedBySocketWithin((int) WAIT.toMillis())).as("closed after %s", what).isTrue();
        }
        ZmtpSocketEvent e = await(ZmtpSocketEvent.Type.PROTOCOL_ERROR);
        assertThat(e.detail()).as("the reason given for %s", what).isNotBlank();
    }

    @Test
    void shouldCloseAClientThatNeverFinishesTheUpgradeAtTheHandshakeTimeout() throws Exception {
        try (HostileWsWire half = new HostileWsWire(endpoint); HostileWsWire silent = new HostileWsWire(endpoint)) {
            byte[] request = half.upgradeRequest();
            half.out.write(request, 0, request.length / 2);
            half.out.flush();
            long start = System.nanoTime();
            // The handshake timeout is the behaviour; the 5 s beyond it, slack for a busy machine.
            int slack = (int) TestTimeouts.scaledMillis(5000);
            assertThat(half.closedBySocketWithin(HANDSHAKE_IVL + slack)).as("half an upgrade: closed").isTrue();
            assertThat(silent.closedBySocketWithin(HANDSHAKE_IVL + slack)).as("no upgrade: closed").isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(HANDSHAKE_IVL - 200);
        }
        for (int i = 0; i < 2; i++) {
            ZmtpSocketEvent e = await(ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
            assertThat(e.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.TIMEOUT);
            assertThat(e.detail()).isNotBlank();
        }
    }

    /**
     * WebSocket pings, 125 bytes each, while never reading the pongs: the connection may stay or be closed, but what
     * the victim holds for it must stay bounded (an answer held per ping would grow with the flood).
     */
    @Test
    void shouldHoldABoundedAmountForAWebSocketPingFloodNeverRead() throws Exception {
        byte[] ping = HostileWsWire.frame(true, PING, new byte[125]);
        floodWithinBound("WebSocket pings", ping);
    }

    /** ZMTP PING commands over ws (TTL 0, 16-byte context), their PONGs never read: as HostileCommandsIT over tcp. */
    @Test
    void shouldHoldABoundedAmountForAZmtpPingFloodOverWsNeverRead() throws Exception {
        ByteBuffer command = ByteBuffer.allocate(1 + 1 + 4 + 2 + 16);
        command.put((byte) 0x02).put((byte) 4).put("PING".getBytes(StandardCharsets.US_ASCII)).putShort((short) 0);
        floodWithinBound("ZMTP PING commands", HostileWsWire.frame(true, BINARY, command.array()));
    }

    /**
     * Subscriptions over ws are messages ({@code 0x01} and the topic, ZWS having no SUBSCRIBE command): a huge one
     * within MAX_SUBSCRIPTION_BYTES is kept, and a peer going over it is closed with the reason, as over tcp
     * (HostileCommandsIT's "SUBSCRIBE 4 MiB topic" and "2 x MAX_SUBSCRIPTION_BYTES").
     */
    @Test
    void shouldKeepAHugeSubscriptionWithinTheBudgetAndCloseAPeerGoingOverIt() throws Exception {
        ZmtpSocket xpub = sockets.socket(ZmtpSocketType.XPUB);
        xpub.setOption(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES, 16 * MIB);
        BlockingQueue<ZmtpSocketEvent> pubEvents = new LinkedBlockingQueue<>();
        xpub.monitor(pubEvents::add);
        String pubEndpoint = xpub.bind("ws://127.0.0.1:*/pub");
        try (HostileWsWire peer = new HostileWsWire(pubEndpoint).handshake("SUB")) {
            peer.out.write(HostileWsWire.frame(true, BINARY, subscription(0, 4 << 20)));
            peer.out.flush();
            ZmtpMessage kept = xpub.receive(WAIT.multipliedBy(2));
            assertThat(kept).as("the 4 MiB subscription, kept").isNotNull();
            assertThat(kept.contentLength()).isEqualTo(1 + (4 << 20));
            kept.release();
            for (int i = 1; i <= 32 && !peer.socket.isClosed(); i++) {
                try {
                    peer.out.write(HostileWsWire.frame(true, BINARY, subscription(i, 1 << 20)));
                } catch (IOException closedByTheVictim) {
                    break;
                }
            }
            // The XPUB applies subscriptions as its application receives (libzmq's xpub does so too): it drains.
            boolean closed = false;
            long deadline = System.nanoTime() + WAIT.toNanos() * 2;
            while (!closed && System.nanoTime() < deadline) {
                ZmtpMessage m = xpub.receive(Duration.ofMillis(50));
                if (m != null) {
                    m.release();
                }
                closed = peer.closedBySocketWithin(50);
            }
            assertThat(closed).as("closed over the budget").isTrue();
        }
        List<String> seen = new ArrayList<>();
        for (ZmtpSocketEvent e; (e = pubEvents.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)) != null; ) {
            seen.add(e.type() + ": " + e.detail());
            if (e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR) {
                assertThat(e.detail()).contains("MAX_SUBSCRIPTION_BYTES");
                return;
            }
        }
        throw new AssertionError("no PROTOCOL_ERROR for the peer over its budget: " + seen);
    }

    /** A ZWS subscription message: the flags byte, 0x01, and a topic of {@code length} bytes distinct per {@code n}. */
    private static byte[] subscription(int n, int length) {
        byte[] b = new byte[2 + length];
        b[1] = 0x01;
        ByteBuffer.wrap(b, 2, 4).putInt(n);
        return b;
    }

    private void floodWithinBound(String what, byte[] frame) throws Exception {
        long heapBefore = HostilePeersIT.heapAfterGc();
        long directBefore = PlatformDependent.usedDirectMemory();
        try (HostileWsWire peer = new HostileWsWire(endpoint).handshake("DEALER")) {
            byte[] chunk = new byte[(64 * 1024 / frame.length) * frame.length];
            for (int i = 0; i < chunk.length; i += frame.length) {
                System.arraycopy(frame, 0, chunk, i, frame.length);
            }
            AtomicLong written = new AtomicLong();
            Thread writer = new Thread(() -> {
                try {
                    while (written.get() < FLOOD_BYTES) {
                        peer.out.write(chunk);
                        written.addAndGet(chunk.length);
                    }
                    peer.out.flush();
                } catch (IOException closed) {
                    // The victim closed the connection, or the test did.
                }
            }, "ws-hostile-flood");
            writer.start();
            // Until the flood is written or the victim stops reading it (no progress for 3 s).
            long last = -1;
            long lastChange = System.nanoTime();
            while (writer.isAlive() && System.nanoTime() - lastChange < TimeUnit.SECONDS.toNanos(3)) {
                Thread.sleep(100);
                if (written.get() != last) {
                    last = written.get();
                    lastChange = System.nanoTime();
                }
            }
            // Measure while the connection is still open, once the victim has caught up with what it has read: until
            // what it holds is within the bound, for at most WAIT (a fixed 500 ms pause could end before a busy
            // machine's victim had decoded what it read; a victim that holds the flood stays over the bound).
            long caughtUp = System.nanoTime() + WAIT.toNanos();
            long heapHeld;
            long directHeld;
            do {
                Thread.sleep(100);
                heapHeld = HostilePeersIT.heapAfterGc() - heapBefore;
                directHeld = PlatformDependent.usedDirectMemory() - directBefore;
            } while ((heapHeld >= FLOOD_BOUND || directHeld >= FLOOD_BOUND) && System.nanoTime() - caughtUp < 0);
            System.out.printf("[ws-hostile] %s: %d MiB written, heap held %+.1f MiB, Netty direct held %+.1f MiB,"
                            + " connection %s%n", what, written.get() / MIB, heapHeld / (double) MIB,
                    directHeld / (double) MIB, writer.isAlive() ? "stalled (not read)" : "done or closed");
            assertThat(heapHeld).as("heap held for %s", what).isLessThan(FLOOD_BOUND);
            assertThat(directHeld).as("Netty direct memory held for %s", what).isLessThan(FLOOD_BOUND);
            peer.close();
            writer.join(WAIT.toMillis());
        }
    }

    private ZmtpSocketEvent await(ZmtpSocketEvent.Type type) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        for (;;) {
            ZmtpSocketEvent e = events.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(e).as("waiting for " + type + " after " + seen).isNotNull();
            seen.add(e.type() + ":" + e.detail());
            if (e.type() == type) {
                return e;
            }
        }
    }
}
