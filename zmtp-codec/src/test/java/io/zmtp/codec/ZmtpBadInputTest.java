package io.zmtp.codec;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import io.netty.buffer.Unpooled;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.command;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.frame;
import static io.zmtp.codec.Wire.greeting;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.libzmqGreeting;
import static io.zmtp.codec.Wire.rawGreeting;
import static io.zmtp.codec.Wire.ready;
import static io.zmtp.codec.Wire.repeat;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.CONNECTION_CLOSED;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.MECHANISM_MISMATCH;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.PEER_ERROR;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.PROTOCOL_ERROR;
import static io.zmtp.codec.ZmtpHandshakeFailureReason.TIMEOUT;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile or broken peers: the connection closes with a {@link ZmtpHandshakeFailureEvent} (during the handshake) or a
 * {@link ZmtpProtocolErrorEvent} (after it); no exception reaches the application ({@link TestPeer#close} checks) and
 * nothing leaks (LeakCheckExtension checks).
 */
class ZmtpBadInputTest {

    private static final byte[] DEALER_READY = ready("Socket-Type", "DEALER");
    /** What a DEALER without identity writes until its READY, included. */
    private static final byte[] OUR_GREETING_AND_READY = concat(libzmqGreeting(0),
            ready("Socket-Type", "DEALER", "Identity", ""));

    private static TestPeer dealer() {
        return new TestPeer(ZmtpConfig.builder(DEALER).build());
    }

    private static ZmtpHandshakeFailureEvent assertHandshakeFailed(TestPeer p, ZmtpHandshakeFailureReason reason) {
        ZmtpHandshakeFailureEvent f = p.failure();
        assertThat(f.reason()).as("failure %s", f).isEqualTo(reason);
        assertThat(p.channel.isOpen()).isFalse();
        assertThat(p.inbound).containsExactly(f);
        assertThat(p.handler.handshakeFuture().toCompletableFuture()).isCompletedExceptionally();
        return f;
    }

    /** Asserts the channel closed after the handshake with a protocol error, having delivered nothing else. */
    private static ZmtpProtocolErrorEvent assertProtocolError(TestPeer p, Class<? extends Throwable> cause) {
        ZmtpProtocolErrorEvent e = p.protocolError();
        assertThat(e.cause()).isInstanceOf(cause);
        assertThat(p.channel.isOpen()).isFalse();
        assertThat(p.inbound).containsExactly(e);
        return e;
    }

    /** The ERROR command a failed handshake wrote, parsed: its reason. */
    private static String errorReason(byte[] written, int offset) {
        byte[] error = Arrays.copyOfRange(written, offset, written.length);
        assertThat(error[0]).isEqualTo((byte) 0x04);
        assertThat(Arrays.copyOfRange(error, 2, 8)).isEqualTo(concat(new byte[] {5}, ascii("ERROR")));
        assertThat(error).hasSize(9 + (error[8] & 0xFF));
        return new String(error, 9, error[8] & 0xFF);
    }

    // ---- during the handshake ----

    @Test
    void shouldFailOnBytesThatAreNotZmtp() {
        try (TestPeer p = dealer()) {
            p.feed(ascii("GET / HTTP/1.1\r\n\r\n"));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
            assertThat(p.outbound()).isEqualTo(Wire.signature(1));
        }
    }

    @Test
    void shouldFailOnSignatureWithoutVersionBitThatIsNoIdentityFrame() {
        try (TestPeer p = dealer()) {
            p.feed(hex("ff 00 00 00 00 00 00 00 00 7e"));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnReadyBeforeGreeting() {
        try (TestPeer p = dealer()) {
            p.feed(DEALER_READY);
            assertHandshakeFailed(p, PROTOCOL_ERROR);
            assertThat(p.outbound()).isEqualTo(Wire.signature(1));
        }
    }

    @Test
    void shouldFailOnMechanismMismatchWithoutSendingError() {
        try (TestPeer p = dealer()) {
            p.feed(greeting(0, 1, "PLAIN", false));
            ZmtpHandshakeFailureEvent f = assertHandshakeFailed(p, MECHANISM_MISMATCH);
            assertThat(f.message()).contains("PLAIN");
            // Greeting only: like libzmq, no ERROR and no READY.
            assertThat(p.outbound()).isEqualTo(libzmqGreeting(0));
        }
    }

    @Test
    void shouldSendErrorThenCloseOnIncompatibleSocketType() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), ready("Socket-Type", "PUB"));
            ZmtpHandshakeFailureEvent f = assertHandshakeFailed(p, INCOMPATIBLE_SOCKET_TYPE);
            assertThat(f.message()).contains("PUB");
            byte[] written = p.outbound();
            assertThat(written).startsWith(OUR_GREETING_AND_READY);
            assertThat(errorReason(written, OUR_GREETING_AND_READY.length)).contains("PUB").contains("DEALER");
        }
    }

    @Test
    void shouldFailOnUnknownSocketType() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), ready("Socket-Type", "dealer"));
            assertThat(assertHandshakeFailed(p, INCOMPATIBLE_SOCKET_TYPE).message()).contains("dealer");
            assertThat(errorReason(p.outbound(), OUR_GREETING_AND_READY.length)).contains("dealer");
        }
    }

    @Test
    void shouldFailOnMissingSocketType() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), ready("Identity", "x"));
            assertThat(assertHandshakeFailed(p, INCOMPATIBLE_SOCKET_TYPE).message()).contains("missing");
        }
    }

    @Test
    void shouldFailOnReservedFlagBitsDuringHandshake() {
        try (TestPeer p = dealer()) {
            byte[] ready = DEALER_READY.clone();
            ready[0] = 0x0C;
            p.feed(rawGreeting(1), ready);
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnCommandWithMoreDuringHandshake() {
        try (TestPeer p = dealer()) {
            byte[] ready = DEALER_READY.clone();
            ready[0] = 0x05;
            p.feed(rawGreeting(1), ready);
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnMessageFrameBeforeReady() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), frame(0, ascii("early")));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnTruncatedCommandDuringHandshake() {
        try (TestPeer p = dealer()) {
            // Name length 5 in a 3-byte body.
            p.feed(rawGreeting(1), hex("04 03 05 52 45"));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnOversizedCommandDuringHandshakeBeforeItsBody() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), hex("06 00 00 01 00 00 00 00 00"));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnTruncatedMetadata() {
        try (TestPeer p = dealer()) {
            // Socket-Type value length 9, but only 6 bytes follow.
            byte[] body = concat(Wire.commandBody("READY", new byte[0]), new byte[] {11}, ascii("Socket-Type"),
                    hex("00 00 00 09"), ascii("DEALER"));
            p.feed(rawGreeting(1), frame(0x04, body));
            assertThat(assertHandshakeFailed(p, PROTOCOL_ERROR).message()).contains("malformed READY");
        }
    }

    @Test
    void shouldFailOnMetadataNameWithInvalidCharacter() {
        try (TestPeer p = dealer()) {
            byte[] body = concat(Wire.commandBody("READY", new byte[0]), new byte[] {11}, ascii("Socket Type"),
                    hex("00 00 00 06"), ascii("DEALER"));
            p.feed(rawGreeting(1), frame(0x04, body));
            assertHandshakeFailed(p, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldFailOnReadyWithIdentityOver255Bytes() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), ready("Socket-Type", "ROUTER", "Identity", "i".repeat(256)));
            assertThat(assertHandshakeFailed(p, PROTOCOL_ERROR).message()).contains("Identity");
        }
    }

    @Test
    void shouldAcceptReadyWithIdentityOf255Bytes() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), ready("Socket-Type", "ROUTER", "Identity", "i".repeat(255)));
            assertThat(p.success().peerMetadata().identity()).hasSize(255);
        }
    }

    @Test
    void shouldReportPeerErrorDuringHandshakeWithItsReason() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), Wire.error("no thanks"));
            ZmtpHandshakeFailureEvent f = assertHandshakeFailed(p, PEER_ERROR);
            assertThat(f.message()).endsWith("no thanks");
            // No ERROR in reply to an ERROR.
            assertThat(p.outbound()).isEqualTo(OUR_GREETING_AND_READY);
        }
    }

    @Test
    void shouldReportAZapStatusInPeerErrorAsAnAuthenticationFailure() {
        // libzmq refuses with the ZAP status code as the reason (NULL with a ZAP domain, PLAIN, CURVE).
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), Wire.error("400"));
            ZmtpHandshakeFailureEvent f = assertHandshakeFailed(p, ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(f.message()).endsWith("ERROR 400");
            assertThat(((ZmtpAuthenticationException) f.cause()).isByPeer()).isTrue();
            assertThat(p.outbound()).isEqualTo(OUR_GREETING_AND_READY);
        }
    }

    @Test
    void shouldFailWhenConnectionClosesMidHandshake() {
        try (TestPeer p = dealer()) {
            p.feed(rawGreeting(1), Arrays.copyOf(DEALER_READY, 10));
            assertThat(p.inbound).isEmpty();
            p.channel.close();
            assertHandshakeFailed(p, CONNECTION_CLOSED);
        }
    }

    @Test
    void shouldTimeOutHandshake() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).handshakeTimeoutMillis(500).build())) {
            p.feed(rawGreeting(1));
            p.advance(499);
            assertThat(p.channel.isOpen()).isTrue();
            assertThat(p.inbound).isEmpty();
            p.advance(1);
            assertHandshakeFailed(p, TIMEOUT);
        }
    }

    @Test
    void shouldNotTimeOutAfterHandshake() {
        try (TestPeer p = TestPeer.handshaken(ZmtpConfig.builder(DEALER).handshakeTimeoutMillis(500).build(),
                DEALER, 1)) {
            p.advance(10_000);
            assertThat(p.channel.isOpen()).isTrue();
            assertThat(p.inbound).isEmpty();
        }
    }

    // ---- after the handshake ----

    @Test
    void shouldCloseOnReservedFlagBits() {
        for (int flags : new int[] {0x08, 0x10, 0x80}) {
            try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
                p.feed(new byte[] {(byte) flags, 1, 0x61});
                assertProtocolError(p, ZmtpCodecException.class);
            }
        }
    }

    @Test
    void shouldCloseOnCommandWithMore() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("05 07 04 50 49 4e 47 00 00"));
            assertProtocolError(p, ZmtpCodecException.class);
        }
    }

    @Test
    void shouldCloseOnCommandInsideMultipartMessage() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("01 01 41"), command("PING", hex("00 00")), hex("00 01 42"));
            assertProtocolError(p, ZmtpCodecException.class);
        }
    }

    @Test
    void shouldCloseOnFrameHeaderClaiming2Pow40BytesBeforeItsBody() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("02 00 00 01 00 00 00 00 00"));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldCloseOnFrameSizeWithTopBitSet() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("02 80 00 00 00 00 00 00 00"));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldCloseWhenMultipartTotalExceedsMaxMessageSizeBeforeTheBodyArrives() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(100).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(frame(0x01, repeat('a', 60)));
            assertThat(p.channel.isOpen()).isTrue();
            // Second frame's header alone: 60 + 60 > 100, so we close without waiting for its body.
            p.feed(hex("00 3c"));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldAcceptMessageOfExactlyMaxMessageSizeCountingFrameOverhead() {
        // 60 body bytes + 64 for the held frame + 76 = 200.
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(200).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(frame(0x01, repeat('a', 60)), frame(0, repeat('b', 76)), frame(0, repeat('c', 200)));
            assertThat(p.inbound(ZmtpMessage.class)).hasSize(2);
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldCountEachHeldFrameOverheadTowardMaxMessageSize() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(200).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(frame(0x01, repeat('a', 60)), hex("00 4d"));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldCloseOnFrameSizeThatWouldWrapTheMessageTotal() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(frame(0x01, repeat('a', 100)));
            // 100 (+ overhead) + this size overflows a long: it must not pass for a small negative total.
            p.feed(concat(hex("03"), Wire.u64(Long.MAX_VALUE - 50)));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldCloseOnEndlessEmptyMoreFramesWithinMaxMessageSize() {
        int max = 64 * 1024;
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(max).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            int fed = 0;
            // Four times what the limit allows; it must stop well before.
            while (p.channel.isOpen() && fed < 4 * max / ZmtpConstants.FRAME_OVERHEAD) {
                p.feed(hex("01 00"));
                fed++;
            }
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
            // Held: max / 64 frames and one more that still fitted; the next one closes.
            assertThat(fed).isEqualTo(max / ZmtpConstants.FRAME_OVERHEAD + 2);
        }
    }

    @Test
    void shouldCloseOnEndlessOneByteMoreFramesAndReleaseThem() {
        int max = 16 * 1024;
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(max).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            int fed = 0;
            while (p.channel.isOpen() && fed < 4 * max / ZmtpConstants.FRAME_OVERHEAD) {
                p.feed(hex("01 01 61"));
                fed++;
            }
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
            assertThat(fed).isLessThanOrEqualTo(max / (ZmtpConstants.FRAME_OVERHEAD + 1) + 2);
        }
    }

    @Test
    void shouldCloseOnOversizedCommand() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).maxMessageSize(100).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(hex("04 ff"));
            assertProtocolError(p, ZmtpMessageTooLargeException.class);
        }
    }

    @Test
    void shouldCloseOnTruncatedCommand() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("04 02 05 52"));
            assertProtocolError(p, ZmtpCodecException.class);
        }
    }

    @Test
    void shouldCloseOnCommandNameWithInvalidCharacter() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("04 03 02 41 31"));
            assertProtocolError(p, ZmtpCodecException.class);
        }
    }

    @Test
    void shouldCloseOnPeerErrorAfterHandshakeWithItsReason() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(Wire.error("shutting down"));
            assertThat(assertProtocolError(p, ZmtpCodecException.class).cause().getMessage())
                    .contains("shutting down");
        }
    }

    @Test
    void shouldCloseOnMalformedPing() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(command("PING", hex("00")));
            assertProtocolError(p, ZmtpCodecException.class);
            assertThat(p.outbound()).isEmpty();
        }
    }

    @Test
    void shouldIgnoreBytesAfterProtocolError() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.channel.writeInbound(Unpooled.wrappedBuffer(
                    concat(hex("08 00"), frame(0, ascii("late")))));
            assertProtocolError(p, ZmtpCodecException.class);
        }
    }
}
