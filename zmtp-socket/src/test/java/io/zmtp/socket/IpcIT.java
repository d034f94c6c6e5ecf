package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.transport.IoKind;
import io.zmtp.socket.transport.IpcTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ipc:// (Unix domain sockets) between our own sockets, each test on epoll's, io_uring's and NIO's domain socket
 * channels:
 * the patterns, reconnection after the bound side restarts, the socket file's life (stale files, live listeners,
 * removal on unbind and close), the endpoints bind reports, and the addresses that must fail.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IpcIT {
    @TempDir
    Path dir;
    private ZmtpContext ctx;

    /**
     * A context on epoll, io_uring or NIO, asked for by name: a native one that is not there fails the build, saying
     * what it needs (these tests run on Linux; a silent fall-back to NIO would test NIO twice).
     */
    private ZmtpContext context(String io) {
        ZmtpIoTransport wanted = ZmtpIoTransport.parse(io);
        ctx = ZmtpContext.builder().ioTransport(wanted).lingerCapMillis(2000).build();
        assertThat(ctx.ioTransport()).isEqualTo(wanted);
        assertThat(ctx.isNativeTransport()).isEqualTo(wanted != ZmtpIoTransport.NIO);
        return ctx;
    }

    @AfterEach
    void tearDown() {
        if (ctx != null) {
            ctx.close();
        }
    }

    private ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    private String ipc(String name) {
        return "ipc://" + dir.resolve(name);
    }

    private static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldCarryDealerRouterMessagesByteForByteBothWays(String io) {
        context(io);
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket dealer = socket(DEALER);
        String endpoint = ipc("dr.sock");
        assertThat(router.bind(endpoint)).isEqualTo(endpoint);
        dealer.setOption(ZmtpSocketOption.ROUTING_ID, b("d1"));
        dealer.connect(endpoint);
        // Sizes around the encoder's batching threshold and one well past a socket buffer.
        int[] sizes = {0, 1, 255, 256, 8191, 8192, 65536, 1 << 20};
        for (int i = 0; i < sizes.length; i++) {
            byte[] payload = random(sizes[i], i);
            dealer.send(ZmtpMessage.ofBytes(b("req"), payload));
            ZmtpMessage in = router.receive(WAIT);
            assertThat(in).as("request of " + sizes[i] + " bytes").isNotNull();
            try {
                assertThat(in.size()).isEqualTo(3);
                assertThat(in.frameBytes(0)).isEqualTo(b("d1"));
                assertThat(Arrays.equals(in.frameBytes(2), payload)).as("payload of " + sizes[i] + " bytes").isTrue();
            } finally {
                in.release();
            }
            router.send(ZmtpMessage.ofBytes(b("d1"), payload));
            ZmtpMessage back = dealer.receive(WAIT);
            assertThat(back).as("reply of " + sizes[i] + " bytes").isNotNull();
            try {
                assertThat(Arrays.equals(back.frameBytes(0), payload)).as("reply of " + sizes[i] + " bytes").isTrue();
            } finally {
                back.release();
            }
        }
    }

    /** SNDBUF/RCVBUF reach the connections (both ends set, small and large): large messages still pass whole. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldCarryMessagesWithTheKernelBufferSizesSet(String io) {
        context(io);
        assertThatThrownBy(() -> ctx.socket(PUSH).setOption(ZmtpSocketOption.SNDBUF, -2))
                .isInstanceOf(IllegalArgumentException.class);
        for (int buffer : new int[] {4096, 4 << 20}) {
            ZmtpSocket pull = socket(PULL);
            ZmtpSocket push = socket(PUSH);
            for (ZmtpSocket s : new ZmtpSocket[] {pull, push}) {
                s.setOption(ZmtpSocketOption.SNDBUF, buffer);
                s.setOption(ZmtpSocketOption.RCVBUF, buffer);
            }
            String endpoint = ipc("buf-" + buffer + ".sock");
            pull.bind(endpoint);
            push.connect(endpoint);
            byte[] payload = random(1 << 20, buffer);
            for (int i = 0; i < 3; i++) {
                push.send(ZmtpMessage.ofBytes(payload));
            }
            for (int i = 0; i < 3; i++) {
                ZmtpMessage in = pull.receive(WAIT);
                assertThat(in).as("message %d with %d-byte buffers", i, buffer).isNotNull();
                try {
                    assertThat(Arrays.equals(in.frameBytes(0), payload)).isTrue();
                } finally {
                    in.release();
                }
            }
            push.close();
            pull.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldFilterPubSubOverIpc(String io) {
        context(io);
        ZmtpSocket pub = socket(PUB);
        ZmtpSocket sub = socket(SUB);
        String endpoint = pub.bind(ipc("ps.sock"));
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("a"));
        sub.connect(endpoint);
        assertThat(awaitFirst(pub, sub, "a-warm")).isEqualTo("a-warm");
        SocketTestSupport.drain(sub);
        pub.send(ZmtpMessage.of("b-skip"));
        pub.send(ZmtpMessage.of("a-1", "x"));
        assertThat(recv(sub)).isEqualTo("a-1|x");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldDeliverPushPullInOrderOverIpc(String io) {
        context(io);
        ZmtpSocket pull = socket(PULL);
        ZmtpSocket push = socket(PUSH);
        // The connecting side binds this time: either may.
        String endpoint = push.bind(ipc("pp.sock"));
        pull.connect(endpoint);
        for (int i = 0; i < 1000; i++) {
            push.send(ZmtpMessage.of("m" + i));
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldAnswerReqRepOverIpc(String io) {
        context(io);
        ZmtpSocket rep = socket(REP);
        ZmtpSocket req = socket(REQ);
        req.connect(rep.bind(ipc("rr.sock")));
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("q" + i));
            assertThat(recv(rep)).isEqualTo("q" + i);
            rep.send(ZmtpMessage.of("a" + i));
            assertThat(recv(req)).isEqualTo("a" + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldReconnectWhenTheBoundSideRestarts(String io) {
        context(io);
        String endpoint = ipc("restart.sock");
        ZmtpSocket push = socket(PUSH);
        push.setOption(ZmtpSocketOption.RECONNECT_IVL, 20);
        // Connecting before anyone listens: the connector keeps trying, as over tcp.
        push.connect(endpoint);
        ZmtpSocket pull = socket(PULL);
        pull.bind(endpoint);
        push.send(ZmtpMessage.of("first"));
        assertThat(recv(pull)).isEqualTo("first");

        pull.close();
        assertThat(Files.exists(dir.resolve("restart.sock"))).as("file removed with the listener").isFalse();
        ZmtpSocket again = socket(PULL);
        again.bind(endpoint);
        // Sent until one arrives: what went out while the pipe to the closed PULL was dying may be lost.
        String got = SocketTestSupport.retry(() -> {
            push.trySend(ZmtpMessage.of("second"));
            ZmtpMessage m = again.receive(java.time.Duration.ofMillis(25));
            return m == null ? null : SocketTestSupport.text(m);
        });
        assertThat(got).isEqualTo("second");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldRemoveTheSocketFileOnUnbindAndOnClose(String io) throws IOException {
        context(io);
        Path file = dir.resolve("life.sock");
        ZmtpSocket s = socket(PULL);
        String endpoint = s.bind("ipc://" + file);
        assertThat(isSocketFile(file)).isTrue();
        s.unbind(endpoint);
        assertThat(file).doesNotExist();
        s.bind(endpoint);
        assertThat(isSocketFile(file)).isTrue();
        s.close();
        assertThat(file).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldUnbindAPathWrittenAnotherWay(String io) {
        context(io);
        ZmtpSocket s = socket(PULL);
        s.bind(ipc("same.sock"));
        s.unbind("ipc://" + dir.resolve(".").resolve("same.sock"));
        assertThat(dir.resolve("same.sock")).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldBindAGeneratedPathForTheWildcardAndRemoveItsDirectoryAfter(String io) {
        context(io);
        ZmtpSocket pull = socket(PULL);
        String endpoint = pull.bind("ipc://*");
        assertThat(endpoint).startsWith("ipc://").endsWith("/socket").doesNotContain("*");
        Path file = Path.of(endpoint.substring("ipc://".length()));
        assertThat(isSocketFile(file)).isTrue();
        ZmtpSocket push = socket(PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("via generated path"));
        assertThat(recv(pull)).isEqualTo("via generated path");
        pull.unbind(endpoint);
        assertThat(file).doesNotExist();
        assertThat(file.getParent()).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldBindOverAStaleSocketFileAsLibzmqDoes(String io) throws IOException {
        context(io);
        Path file = dir.resolve("stale.sock");
        // The JDK leaves the file behind when its listener closes: just what a crashed process leaves.
        try (ServerSocketChannel crashed = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            crashed.bind(UnixDomainSocketAddress.of(file));
        }
        assertThat(isSocketFile(file)).isTrue();
        ZmtpSocket pull = socket(PULL);
        String endpoint = pull.bind("ipc://" + file);
        ZmtpSocket push = socket(PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("over the stale file"));
        assertThat(recv(pull)).isEqualTo("over the stale file");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldFailWithAddressInUseRatherThanTakeOverALiveListenersPath(String io) throws IOException {
        context(io);
        Path file = dir.resolve("live.sock");
        try (ServerSocketChannel live = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            live.bind(UnixDomainSocketAddress.of(file));
            ZmtpSocket pull = socket(PULL);
            assertThatThrownBy(() -> pull.bind("ipc://" + file))
                    .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                    .hasMessageContaining("address in use");
            // Still the other listener's: its file is where it was, and it still accepts.
            assertThat(isSocketFile(file)).isTrue();
            try (java.nio.channels.SocketChannel c =
                         java.nio.channels.SocketChannel.open(UnixDomainSocketAddress.of(file))) {
                assertThat(c.isConnected()).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldRefuseToDeleteAFileThatIsNotASocket(String io) throws IOException {
        context(io);
        Path file = Files.writeString(dir.resolve("notes.txt"), "keep me");
        ZmtpSocket pull = socket(PULL);
        assertThatThrownBy(() -> pull.bind("ipc://" + file))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("not a socket");
        assertThat(file).hasContent("keep me");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldFailForAPathLongerThanSunPathHolds(String io) {
        context(io);
        int max = IpcTransport.maxPathBytes(IoKind.valueOf(ctx.ioTransport().name()));
        String prefix = dir + "/";
        String tooLong = prefix + "x".repeat(max + 1 - prefix.length());
        assertThat(tooLong).hasSize(max + 1);
        ZmtpSocket s = socket(PULL);
        assertThatThrownBy(() -> s.bind("ipc://" + tooLong))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("this OS allows is " + max);
        assertThatThrownBy(() -> s.connect("ipc://" + tooLong))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("this OS allows is " + max);
        // The longest allowed path binds.
        String longest = prefix + "y".repeat(max - prefix.length());
        assertThat(s.bind("ipc://" + longest)).isEqualTo("ipc://" + longest);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldFailForADirectoryThatDoesNotExist(String io) {
        context(io);
        ZmtpSocket s = socket(PULL);
        Path missing = dir.resolve("no-such-dir").resolve("x.sock");
        assertThatThrownBy(() -> s.bind("ipc://" + missing))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("does not exist");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldRefuseToConnectToTheWildcard(String io) {
        context(io);
        ZmtpSocket s = socket(PUSH);
        assertThatThrownBy(() -> s.connect("ipc://*"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("can't be connected to");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"epoll", "io_uring", "nio"})
    void shouldUseAbstractNamesOnNativeTransportsAndRefuseThemClearlyOnNio(String io) {
        context(io);
        String endpoint = "ipc://@zmtp-ipc-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        ZmtpSocket pull = socket(PULL);
        if ("nio".equals(io)) {
            assertThatThrownBy(() -> pull.bind(endpoint))
                    .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                    .hasMessageContaining("need the epoll or io_uring transport");
            return;
        }
        assertThat(pull.bind(endpoint)).isEqualTo(endpoint);
        ZmtpSocket push = socket(PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("abstract"));
        assertThat(recv(pull)).isEqualTo("abstract");
        // The kernel refuses a second listener on an abstract name in use.
        ZmtpSocket other = socket(PULL);
        assertThatThrownBy(() -> other.bind(endpoint)).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
        pull.unbind(endpoint);
        assertThat(other.bind(endpoint)).isEqualTo(endpoint);
    }

    private static boolean isSocketFile(Path p) {
        try {
            int mode = (Integer) Files.getAttribute(p, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return (mode & 0170000) == 0140000;
        } catch (IOException e) {
            return false;
        }
    }
}
