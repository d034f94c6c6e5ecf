package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ipc:// against libzmq's ipc transport (through pyzmq's socket_peer.py) on the same path, each side binding in
 * turn, on our epoll and NIO domain socket channels: DEALER/ROUTER both ways with every message checked byte for byte
 * on both sides, PUB/SUB both ways with filtering, libzmq's {@code ipc://*} and abstract names, and the socket file
 * left by a killed libzmq process (taken over) or held by a live one (not taken over). A missing Python/pyzmq fails
 * these tests (PyZmq), never skips them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibzmqIpcIT {
    private static final Logger LOG = LoggerFactory.getLogger(LibzmqIpcIT.class);
    private static final int COUNT = 2000;
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));

    @TempDir
    Path dir;
    private ZmtpContext ctx;
    private final List<SocketPeer> peers = new ArrayList<>();

    enum Side { WE_BIND, THEY_BIND }

    static Stream<Arguments> sidesAndIo() {
        return Stream.of(Side.values()).flatMap(s -> Stream.of(Arguments.of(s, "epoll"), Arguments.of(s, "nio")));
    }

    @AfterEach
    void tearDown() {
        peers.forEach(SocketPeer::close);
        if (ctx != null) {
            ctx.close();
        }
    }

    private void context(String io) {
        boolean epoll = "epoll".equals(io);
        ctx = ZmtpContext.builder().nativeTransport(epoll).lingerCapMillis(2000).build();
        assertThat(ctx.isNativeTransport()).as(io + " in use (these tests run on Linux)").isEqualTo(epoll);
    }

    private SocketPeer libzmq() {
        SocketPeer p = SocketPeer.Kind.LIBZMQ.start();
        peers.add(p);
        return p;
    }

    private ZmtpSocket ours(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    /** Binds whichever side binds, connects the other; returns the endpoint. */
    private String link(Side side, ZmtpSocket ours, SocketPeer peer, String name, String endpoint) {
        if (side == Side.WE_BIND) {
            String bound = ours.bind(endpoint);
            assertThat(bound).isEqualTo(endpoint);
            peer.ok("connect " + name + " " + bound);
            return bound;
        }
        String bound = peer.ok("bind " + name + " " + endpoint);
        assertThat(bound).isEqualTo(endpoint);
        ours.connect(bound);
        return bound;
    }

    private String ipc(String name) {
        return "ipc://" + dir.resolve(name);
    }

    private static ZmtpMessage seqMessage(String tag, long seq) {
        return ZmtpMessage.ofBytes(SocketPeer.bytes(tag), SocketPeer.bytes(Long.toString(seq)),
                SocketPeer.payload(seq));
    }

    private static List<byte[]> frames(ZmtpMessage m) {
        try {
            return m.toByteArrays();
        } finally {
            m.release();
        }
    }

    @ParameterizedTest(name = "our DEALER -> libzmq ROUTER echo, {0}, {1}")
    @MethodSource("sidesAndIo")
    void shouldHaveLibzmqRouterEchoEveryMessageOfOurDealerIntact(Side side, String io) {
        context(io);
        SocketPeer peer = libzmq();
        peer.ok("new r ROUTER");
        ZmtpSocket dealer = ours(ZmtpSocketType.DEALER);
        String endpoint = link(side, dealer, peer, "r", ipc("dr-" + side + ".sock"));
        LOG.info("our DEALER ({}) -> {} ROUTER at {}: {} messages", io, peer.version(), endpoint, COUNT);
        peer.submit("echo r " + COUNT + " " + scaledMillis(10_000));
        // At most 100 ahead of the echoes: a ROUTER drops what exceeds its SNDHWM instead of waiting.
        long sent = 0;
        for (long seq = 0; seq < COUNT; seq++) {
            while (sent < COUNT && sent - seq < 100) {
                dealer.send(seqMessage("e", sent++));
            }
            ZmtpMessage m = dealer.receive(WAIT);
            assertThat(m).as("echo " + seq).isNotNull();
            assertThat(SocketPeer.check(frames(m), SocketPeer.bytes("e"), seq)).isNull();
        }
        assertThat(peer.reply(WAIT)).isEqualTo("OK echoed=" + COUNT);
        assertBigMessageBothWays(dealer, peer, "r");
    }

    @ParameterizedTest(name = "libzmq DEALER -> our ROUTER echo, {0}, {1}")
    @MethodSource("sidesAndIo")
    void shouldEchoEveryMessageOfLibzmqDealerIntact(Side side, String io) {
        context(io);
        SocketPeer peer = libzmq();
        peer.ok("new d DEALER id=" + SocketPeer.hex(SocketPeer.bytes("libzmq-dealer")));
        ZmtpSocket router = ours(ZmtpSocketType.ROUTER);
        link(side, router, peer, "d", ipc("rd-" + side + ".sock"));
        // libzmq streams at most 100 ahead and checks every echo byte for byte.
        peer.submit("stream d " + COUNT + " 100 s " + scaledMillis(10_000));
        for (long seq = 0; seq < COUNT; seq++) {
            ZmtpMessage m = router.receive(WAIT);
            assertThat(m).as("message " + seq).isNotNull();
            List<byte[]> f = frames(m);
            assertThat(SocketPeer.text(f.get(0))).isEqualTo("libzmq-dealer");
            assertThat(SocketPeer.check(f.subList(1, f.size()), SocketPeer.bytes("s"), seq)).isNull();
            router.send(ZmtpMessage.ofBytes(f.toArray(new byte[0][])));
        }
        assertThat(peer.reply(WAIT)).isEqualTo("OK streamed=" + COUNT);
    }

    /** One 256 KiB message of random bytes each way: frames larger than any socket buffer. */
    private void assertBigMessageBothWays(ZmtpSocket dealer, SocketPeer peer, String routerName) {
        byte[] big = new byte[256 * 1024];
        new Random(42).nextBytes(big);
        dealer.send(ZmtpMessage.ofBytes(SocketPeer.bytes("big"), big));
        List<byte[]> got = SocketPeer.frames(peer.call("recv " + routerName + " " + scaledMillis(10_000)));
        assertThat(got).as("big message at libzmq").isNotNull().hasSize(3);
        assertThat(Arrays.equals(got.get(2), big)).as("256 KiB payload intact at libzmq").isTrue();
        peer.ok("send " + routerName + " " + SocketPeer.hex(got));
        ZmtpMessage back = dealer.receive(WAIT);
        assertThat(back).isNotNull();
        List<byte[]> f = frames(back);
        assertThat(Arrays.equals(f.get(1), big)).as("256 KiB payload intact back").isTrue();
    }

    @ParameterizedTest(name = "our PUB -> libzmq SUB, {0}, {1}")
    @MethodSource("sidesAndIo")
    void shouldFeedLibzmqSubscriberOnlyWhatItSubscribedTo(Side side, String io) {
        context(io);
        SocketPeer peer = libzmq();
        // PUB/SUB drops at the high-water marks: unlimited on both sides, so every message must arrive.
        peer.ok("new s SUB rcvhwm=0 sub=" + SocketPeer.hex(SocketPeer.bytes("p")));
        ZmtpSocket pub = ours(ZmtpSocketType.PUB);
        pub.setOption(ZmtpSocketOption.SNDHWM, 0);
        link(side, pub, peer, "s", ipc("ps-" + side + ".sock"));
        // The subscription travels asynchronously: publish warm-ups until one gets through.
        boolean warm = false;
        for (long deadline = System.nanoTime() + WAIT.toNanos(); !warm && System.nanoTime() - deadline < 0; ) {
            pub.send(ZmtpMessage.of("p-warm"));
            warm = SocketPeer.frames(peer.call("recv s 25")) != null;
        }
        assertThat(warm).as("libzmq's subscription reached our PUB").isTrue();
        peer.ok("drain s 200");
        peer.submit("recvseq s " + COUNT + " p " + scaledMillis(10_000));
        for (long seq = 0; seq < COUNT; seq++) {
            pub.send(seqMessage("q", seq));
            pub.send(seqMessage("p", seq));
        }
        // ignored=0: none of the q messages (not subscribed) reached libzmq.
        assertThat(peer.reply(WAIT)).isEqualTo("OK received=" + COUNT + " ignored=0");
    }

    @ParameterizedTest(name = "libzmq PUB -> our SUB, {0}, {1}")
    @MethodSource("sidesAndIo")
    void shouldReceiveOnlySubscribedMessagesFromLibzmqPublisher(Side side, String io) {
        context(io);
        SocketPeer peer = libzmq();
        peer.ok("new pub PUB sndhwm=0");
        ZmtpSocket sub = ours(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.RCVHWM, 0);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, SocketPeer.bytes("p"));
        link(side, sub, peer, "pub", ipc("sp-" + side + ".sock"));
        ZmtpMessage first = null;
        for (long deadline = System.nanoTime() + WAIT.toNanos(); first == null && System.nanoTime() - deadline < 0; ) {
            peer.ok("send pub " + SocketPeer.hex(SocketPeer.bytes("p-warm")));
            first = sub.receive(Duration.ofMillis(25));
        }
        assertThat(first).as("our subscription reached libzmq's PUB").isNotNull();
        first.release();
        for (ZmtpMessage m; (m = sub.receive(Duration.ofMillis(200))) != null; ) {
            m.release();
        }
        peer.ok("send pub " + SocketPeer.hex(SocketPeer.bytes("q-not-for-us")));
        peer.submit("sendseq pub " + COUNT + " p");
        for (long seq = 0; seq < COUNT; seq++) {
            ZmtpMessage m = sub.receive(WAIT);
            assertThat(m).as("message " + seq).isNotNull();
            assertThat(SocketPeer.check(frames(m), SocketPeer.bytes("p"), seq)).isNull();
        }
        assertThat(peer.reply(WAIT)).isEqualTo("OK sent=" + COUNT);
        assertThat(sub.receive(Duration.ofMillis(200))).as("nothing else").isNull();
    }

    /** A request and its reply between our DEALER and libzmq's ROUTER r. */
    private static void roundTrip(ZmtpSocket dealer, SocketPeer peer) {
        dealer.send(ZmtpMessage.of("ping"));
        List<byte[]> req = SocketPeer.frames(peer.call("recv r " + scaledMillis(10_000)));
        assertThat(req).isNotNull().hasSize(2);
        assertThat(SocketPeer.text(req.get(1))).isEqualTo("ping");
        peer.ok("send r " + SocketPeer.hex(req.get(0)) + " " + SocketPeer.hex(SocketPeer.bytes("pong")));
        ZmtpMessage rep = dealer.receive(WAIT);
        assertThat(rep).isNotNull();
        assertThat(SocketPeer.text(frames(rep).get(0))).isEqualTo("pong");
    }

    @Test
    void shouldConnectToThePathLibzmqGeneratedForTheWildcard() {
        context("epoll");
        SocketPeer peer = libzmq();
        peer.ok("new r ROUTER");
        String endpoint = peer.ok("bind r ipc://*");
        LOG.info("libzmq bound ipc://* as {}", endpoint);
        assertThat(endpoint).startsWith("ipc://").doesNotContain("*");
        ZmtpSocket dealer = ours(ZmtpSocketType.DEALER);
        dealer.connect(endpoint);
        roundTrip(dealer, peer);
    }

    @Test
    void shouldLetLibzmqConnectToThePathWeGeneratedForTheWildcard() {
        context("epoll");
        SocketPeer peer = libzmq();
        peer.ok("new r ROUTER");
        ZmtpSocket dealer = ours(ZmtpSocketType.DEALER);
        String endpoint = dealer.bind("ipc://*");
        peer.ok("connect r " + endpoint);
        // The DEALER bound, so the ROUTER learns its routing id only from a message: ours goes first.
        roundTrip(dealer, peer);
    }

    @ParameterizedTest(name = "abstract name, {0}")
    @MethodSource("sides")
    void shouldShareAnAbstractNameWithLibzmq(Side side) {
        context("epoll");
        SocketPeer peer = libzmq();
        peer.ok("new r ROUTER");
        ZmtpSocket dealer = ours(ZmtpSocketType.DEALER);
        String endpoint = "ipc://@zmtp-ipc-interop-" + ProcessHandle.current().pid() + "-" + side;
        link(side, dealer, peer, "r", endpoint);
        roundTrip(dealer, peer);
    }

    static Stream<Side> sides() {
        return Stream.of(Side.values());
    }

    @Test
    void shouldBindOverTheSocketFileOfAKilledLibzmqListener() {
        context("epoll");
        Path file = dir.resolve("killed.sock");
        SocketPeer dead = libzmq();
        dead.ok("new r ROUTER");
        dead.ok("bind r ipc://" + file);
        dead.kill();
        assertThat(Files.exists(file)).as("libzmq killed by a signal leaves its file").isTrue();

        ZmtpSocket router = ours(ZmtpSocketType.ROUTER);
        String endpoint = router.bind("ipc://" + file);
        SocketPeer peer = libzmq();
        peer.ok("new d DEALER id=" + SocketPeer.hex(SocketPeer.bytes("d")));
        peer.ok("connect d " + endpoint);
        peer.ok("send d " + SocketPeer.hex(SocketPeer.bytes("after the crash")));
        ZmtpMessage m = router.receive(WAIT);
        assertThat(m).isNotNull();
        assertThat(SocketPeer.text(frames(m).get(1))).isEqualTo("after the crash");
    }

    @Test
    void shouldFailRatherThanTakeOverTheFileOfALiveLibzmqListener() {
        context("epoll");
        Path file = dir.resolve("live.sock");
        SocketPeer peer = libzmq();
        peer.ok("new r ROUTER");
        String endpoint = peer.ok("bind r ipc://" + file);
        ZmtpSocket other = ours(ZmtpSocketType.ROUTER);
        assertThatThrownBy(() -> other.bind(endpoint))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("address in use");
        // libzmq still owns the path: a connection there reaches it.
        ZmtpSocket dealer = ours(ZmtpSocketType.DEALER);
        dealer.connect(endpoint);
        roundTrip(dealer, peer);
    }
}
