package io.zmtp.interop;

import static io.zmtp.interop.LegacyPayloads.FROM_PEER;
import static io.zmtp.interop.LegacyPayloads.TO_PEER;
import static io.zmtp.interop.LegacyPayloads.message;
import static io.zmtp.interop.LegacyPayloads.withDelimiter;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interop with Spotify's netty-zmtp 0.4.0 (the JVM ZMTP 1.0/2.0 implementation netty-zmtp users come from, running on its own Netty 4.0.28 in a separate
 * JVM, see {@link SpotifyPeer}) configured for ZMTP/1.0 and for ZMTP/2.0 (its default "interop" mode, which starts
 * with the 1.0-compatible 10-byte signature, and the plain mode that sends the whole 2.0 greeting at once), as
 * client and as server, with every socket type pairing it has. netty-zmtp is a codec without socket semantics, and so
 * is our side here: each side sends and checks what its socket type would (REQ/REP envelopes by hand, a SUB's
 * subscribe-all message). Every message is checked byte for byte on both sides.
 *
 * <p>Our side as client uses {@code onlyVersion} of the server's version, as netty-zmtp users configured it; as
 * server it uses the default (every version, staged detection). Extra cases cover the other combinations, the
 * downgrades across versions and the refusals.
 */
class SpotifyNettyZmtpIT {
    private static final Logger LOG = LoggerFactory.getLogger(SpotifyNettyZmtpIT.class);
    /** Messages each way per matrix case (10,000, as the other stream tests); -Dzmtp.interop.spotify.count to shorten a local run. */
    private static final int COUNT = Integer.getInteger("zmtp.interop.spotify.count", 10_000);
    private static final int EXTRA_COUNT = Math.min(COUNT, 1_000);

    private static EventLoopGroup group;
    private static SpotifyPeer peer;

    /** How the Spotify side is configured. */
    enum Spotify {
        ZMTP10("ZMTP10", false, ZmtpVersion.ZMTP_10),
        /** netty-zmtp's default: ZMTP/2.0 starting with the 1.0-compatible signature, falling back to 1.0. */
        ZMTP20("ZMTP20", true, ZmtpVersion.ZMTP_20),
        /** interop(false): the whole 2.0 greeting at once, 2.0 peers only. */
        ZMTP20_STRICT("ZMTP20", false, ZmtpVersion.ZMTP_20);

        final String protocol;
        final boolean interop;
        final ZmtpVersion version;

        Spotify(String protocol, boolean interop, ZmtpVersion version) {
            this.protocol = protocol;
            this.interop = interop;
            this.version = version;
        }
    }

    /** Identities on both sides. */
    enum Ids {
        ANONYMOUS(0, 0),
        ONE_BYTE(1, 1),
        /**
         * 255 bytes both ways; but netty-zmtp 0.4.0 reads the 2.0 greeting's identity length as a signed byte, so
         * on 2.0 our identity stays at 127 bytes (see {@link #spotify20FailsOnIdentitiesOf128BytesAndMore}).
         */
        MAX(255, 255);

        final int spotifyLength;
        final int ourLength;

        Ids(int spotifyLength, int ourLength) {
            this.spotifyLength = spotifyLength;
            this.ourLength = ourLength;
        }

        byte[] spotify() {
            return LegacyPayloads.identity(spotifyLength, 'S');
        }

        byte[] ours(Spotify s) {
            return LegacyPayloads.identity(s.version == ZmtpVersion.ZMTP_20 ? Math.min(ourLength, 127) : ourLength,
                    'O');
        }
    }

    /** Socket type pairings: Spotify's type and ours. */
    private static final ZmtpSocketType[][] PAIRS = {
            {ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER},
            {ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER},
            {ZmtpSocketType.PUB, ZmtpSocketType.SUB},
            {ZmtpSocketType.SUB, ZmtpSocketType.PUB},
            {ZmtpSocketType.PUSH, ZmtpSocketType.PULL},
            {ZmtpSocketType.PULL, ZmtpSocketType.PUSH},
            {ZmtpSocketType.REQ, ZmtpSocketType.REP},
            {ZmtpSocketType.REP, ZmtpSocketType.REQ},
    };

    /**
     * One connection.
     *
     * @param ourVersions {@code null} for our default (all versions, staged detection)
     * @param expected    the version both sides must report
     */
    record Case(Spotify spotify, boolean spotifyServer, ZmtpSocketType spotifyType, ZmtpSocketType ourType,
                byte[] spotifyId, byte[] ourId, Set<ZmtpVersion> ourVersions, ZmtpVersion expected, int count) {

        @Override
        public String toString() {
            return "Spotify " + spotify + " " + spotifyType + (spotifyServer ? " server" : " client") + " (id "
                    + spotifyId.length + " B) <-> our " + ourType + (spotifyServer ? " client" : " server")
                    + " (id " + ourId.length + " B, " + (ourVersions == null ? "all versions" : ourVersions)
                    + "): " + expected + ", " + count + " msgs";
        }
    }

