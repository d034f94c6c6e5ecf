package io.zmtp.interop;

import static io.zmtp.interop.LegacyPayloads.FROM_PEER;
import static io.zmtp.interop.LegacyPayloads.TO_PEER;
import static io.zmtp.interop.LegacyPayloads.message;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * libzmq 4.3.5 (pyzmq) facing our codec when our side presents a ZMTP 1.0 or 2.0 greeting
 * ({@code onlyVersion(ZMTP_10)} / {@code onlyVersion(ZMTP_20)}): libzmq downgrades, and messages flow both ways with
 * identities of 0, 1 and 255 bytes in both directions; subscriptions go as 0x01 messages on 2.0, and libzmq's
 * publishers give a 1.0 subscriber everything (they inject a subscribe-all for it).
 */
class LibzmqDowngradeIT {
    private static final int COUNT = 2_000;
    private static final Duration EXIT = scaled(Duration.ofSeconds(30));

    private static EventLoopGroup group;

    @BeforeAll
    static void start() {
        group = CodecConnection.newGroup();
        PyZmq.versions();
    }

    @AfterAll
    static void stop() {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    static Stream<Arguments> versionsAndIdentities() {
        return Stream.of(ZmtpVersion.ZMTP_10, ZmtpVersion.ZMTP_20)
                .flatMap(v -> Stream.of(0, 1, 255).map(len -> Arguments.of(v, len)));
    }

    /** Our DEALER connects to a libzmq ROUTER that echoes; both sides have identities of {@code idLength}. */
    @ParameterizedTest(name = "our {0} DEALER client, identities {1} B <-> libzmq ROUTER echo")
    @MethodSource("versionsAndIdentities")
    void ourOldVersionDealerTalksToLibzmqRouter(ZmtpVersion version, int idLength) {
        byte[] ourId = LegacyPayloads.identity(idLength, 'O');
        byte[] libzmqId = LegacyPayloads.identity(idLength, 'L');
        long seed = 7 + idLength;
        try (PyZmq.Peer router = PyZmq.start("downgrade_router_echo.py", "tcp://127.0.0.1:*",
                String.valueOf(COUNT), hexOrDash(libzmqId))) {
            int port = port(router.readLine());
            ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER).identity(ourId).onlyVersion(version)
                    .build();
            try (CodecConnection conn = CodecConnection.connect(group, port, config)) {
                ZmtpHandshakeSuccessEvent hs = conn.awaitHandshake();
                assertThat(hs.version()).isEqualTo(version);
                assertThat(hs.peerIdentity()).as("libzmq ROUTER's identity").isEqualTo(libzmqId);
                assertThat(hs.peerSocketType()).isEqualTo(version == ZmtpVersion.ZMTP_20 ? ZmtpSocketType.ROUTER
                        : null);
                for (int i = 0; i < COUNT; i++) {
                    conn.write(message(TO_PEER, seed, i));
                    if (i % 64 == 63) {
                        conn.flush();
                    }
                }
                conn.flush();
                for (int i = 0; i < COUNT; i++) {
                    expect(conn.receive("echo " + i), message(TO_PEER, seed, i), i);
                }
                String seen = router.readLine().substring("PEER ".length());
                if (idLength == 0) {
                    // libzmq generates a routing id for an anonymous peer: 00 + u32.
                    assertThat(seen).hasSize(10).startsWith("00");
                } else {
                    assertThat(seen).as("our identity, as libzmq's ROUTER saw it").isEqualTo(hexOrDash(ourId));
                }
                assertThat(router.readLine()).isEqualTo("DONE " + COUNT);
                router.awaitExit(EXIT);
            }
        }
    }

