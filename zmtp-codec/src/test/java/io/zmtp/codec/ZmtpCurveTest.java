package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.mechanism.KeyStreamProbe;
import io.zmtp.codec.mechanism.RecordingCurveRandom;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.codec.security.Z85;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static io.zmtp.codec.Wire.ascii;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CURVE through the handshake handler: our client against our server in embedded channels, and what each side does
 * with a peer that lies (wrong keys, tampered, replayed or reordered boxes, a downgrade to NULL).
 */
class ZmtpCurveTest {
    private static final CurveKeyPair SERVER = CurveKeyPair.generate();
    private static final CurveKeyPair CLIENT = CurveKeyPair.generate();

    private static TestPeer client(ZmtpSocketType type, CurveKeyPair keys, byte[] serverKey) {
        return TestPeer.of(ZmtpConfig.builder(type).mechanism(CurveMechanism.client(keys, serverKey)));
    }

    private static TestPeer server(ZmtpSocketType type) {
        return TestPeer.of(ZmtpConfig.builder(type).mechanism(CurveMechanism.server(SERVER)));
    }

    private static String msg(String... frames) {
        StringBuilder sb = new StringBuilder("msg[");
        for (int i = 0; i < frames.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(Wire.hex(ascii(frames[i])));
        }
        return sb.append(']').toString();
    }

