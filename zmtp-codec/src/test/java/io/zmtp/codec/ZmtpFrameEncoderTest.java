package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Batching in ZmtpFrameEncoder: messages written between flushes share a buffer; a failed one leaves the rest. */
class ZmtpFrameEncoderTest {

    /** Writes one large frame, then fails: the failure comes after part of the message is in the batch. */
    static final class FailingAfterLargeFrame implements ZmtpMessageEncoder<String> {
        @Override
        public Class<String> messageType() {
            return String.class;
        }

        @Override
        public void encode(String message, ZmtpFrameWriter writer) {
            writer.writeFrame(Unpooled.wrappedBuffer(new byte[OutboundFrameWriter.ZERO_COPY_THRESHOLD]), true);
            throw new IllegalStateException(message);
        }
    }

    private final EmbeddedChannel channel =
            new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, new FailingAfterLargeFrame()));

    @AfterEach
    void finish() {
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void shouldWriteMessagesBetweenFlushesAsOneBuffer() {
        ChannelFuture first = channel.write(ZmtpMessage.of("a"));
        ChannelFuture second = channel.write(ZmtpMessage.of("bc"));
        assertThat(channel.outboundMessages()).isEmpty();
        channel.flush();
        ByteBuf out = channel.readOutbound();
        try {
            assertThat(io.netty.buffer.ByteBufUtil.hexDump(out)).isEqualTo("000161" + "00026263");
        } finally {
            out.release();
        }
        assertThat(channel.<Object>readOutbound()).isNull();
        assertThat(first.isSuccess()).isTrue();
        assertThat(second.isSuccess()).isTrue();
    }

    @Test
    void shouldKeepEarlierMessagesWhenAMessageFailsAfterALargeFrame() {
        ChannelFuture kept = channel.write(ZmtpMessage.of("a"));
        ChannelFuture failed = channel.write("boom");
        channel.flush();
        assertThat(failed.cause()).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        ByteBuf out = channel.readOutbound();
        try {
            assertThat(io.netty.buffer.ByteBufUtil.hexDump(out)).isEqualTo("000161");
        } finally {
            out.release();
        }
        assertThat(kept.isSuccess()).isTrue();
    }
}