    /** A libzmq DEALER connects to our ROUTER, which answers each message with its own payload. */
    @ParameterizedTest(name = "libzmq DEALER, identities {1} B <-> our {0} ROUTER server")
    @MethodSource("versionsAndIdentities")
    void libzmqDealerTalksToOurOldVersionRouter(ZmtpVersion version, int idLength) {
        byte[] ourId = LegacyPayloads.identity(idLength, 'O');
        byte[] libzmqId = LegacyPayloads.identity(idLength, 'L');
        long seed = 11 + idLength;
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.ROUTER).identity(ourId).onlyVersion(version).build();
        try (CodecConnection.Server server = CodecConnection.listen(group, config);
                PyZmq.Peer dealer = PyZmq.start("downgrade_dealer.py", "tcp://127.0.0.1:" + server.port(),
                        String.valueOf(COUNT), String.valueOf(seed), hexOrDash(libzmqId));
                CodecConnection conn = server.accept()) {
            ZmtpHandshakeSuccessEvent hs = conn.awaitHandshake();
            assertThat(hs.version()).isEqualTo(version);
            assertThat(hs.peerIdentity()).as("libzmq DEALER's identity").isEqualTo(libzmqId);
            assertThat(hs.peerSocketType()).isEqualTo(version == ZmtpVersion.ZMTP_20 ? ZmtpSocketType.DEALER
                    : null);
            for (int i = 0; i < COUNT; i++) {
                expect(conn.receive("message " + i), message(FROM_PEER, seed, i), i);
                conn.send(message(TO_PEER, seed, i));
            }
            // The DEALER checks every reply against the same payloads and says so.
            assertThat(dealer.readLine(Duration.ofSeconds(20))).isEqualTo("DONE " + COUNT);
            dealer.awaitExit(EXIT);
        }
    }

    /**
     * Our 2.0 SUB subscribes to "ab" with {@link ZmtpCommand#subscribe}, which a 2.0 peer gets as the message
     * {@code 01 'ab'}; libzmq's XPUB reports exactly that subscription and filters. Our 1.0 SUB sends nothing:
     * libzmq injects a subscribe-all ({@code 01}) on its behalf, which its XPUB reports as if the peer had sent it,
     * and the 1.0 subscriber gets every message.
     */
    @ParameterizedTest(name = "libzmq XPUB <-> our {0} SUB")
    @EnumSource(value = ZmtpVersion.class, names = {"ZMTP_10", "ZMTP_20"})
    void libzmqXpubSeesOurSubscriptionAndFilters(ZmtpVersion version) {
        boolean v2 = version == ZmtpVersion.ZMTP_20;
        try (PyZmq.Peer pub = PyZmq.start("downgrade_publisher.py", "tcp://127.0.0.1:*", "xpub")) {
            int port = port(pub.readLine());
            ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.SUB).onlyVersion(version).build();
            try (CodecConnection conn = CodecConnection.connect(group, port, config)) {
                ZmtpHandshakeSuccessEvent hs = conn.awaitHandshake();
                assertThat(hs.version()).isEqualTo(version);
                // libzmq announces its own XPUB code (09) to a 2.0 peer, not PUB's as rfc 15 suggests.
                assertThat(hs.peerSocketType()).isEqualTo(v2 ? ZmtpSocketType.XPUB : null);
                if (v2) {
                    conn.send(ZmtpCommand.subscribe(Unpooled.copiedBuffer("ab", US_ASCII)));
                }
                assertThat(pub.readLine()).isEqualTo("SUBSCRIPTION " + (v2 ? "016162" : "01"));
                // The XPUB publishes only after the subscription arrived: nothing is lost, from i = 0 on.
                int messages = 1_000;
                for (int n = 0; n < messages; n++) {
                    int i = v2 ? n : n / 2;
                    String topic = !v2 && n % 2 == 1 ? "xy" : "ab";
                    byte[][] got = conn.receive("publication " + n);
                    expect(got, new byte[][] {topic.getBytes(US_ASCII), String.valueOf(i).getBytes(US_ASCII)}, n);
                }
            }
            assertThat(pub.readLine()).startsWith("DISCONNECTED");
            pub.awaitExit(EXIT);
        }
    }

    /**
     * The same with a plain libzmq PUB, which can't say when the subscription arrived: it publishes from the
     * start, so the first publications may be missed, but what arrives is in order and, on 2.0, only "ab".
     */
    @ParameterizedTest(name = "libzmq PUB <-> our {0} SUB")
    @EnumSource(value = ZmtpVersion.class, names = {"ZMTP_10", "ZMTP_20"})
    void libzmqPubFiltersForOur20SubAndSendsAllTo10Sub(ZmtpVersion version) {
        boolean v2 = version == ZmtpVersion.ZMTP_20;
        try (PyZmq.Peer pub = PyZmq.start("downgrade_publisher.py", "tcp://127.0.0.1:*", "pub")) {
            int port = port(pub.readLine());
            ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.SUB).onlyVersion(version).build();
            try (CodecConnection conn = CodecConnection.connect(group, port, config)) {
                ZmtpHandshakeSuccessEvent hs = conn.awaitHandshake();
                assertThat(hs.version()).isEqualTo(version);
                assertThat(hs.peerSocketType()).isEqualTo(v2 ? ZmtpSocketType.PUB : null);
                if (v2) {
                    conn.send(ZmtpCommand.subscribe(Unpooled.copiedBuffer("ab", US_ASCII)));
                }
                int ab = 0;
                int xy = 0;
                long last = -1;
                for (int n = 0; n < 400; n++) {
                    byte[][] got = conn.receive("publication " + n);
                    assertThat(got.length).isEqualTo(2);
                    String topic = new String(got[0], US_ASCII);
                    long i = Long.parseLong(new String(got[1], US_ASCII));
                    // Rounds are [ab i, xy i]; after the first arrival nothing may be lost or reordered.
                    if (topic.equals("ab")) {
                        ab++;
                        assertThat(last < 0 || i == last + 1).as("ab %d after %d", i, last).isTrue();
                    } else {
                        assertThat(topic).isEqualTo("xy");
                        xy++;
                        assertThat(last < 0 || i == last).as("xy %d after %d", i, last).isTrue();
                    }
                    last = i;
                }
                if (v2) {
                    assertThat(xy).as("publications the 2.0 SUB did not subscribe to").isZero();
                } else {
                    assertThat(ab).isBetween(199, 201);
                    assertThat(xy).isBetween(199, 201);
                }
            }
            assertThat(pub.readLine()).startsWith("DISCONNECTED");
            pub.awaitExit(EXIT);
        }
    }

    private static int port(String endpointLine) {
        assertThat(endpointLine).startsWith("ENDPOINT tcp://127.0.0.1:");
        return Integer.parseInt(endpointLine.substring(endpointLine.lastIndexOf(':') + 1));
    }

    private static String hexOrDash(byte[] b) {
        return b.length == 0 ? "-" : HexFormat.of().formatHex(b);
    }

    private static void expect(byte[][] got, byte[][] want, int i) {
        if (!LegacyPayloads.equal(got, want)) {
            throw new AssertionError("message " + i + ": got " + LegacyPayloads.render(got) + ", expected "
                    + LegacyPayloads.render(want));
        }
    }
}