    @Test
    void shouldHandshakeAndCarryMultipartMessagesBothWaysEncrypted() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            dealer.write(ZmtpMessage.of("secret", "plans"));
            byte[] wire = pumpRecording(dealer, router);
            assertThat(router.success().mechanism()).isEqualTo("CURVE");
            assertThat(dealer.success().peerSocketType()).isEqualTo(ZmtpSocketType.ROUTER);
            assertThat(router.log()).last().isEqualTo(msg("secret", "plans"));
            assertThat(new String(wire, StandardCharsets.ISO_8859_1)).doesNotContain("secret").doesNotContain("plans");
            router.write(ZmtpMessage.of("reply"));
            TestPeer.pump(dealer, router);
            assertThat(dealer.log()).last().isEqualTo(msg("reply"));
        }
    }

    @Test
    void shouldCarryLargeFramesAndEmptyOnes() {
        byte[] big = new byte[100_000];
        Arrays.fill(big, (byte) 'x');
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            dealer.write(ZmtpMessage.ofBytes(big, new byte[0]));
            TestPeer.pump(dealer, router);
            List<ZmtpMessage> got = router.inbound(ZmtpMessage.class);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).frame(0).readableBytes()).isEqualTo(100_000);
            assertThat(got.get(0).frame(1).readableBytes()).isZero();
        }
    }

    @Test
    void shouldKeepTheMessageWriterAndReaderPlugInsWorking() {
        ZmtpConfig.Builder clientConfig = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                .mechanism(CurveMechanism.client(CLIENT, SERVER.publicKey()))
                .messageWriter(new ZmtpCodecSpiTest.QuoteWriter());
        ZmtpConfig.Builder serverConfig = ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                .mechanism(CurveMechanism.server(SERVER)).messageReader(ZmtpCodecSpiTest.StringListReader::new);
        try (TestPeer dealer = TestPeer.of(clientConfig); TestPeer router = TestPeer.of(serverConfig)) {
            TestPeer.pump(dealer, router);
            router.inbound.clear();
            ChannelFuture good = dealer.channel.write(new ZmtpCodecSpiTest.Quote("AB", 0x4142434445464748L));
            ChannelFuture bad = dealer.channel.write(new ZmtpCodecSpiTest.Quote("X", -1));
            dealer.channel.write(ZmtpMessage.of("plain"));
            dealer.channel.flush();
            assertThat(good.isSuccess()).isTrue();
            assertThat(bad.cause()).hasMessage("negative price");
            TestPeer.pump(dealer, router);
            // The failed write's sealed frames were rolled back; its nonce is skipped, which a receiver allows.
            assertThat(router.inbound).containsExactly(List.of("AB", "ABCDEFGH"), List.of("plain"));
        }
    }

    @Test
    void shouldSendSubscriptionsAndHeartbeatsInsideMessages() {
        try (TestPeer sub = client(ZmtpSocketType.SUB, CLIENT, SERVER.publicKey());
             TestPeer pub = server(ZmtpSocketType.PUB)) {
            TestPeer.pump(sub, pub);
            sub.write(ZmtpCommand.subscribe(Unpooled.copiedBuffer("topic", StandardCharsets.US_ASCII)));
            byte[] wire = pumpRecording(sub, pub);
            assertThat(pub.log()).last().isEqualTo("cmd SUBSCRIBE " + Wire.hex(ascii("topic")));
            assertThat(new String(wire, StandardCharsets.ISO_8859_1)).doesNotContain("SUBSCRIBE");
            pub.write(ZmtpCommand.ping(0, new byte[] {1, 2}));
            TestPeer.pump(sub, pub);
            // The PING was opened and answered by the heartbeat handler: PONG went back, nothing reached SUB's app.
            assertThat(sub.log()).noneMatch(e -> e.startsWith("cmd PING"));
        }
    }

    @Test
    void shouldShowTheClientKeyToTheAuthenticatorAndTheUserIdToTheApplication() {
        DefaultZmtpAuthenticator known = DefaultZmtpAuthenticator.builder().curveKey(CLIENT.publicKey()).build();
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(CurveMechanism.server(SERVER)).authenticator(known))) {
            TestPeer.pump(dealer, router);
            assertThat(router.success().userId()).isEqualTo(Z85.encode(CLIENT.publicKey()));
        }
    }

    @Test
    void shouldRefuseAnUnknownClientKeyWithAnErrorAndDeliverNothing() {
        DefaultZmtpAuthenticator known = DefaultZmtpAuthenticator.builder().curveKey(CLIENT.publicKey()).build();
        try (TestPeer stranger = client(ZmtpSocketType.DEALER, CurveKeyPair.generate(), SERVER.publicKey());
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(CurveMechanism.server(SERVER)).authenticator(known))) {
            stranger.write(ZmtpMessage.of("hello?"));
            TestPeer.pump(stranger, router);
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(stranger.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(stranger.failure().message()).endsWith("ERROR 400");
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg") || e.startsWith("success"));
        }
    }

    @Test
    void shouldLetGoOfTheKeyStreamMadeAheadWhenTheConnectionCloses() {
        TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
        TestPeer router = server(ZmtpSocketType.ROUTER);
        try {
            for (int i = 0; i < 5; i++) {
                dealer.write(ZmtpMessage.of("request " + i));
                TestPeer.pump(dealer, router);
            }
            // Both directions' boxes ran on this thread (embedded channels): the key stream made ahead is theirs.
            assertThat(KeyStreamProbe.heldOnThisThread()).isTrue();
        } finally {
            dealer.close();
            router.close();
        }
        assertThat(KeyStreamProbe.heldOnThisThread()).isFalse();
    }

    @Test
    void shouldZeroBothSidesHandshakeSecretsOnceTheHandshakeIsDone() {
        RecordingCurveRandom random = new RecordingCurveRandom();
        try (TestPeer dealer = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.DEALER)
                     .mechanism(random.client(CLIENT, SERVER.publicKey())));
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(random.server(SERVER, System::nanoTime)))) {
            dealer.write(ZmtpMessage.of("after"));
            TestPeer.pump(dealer, router);
            assertThat(router.log()).last().isEqualTo(msg("after"));
            // c', s' and the cookie key.
            assertThat(random.secrets()).hasSize(3).allSatisfy(k -> assertThat(k).containsOnly(0));
        }
    }

    @Test
    void shouldZeroTheServersHandshakeSecretsWhenTheConnectionClosesBeforeInitiate() {
        RecordingCurveRandom serverRandom = new RecordingCurveRandom();
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(serverRandom.server(SERVER, System::nanoTime)))) {
            pumpUntilWelcome(dealer, router, serverRandom);
            router.channel.close();
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.CONNECTION_CLOSED);
            assertThat(serverRandom.secrets()).hasSize(2).allSatisfy(k -> assertThat(k).containsOnly(0));
        }
    }

    @Test
    void shouldZeroTheServersHandshakeSecretsWhenTheHandshakeTimesOut() {
        RecordingCurveRandom serverRandom = new RecordingCurveRandom();
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(serverRandom.server(SERVER, System::nanoTime)))) {
            pumpUntilWelcome(dealer, router, serverRandom);
            router.advance(ZmtpConstants.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS);
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.TIMEOUT);
            assertThat(serverRandom.secrets()).hasSize(2).allSatisfy(k -> assertThat(k).containsOnly(0));
        }
    }

    /** Shuttles bytes until the server has sent WELCOME, then stops: the client's INITIATE never arrives. */
    private static void pumpUntilWelcome(TestPeer dealer, TestPeer router, RecordingCurveRandom serverRandom) {
        for (int i = 0; i < 10 && serverRandom.cookieKeys().isEmpty(); i++) {
            router.feed(dealer.outbound());
            dealer.feed(router.outbound());
        }
        assertThat(serverRandom.cookieKeys()).hasSize(1);
        assertThat(serverRandom.cookieKeys().get(0)).isNotEqualTo(new byte[32]);
    }

    @Test
    void shouldCloseSilentlyOnAClientWithTheWrongServerKey() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, CurveKeyPair.generate().publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            dealer.write(ZmtpMessage.of("hello?"));
            byte[] fromServer = pumpRecordingFrom(router, dealer);
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(router.failure().message()).contains("HELLO does not open");
            // The server's greeting only: no WELCOME, no ERROR for a prober.
            assertThat(fromServer).hasSize(64);
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
            assertThat(router.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldRefuseADowngradeToNull() {
        try (TestPeer router = server(ZmtpSocketType.ROUTER)) {
            router.feed(Wire.rawGreeting(1), Wire.ready("Socket-Type", "DEALER"), Wire.message(ascii("sneaky")));
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
        }
        // And to ZMTP 2.0, which has no mechanism at all.
        try (TestPeer router = server(ZmtpSocketType.ROUTER)) {
            router.feed(Wire.signature(1), new byte[] {1, 5}, Wire.frame(0, new byte[0]), Wire.message(ascii("x")));
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
        }
    }

    @Test
    void shouldCloseOnATamperedBoxAndDeliverNothingFromIt() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            TestPeer.pump(dealer, router);
            router.inbound.clear();
            dealer.write(ZmtpMessage.of("pay 10"));
            byte[] sealed = dealer.outbound();
            sealed[sealed.length - 1] ^= 1;
            router.feed(sealed);
            assertThat(router.protocolError().cause().getMessage()).contains("does not open");
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
            assertThat(router.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldCloseOnAReplayedMessage() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            TestPeer.pump(dealer, router);
            router.inbound.clear();
            dealer.write(ZmtpMessage.of("pay 10"));
            byte[] sealed = dealer.outbound();
            router.feed(sealed);
            assertThat(router.log()).containsExactly(msg("pay 10"));
            router.feed(sealed);
            assertThat(router.protocolError().cause().getMessage()).contains("replayed or out of order");
            assertThat(router.inbound(ZmtpMessage.class)).hasSize(1);
        }
    }

    @Test
    void shouldCloseOnMessagesOutOfOrder() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            TestPeer.pump(dealer, router);
            router.inbound.clear();
            dealer.write(ZmtpMessage.of("first"));
            byte[] first = dealer.outbound();
            dealer.write(ZmtpMessage.of("second"));
            byte[] second = dealer.outbound();
            router.feed(second);
            router.feed(first);
            assertThat(router.protocolError().cause().getMessage()).contains("replayed or out of order");
            assertThat(router.log()).filteredOn(e -> e.startsWith("msg")).containsExactly(msg("second"));
        }
    }

    @Test
    void shouldRefuseAClearTextFrameAfterTheHandshake() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = server(ZmtpSocketType.ROUTER)) {
            TestPeer.pump(dealer, router);
            router.inbound.clear();
            router.feed(Wire.message(ascii("not sealed, but long enough to be a MESSAGE")));
            assertThat(router.protocolError().cause().getMessage()).contains("not a MESSAGE");
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
        }
    }

    @Test
    void shouldCloseOnASealedFrameLargerThanTheMessageLimitBeforeReadingIt() {
        try (TestPeer dealer = client(ZmtpSocketType.DEALER, CLIENT, SERVER.publicKey());
             TestPeer router = TestPeer.of(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                     .mechanism(CurveMechanism.server(SERVER)).maxMessageSize(1000))) {
            TestPeer.pump(dealer, router);
            ByteBuf header = Unpooled.buffer().writeByte(0x02).writeLong(Long.MAX_VALUE);
            byte[] bytes = new byte[header.readableBytes()];
            header.readBytes(bytes);
            router.feed(bytes);
            assertThat(router.protocolError().cause()).isInstanceOf(ZmtpMessageTooLargeException.class);
        }
    }

    /** Pumps, returning what {@code from} wrote to {@code to}. */
    private static byte[] pumpRecordingFrom(TestPeer from, TestPeer to) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            byte[] a = from.outbound();
            byte[] b = to.outbound();
            if (a.length == 0 && b.length == 0) {
                return all.toByteArray();
            }
            all.writeBytes(a);
            to.feed(a);
            from.feed(b);
        }
        throw new AssertionError("peers never went quiet");
    }

    /** Pumps, returning everything either side wrote. */
    private static byte[] pumpRecording(TestPeer a, TestPeer b) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            byte[] fromA = a.outbound();
            byte[] fromB = b.outbound();
            if (fromA.length == 0 && fromB.length == 0) {
                return all.toByteArray();
            }
            all.writeBytes(fromA);
            all.writeBytes(fromB);
            b.feed(fromA);
            a.feed(fromB);
        }
        throw new AssertionError("peers never went quiet");
    }
}