    @BeforeAll
    static void start() {
        group = CodecConnection.newGroup();
        peer = SpotifyPeer.start();
    }

    @AfterAll
    static void stop() {
        if (peer != null) {
            peer.close();
            if (peer.stderr().contains("LEAK")) {
                // netty-zmtp's own buffers, in its own JVM: reported for the closing note, not our leak.
                LOG.warn("Netty 4.0 leak detector in the Spotify peer reported:\n{}", peer.stderr());
            }
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    static Stream<Case> matrix() {
        List<Case> cases = new ArrayList<>();
        for (Spotify s : Spotify.values()) {
            for (boolean spotifyServer : new boolean[] {true, false}) {
                for (ZmtpSocketType[] pair : PAIRS) {
                    for (Ids ids : Ids.values()) {
                        // Our client is told the old server's version; our server detects whatever comes.
                        Set<ZmtpVersion> ours = spotifyServer ? EnumSet.of(s.version) : null;
                        cases.add(new Case(s, spotifyServer, pair[0], pair[1], ids.spotify(), ids.ours(s), ours,
                                s.version, COUNT));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void messagesFlowBothWays(Case c) {
        run(c);
    }

    /** The other configurations of our side: staged detection as client, one version only as server. */
    static Stream<Case> otherConfigurations() {
        List<Case> cases = new ArrayList<>();
        for (Spotify s : Spotify.values()) {
            for (Ids ids : List.of(Ids.ANONYMOUS, Ids.MAX)) {
                cases.add(new Case(s, true, ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, ids.spotify(),
                        ids.ours(s), null, s.version, EXTRA_COUNT));
                cases.add(new Case(s, false, ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, ids.spotify(),
                        ids.ours(s), EnumSet.of(s.version), s.version, EXTRA_COUNT));
            }
        }
        // netty-zmtp in its default 2.0 "interop" mode falls back to 1.0 when our side speaks only 1.0.
        for (boolean spotifyServer : new boolean[] {true, false}) {
            cases.add(new Case(Spotify.ZMTP20, spotifyServer, ZmtpSocketType.DEALER, ZmtpSocketType.DEALER,
                    Ids.MAX.spotify(), LegacyPayloads.identity(255, 'O'), EnumSet.of(ZmtpVersion.ZMTP_10),
                    ZmtpVersion.ZMTP_10, EXTRA_COUNT));
            cases.add(new Case(Spotify.ZMTP20, spotifyServer, ZmtpSocketType.PUSH, ZmtpSocketType.PULL,
                    Ids.ANONYMOUS.spotify(), Ids.ANONYMOUS.spotify(), EnumSet.of(ZmtpVersion.ZMTP_10),
                    ZmtpVersion.ZMTP_10, EXTRA_COUNT));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherConfigurations")
    void otherConfigurationsOfOurSide(Case c) {
        run(c);
    }

    @Test
    void ourServerRefusesVersionsItDoesNotAccept() {
        refused(Spotify.ZMTP10, EnumSet.of(ZmtpVersion.ZMTP_20, ZmtpVersion.ZMTP_30, ZmtpVersion.ZMTP_31),
                ZmtpVersion.ZMTP_10);
        refused(Spotify.ZMTP20, EnumSet.of(ZmtpVersion.ZMTP_30, ZmtpVersion.ZMTP_31), ZmtpVersion.ZMTP_20);
        refused(Spotify.ZMTP20_STRICT, EnumSet.of(ZmtpVersion.ZMTP_10, ZmtpVersion.ZMTP_31), ZmtpVersion.ZMTP_20);
    }

    private void refused(Spotify s, Set<ZmtpVersion> accepted, ZmtpVersion peerVersion) {
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER).acceptedVersions(accepted).build();
        List<String> lines = new ArrayList<>();
        try (CodecConnection.Server server = CodecConnection.listen(group, config)) {
            // The peer waits for one message, so it reports how the connection ended.
            peer.send(runLine(s, false, ZmtpSocketType.DEALER, new byte[0], 0, 1, "none", "none", 1)
                    + " port=" + server.port());
            try (CodecConnection conn = server.accept()) {
                ZmtpHandshakeFailureEvent failure = conn.awaitHandshakeFailure();
                assertThat(failure.reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
                assertThat(failure.message()).contains("peer speaks " + peerVersion);
                assertThat(conn.awaitClosed(Duration.ofSeconds(5))).isTrue();
            }
        } finally {
            resync(lines);
        }
        // A 1.0 netty-zmtp is done with its handshake once it has our 10-byte signature (to it, a complete
        // long-form identity frame), so it may see a handshake and then the close.
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(lines.size() - 1)).startsWith("RESULT fail");
    }

    /**
     * netty-zmtp 0.4.0 reads the identity length of a 2.0 greeting as a signed byte ({@code in.readByte()}), so an
     * identity of 128..255 bytes makes it allocate a negative array and fail the handshake. We don't copy that
     * bug: our side reads the length unsigned (the matrix sends Spotify's 255-byte
     * identity to us). If this test starts failing, a fixed netty-zmtp is in use and Ids.MAX can go to 255 on 2.0.
     */
    @Test
    void spotify20FailsOnIdentitiesOf128BytesAndMore() {
        for (int length : new int[] {128, 255}) {
            ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                    .identity(LegacyPayloads.identity(length, 'O')).build();
            List<String> lines = new ArrayList<>();
            try (CodecConnection.Server server = CodecConnection.listen(group, config)) {
                peer.send(runLine(Spotify.ZMTP20, false, ZmtpSocketType.DEALER, new byte[0], 0, 0, "none", "none", 1)
                        + " port=" + server.port());
                try (CodecConnection conn = server.accept()) {
                    // We read Spotify's greeting fine; Spotify chokes on ours and closes.
                    assertThat(conn.awaitHandshake().version()).isEqualTo(ZmtpVersion.ZMTP_20);
                    assertThat(conn.awaitClosed(Duration.ofSeconds(10))).isTrue();
                }
            } finally {
                resync(lines);
            }
            assertThat(lines).first().asString()
                    .startsWith("HANDSHAKE_FAILED")
                    .contains("NegativeArraySizeException");
        }
    }

    private static String runLine(Spotify s, boolean server, ZmtpSocketType type, byte[] identity, int send,
                                  int recv, String lockstep, String subscription, long seed) {
        return "RUN role=" + (server ? "server" : "client") + " protocol=" + s.protocol + " interop=" + s.interop
                + " type=" + type + " identity=" + hexOrDash(identity) + " send=" + send + " recv=" + recv
                + " lockstep=" + lockstep + " subscription=" + subscription + " seed=" + seed;
    }

    private static String hexOrDash(byte[] b) {
        return b.length == 0 ? "-" : HexFormat.of().formatHex(b);
    }

    private void run(Case c) {
        long seed = c.toString().hashCode() & 0xFFFF;
        int n = c.count();
        boolean subscriptionFromOldSub = c.expected() == ZmtpVersion.ZMTP_20;
        int spotifySend = 0;
        int spotifyRecv = 0;
        String lockstep = "none";
        String subscription = "none";
        switch (c.spotifyType()) {
            case DEALER, ROUTER -> {
                spotifySend = n;
                spotifyRecv = n;
            }
            case PUB -> {
                spotifySend = n;
                subscription = "expect";
            }
            case SUB -> {
                spotifyRecv = n;
                // An old SUB subscribes with a 0x01 message on 2.0; a 1.0 SUB never sends one.
                subscription = subscriptionFromOldSub ? "send" : "none";
            }
            case PUSH -> spotifySend = n;
            case PULL -> spotifyRecv = n;
            case REQ -> {
                spotifySend = n;
                lockstep = "req";
            }
            case REP -> {
                spotifyRecv = n;
                lockstep = "rep";
            }
            default -> throw new IllegalArgumentException(c.spotifyType().toString());
        }
        ZmtpConfig.Builder builder = ZmtpConfig.builder(c.ourType()).identity(c.ourId());
        if (c.ourVersions() != null) {
            builder.acceptedVersions(c.ourVersions());
        }
        ZmtpConfig config = builder.build();
        String runLine = runLine(c.spotify(), c.spotifyServer(), c.spotifyType(), c.spotifyId(), spotifySend,
                spotifyRecv, lockstep, subscription, seed);

        long start = System.nanoTime();
        List<String> lines = new ArrayList<>();
        CodecConnection conn = null;
        try {
            if (c.spotifyServer()) {
                peer.send(runLine + " port=0");
                String listening = peer.readLine();
                assertThat(listening).startsWith("LISTENING ");
                conn = CodecConnection.connect(group, Integer.parseInt(listening.substring(10)), config);
            } else {
                try (CodecConnection.Server server = CodecConnection.listen(group, config)) {
                    peer.send(runLine + " port=" + server.port());
                    conn = server.accept();
                }
            }
            ZmtpHandshakeSuccessEvent hs = conn.awaitHandshake();
            String peerHandshake = peer.readLine();
            boolean v2 = c.expected() == ZmtpVersion.ZMTP_20;
            assertThat(peerHandshake).as("what netty-zmtp saw").isEqualTo("HANDSHAKE version="
                    + (v2 ? "ZMTP20" : "ZMTP10") + " identity=" + hexOrDash(c.ourId())
                    + " type=" + (v2 ? c.ourType().name() : "-"));
            assertThat(hs.version()).isEqualTo(c.expected());
            assertThat(hs.peerIdentity()).as("peer identity we saw").isEqualTo(c.spotifyId());
            assertThat(hs.peerSocketType()).isEqualTo(v2 ? announcedBySpotify(c.spotifyType()) : null);
            assertThat(hs.mechanism()).isEqualTo("NULL");

            ourSide(conn, c, seed, subscriptionFromOldSub);

            int lockstepCount = lockstep.equals("none") ? 0 : n;
            assertThat(peer.readLine()).as("netty-zmtp's result").isEqualTo("RESULT ok sent="
                    + Math.max(spotifySend, lockstepCount) + " received=" + Math.max(spotifyRecv, lockstepCount));
            conn.assertNoMessage(Duration.ofMillis(20));
        } finally {
            if (conn != null) {
                conn.close();
            }
            resync(lines);
        }
        LOG.info("{}: {} ms", c, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /**
     * The type netty-zmtp 0.4.0 writes into a 2.0 greeting: it swaps the codes of PUB (writes 02) and SUB (writes
     * 01), while reading them right. libzmq doesn't check that byte; our codec lets exactly this swap through.
     */
    private static ZmtpSocketType announcedBySpotify(ZmtpSocketType type) {
        return switch (type) {
            case PUB -> ZmtpSocketType.SUB;
            case SUB -> ZmtpSocketType.PUB;
            default -> type;
        };
    }

    /** Our side's half of the exchange, mirroring what the Spotify peer does for its socket type. */
    private static void ourSide(CodecConnection conn, Case c, long seed, boolean subscriptionFromOldSub) {
        int n = c.count();
        switch (c.spotifyType()) {
            case DEALER, ROUTER -> {
                sendAll(conn, n, seed);
                receiveAll(conn, n, seed);
            }
            case PUB -> {
                // Our SUB subscribes to everything: SUBSCRIBE becomes the message 0x01 for 1.0 and 2.0 peers.
                conn.send(ZmtpCommand.subscribe(Unpooled.EMPTY_BUFFER));
                receiveAll(conn, n, seed);
            }
            case SUB -> {
                if (subscriptionFromOldSub) {
                    assertThat(conn.receive("the subscription")).isDeepEqualTo(new byte[][] {{1}});
                }
                sendAll(conn, n, seed);
            }
            case PUSH -> receiveAll(conn, n, seed);
            case PULL -> sendAll(conn, n, seed);
            case REQ -> {
                for (int i = 0; i < n; i++) {
                    expect(conn.receive("request " + i), withDelimiter(message(FROM_PEER, seed, i)), i);
                    conn.send(withDelimiter(message(TO_PEER, seed, i)));
                }
            }
            case REP -> {
                for (int i = 0; i < n; i++) {
                    conn.send(withDelimiter(message(TO_PEER, seed, i)));
                    expect(conn.receive("reply " + i), withDelimiter(message(FROM_PEER, seed, i)), i);
                }
            }
            default -> throw new IllegalArgumentException(c.spotifyType().toString());
        }
    }

    private static void sendAll(CodecConnection conn, int n, long seed) {
        for (int i = 0; i < n; i++) {
            conn.write(message(TO_PEER, seed, i));
            if (i % 64 == 63) {
                conn.flush();
            }
        }
        conn.flush();
    }

    private static void receiveAll(CodecConnection conn, int n, long seed) {
        for (int i = 0; i < n; i++) {
            expect(conn.receive("message " + i), message(FROM_PEER, seed, i), i);
        }
    }

    private static void expect(byte[][] got, byte[][] want, int i) {
        if (!LegacyPayloads.equal(got, want)) {
            throw new AssertionError("message " + i + ": got " + LegacyPayloads.render(got) + ", expected "
                    + LegacyPayloads.render(want));
        }
    }

    /** Reads the peer's lines up to CLOSED (which it prints once our side has closed), keeping the rest. */
    private static void resync(List<String> lines) {
        for (int i = 0; i < 10_000; i++) {
            String line = peer.readLine(Duration.ofSeconds(30));
            if (line.equals("CLOSED")) {
                return;
            }
            lines.add(line);
        }
    }
}
