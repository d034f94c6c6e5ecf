package io.zmtp.codec;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.frame;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.libzmqGreeting;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.Wire.rawGreeting;
import static io.zmtp.codec.Wire.ready;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/** What the handshake does to the pipeline and to writes made while it runs. */
class ZmtpHandshakePipelineTest {

    private static final byte[] OUR_GREETING_AND_READY = concat(libzmqGreeting(0),
            ready("Socket-Type", "DEALER", "Identity", ""));

    @Test
    void shouldDeliverWritesMadeBeforeHandshakeAfterItInOrder() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            ChannelFuture one = p.write(ZmtpMessage.of("one"));
            ChannelFuture two = p.channel.write(ZmtpMessage.of("two", "2"));
            ChannelFuture sub = p.write(ZmtpCommand.subscribe(Unpooled.copiedBuffer(ascii("t"))));
            p.feed(rawGreeting(1));
            // Held: only the greeting went out so far, and the writes are still pending.
            assertThat(p.outbound()).isEqualTo(concat(libzmqGreeting(0), ready("Socket-Type", "DEALER",
                    "Identity", "")));
            assertThat(one.isDone()).isFalse();
            assertThat(two.isDone()).isFalse();

            p.feed(ready("Socket-Type", "DEALER"));
            ChannelFuture three = p.write(ZmtpMessage.of("three"));

            assertThat(hex(p.outbound())).isEqualTo(hex(concat(
                    message(ascii("one")), message(ascii("two"), ascii("2")), Wire.command("SUBSCRIBE", ascii("t")),
                    message(ascii("three")))));
            assertThat(one.isSuccess()).isTrue();
            assertThat(two.isSuccess()).isTrue();
            assertThat(sub.isSuccess()).isTrue();
            assertThat(three.isSuccess()).isTrue();
        }
    }

    @Test
    void shouldInstallFrameHandlersAndRemoveItselfAfterHandshake() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            assertThat(p.channel.pipeline().get(ZmtpHandshakeHandler.class)).isSameAs(p.handler);
            p.feed(rawGreeting(1), ready("Socket-Type", "ROUTER"));

            List<String> names = p.channel.pipeline().names();
            assertThat(names).containsSubsequence(ZmtpHandshakeHandler.ENCODER_NAME, ZmtpHandshakeHandler.DECODER_NAME,
                    ZmtpHandshakeHandler.HEARTBEAT_NAME, "recorder");
            assertThat(names).doesNotContain("zmtp");
            assertThat(p.channel.pipeline().get(ZmtpHandshakeHandler.class)).isNull();
            assertThat(p.channel.pipeline().get(ZmtpHandshakeHandler.ENCODER_NAME))
                    .isInstanceOf(ZmtpFrameEncoder.class);
            assertThat(p.channel.pipeline().get(ZmtpHandshakeHandler.DECODER_NAME))
                    .isInstanceOf(ZmtpFrameDecoder.class);
            assertThat(p.channel.pipeline().get(ZmtpHandshakeHandler.HEARTBEAT_NAME))
                    .isInstanceOf(ZmtpHeartbeatHandler.class);
            assertThat(p.handler.handshakeFuture().toCompletableFuture().join()).isSameAs(p.success());
        }
    }

    @Test
    void shouldFireSuccessBeforeMessagesThatArriveInTheSameRead() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            p.feed(concat(rawGreeting(1), ready("Socket-Type", "DEALER"), message(ascii("a")),
                    Wire.command("SUBSCRIBE", ascii("x")), frame(1, ascii("b")), frame(0, ascii("c"))));
            assertThat(p.log()).containsExactly(TestPeer.describe(p.success()), "msg[61]", "cmd SUBSCRIBE 78",
                    "msg[62, 63]");
        }
    }

    @Test
    void shouldFailHeldWritesAndReleaseThemWhenHandshakeFails() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            ZmtpMessage held = ZmtpMessage.of("held");
            ChannelFuture f = p.write(held);
            p.feed(rawGreeting(1), ready("Socket-Type", "SUB"));

            assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE);
            assertThat(f.cause()).isInstanceOf(ZmtpHandshakeException.class);
            assertThat(held.refCnt()).isZero();
            assertThat(p.outbound()).startsWith(OUR_GREETING_AND_READY);
            assertThat(p.handler.handshakeFuture().toCompletableFuture()).isCompletedExceptionally();
        }
    }

    @Test
    void shouldFailAndReleaseWritesMadeAfterHandshakeFailed() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            p.feed(ascii("garbage!"));
            ZmtpMessage late = ZmtpMessage.of("late");
            assertThat(p.write(late).isSuccess()).isFalse();
            assertThat(late.refCnt()).isZero();
        }
    }

    @Test
    void shouldStartHandshakeWhenAddedToActiveChannelOnlyOnce() {
        try (TestPeer p = new TestPeer(ZmtpConfig.builder(DEALER).build())) {
            // EmbeddedChannel is active before the handler is added: greeting sent once, from handlerAdded.
            assertThat(p.outboundChunks()).containsExactly(Wire.signature(1));
            p.channel.pipeline().fireChannelActive();
            assertThat(p.outboundChunks()).isEmpty();
        }
    }
}
