package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Batching in ZmtpFrameEncoder: messages written between flushes share a buffer; a failed one leaves the rest. */
class ZmtpFrameEncoderTest {

    /** Writes one large frame, then fails: the failure comes after part of the message is in the batch. */
    static final class FailingAfterLargeFrame implements ZmtpMessageWriter<String> {
        @Override
        public Class<String> messageType() {
            return String.class;
        }

        @Override
        public void writeMessage(String message, ZmtpFrameSink writer) {
            writer.writeFrame(Unpooled.wrappedBuffer(new byte[BatchingFrameSink.ZERO_COPY_THRESHOLD]), true);
            throw new IllegalStateException(message);
        }
    }

    /** Fails before anything is written: its estimate throws, so the writer never begins the message. */
    static final class FailingEstimate implements ZmtpMessageWriter<Integer> {
        @Override
        public Class<Integer> messageType() {
            return Integer.class;
        }

        @Override
        public int estimateSize(Integer message) {
            throw new IllegalStateException("estimate " + message);
        }

        @Override
        public void writeMessage(Integer message, ZmtpFrameSink writer) {
            throw new AssertionError("not reached");
        }
    }

    private final EmbeddedChannel channel =
            new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, new FailingAfterLargeFrame()));
    private final EmbeddedChannel estimating =
            new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, new FailingEstimate()));

    @AfterEach
    void finish() {
        assertThat(channel.finishAndReleaseAll()).isFalse();
        assertThat(estimating.finishAndReleaseAll()).isFalse();
    }

    /** Everything the channel wrote, concatenated, buffers released. */
    private static String wire(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) o;
            try {
                sb.append(ByteBufUtil.hexDump(b));
            } finally {
                b.release();
            }
        }
        return sb.toString();
    }

    private static ZmtpMessage released() {
        ZmtpMessage m = ZmtpMessage.of("gone");
        m.release();
        return m;
    }

    private static String hexOf(byte[] bytes) {
        return ByteBufUtil.hexDump(bytes);
    }

    @Test
    void shouldSendEarlierMessageWholeWhenAReleasedMessageFailsInTheSameBatch() {
        ChannelFuture a = channel.write(ZmtpMessage.of("a", "bc"));
        ChannelFuture b = channel.write(released());
        channel.flush();
        assertThat(b.cause()).isInstanceOf(IllegalReferenceCountException.class).hasMessageContaining("released");
        assertThat(wire(channel)).isEqualTo("010161" + "00026263");
        assertThat(a.isSuccess()).isTrue();
    }

    @Test
    void shouldSendEarlierMessageWholeWhenACustomEncoderFailsBeforeWriting() {
        ChannelFuture a = estimating.write(ZmtpMessage.of("a"));
        ChannelFuture b = estimating.write(7);
        ChannelFuture c = estimating.write(ZmtpMessage.of("c"));
        estimating.flush();
        assertThat(b.cause()).isInstanceOf(IllegalStateException.class).hasMessage("estimate 7");
        assertThat(wire(estimating)).isEqualTo("000161" + "000163");
        assertThat(a.isSuccess()).isTrue();
        assertThat(c.isSuccess()).isTrue();
    }

    @Test
    void shouldSendEarlierMessagesWithLargeFramesWholeAroundAFailedWrite() {
        byte[] large = new byte[BatchingFrameSink.ZERO_COPY_THRESHOLD];
        Arrays.fill(large, (byte) 'L');
        ChannelFuture a = channel.write(ZmtpMessage.wrap(Unpooled.copiedBuffer(new byte[] {'a'}),
                Unpooled.copiedBuffer(large)));
        ChannelFuture b = channel.write(released());
        ChannelFuture c = channel.write(ZmtpMessage.of("c"));
        ChannelFuture d = channel.write(released());
        ChannelFuture e = channel.write(ZmtpMessage.wrap(Unpooled.copiedBuffer(large)));
        channel.flush();
        String largeFrame = "02" + "0000000000002000" + hexOf(large);
        assertThat(wire(channel)).isEqualTo("010161" + largeFrame + "000163" + largeFrame);
        assertThat(a.isSuccess()).isTrue();
        assertThat(b.cause()).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(c.isSuccess()).isTrue();
        assertThat(d.cause()).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(e.isSuccess()).isTrue();
    }

    @Test
    void shouldWriteMessageWithoutFramesAsOneEmptyFrame() {
        ZmtpMessage emptied = ZmtpMessage.of("id");
        emptied.removeFirst().release();
        ChannelFuture a = channel.write(ZmtpMessage.of("a"));
        ChannelFuture created = channel.write(ZmtpMessage.create());
        ChannelFuture b = channel.write(emptied);
        channel.flush();
        assertThat(wire(channel)).isEqualTo("000161" + "0000" + "0000");
        assertThat(a.isSuccess()).isTrue();
        assertThat(created.isSuccess()).isTrue();
        assertThat(b.isSuccess()).isTrue();
    }

    @Test
    void shouldWriteMessagesBetweenFlushesAsOneBuffer() {
        ChannelFuture first = channel.write(ZmtpMessage.of("a"));
        ChannelFuture second = channel.write(ZmtpMessage.of("bc"));
        assertThat(channel.outboundMessages()).isEmpty();
        channel.flush();
        ByteBuf out = channel.readOutbound();
        try {
            assertThat(ByteBufUtil.hexDump(out)).isEqualTo("000161" + "00026263");
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
            assertThat(ByteBufUtil.hexDump(out)).isEqualTo("000161");
        } finally {
            out.release();
        }
        assertThat(kept.isSuccess()).isTrue();
    }

    @Test
    void shouldFrameABatchExactlyAsItsMessagesWrittenOneByOne() {
        EmbeddedChannel oneByOne = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        oneByOne.write(ZmtpMessage.of("a", "bc"));
        oneByOne.write(ZmtpMessage.of(""));
        oneByOne.writeAndFlush(ZmtpMessage.wrap(Unpooled.wrappedBuffer(new byte[300])));
        String expected = wire(oneByOne);

        EmbeddedChannel batched = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        ZmtpMessageBatch batch = new ZmtpMessageBatch(4);
        batch.add(ZmtpMessage.of("a", "bc"));
        batch.add(ZmtpMessage.of(""));
        batch.add(ZmtpMessage.wrap(Unpooled.wrappedBuffer(new byte[300])));
        ChannelFuture f = batched.writeAndFlush(batch);

        assertThat(f.isSuccess()).isTrue();
        assertThat(batch.refCnt()).as("the encoder released the batch").isZero();
        assertThat(wire(batched)).isEqualTo(expected);
        assertThat(oneByOne.finishAndReleaseAll()).isFalse();
        assertThat(batched.finishAndReleaseAll()).isFalse();
    }

    @Test
    void shouldDropOnlyTheReleasedMessageOfABatchAndFailItsPromise() {
        EmbeddedChannel expectedChannel = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        expectedChannel.write(ZmtpMessage.of("before"));
        expectedChannel.writeAndFlush(ZmtpMessage.of("after"));
        String expected = wire(expectedChannel);

        EmbeddedChannel batched = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        ZmtpMessageBatch batch = new ZmtpMessageBatch(3);
        batch.add(ZmtpMessage.of("before"));
        batch.add(released());
        batch.add(ZmtpMessage.of("after"));
        ChannelFuture f = batched.writeAndFlush(batch);

        assertThat(f.cause()).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(wire(batched)).isEqualTo(expected);
        assertThat(expectedChannel.finishAndReleaseAll()).isFalse();
        assertThat(batched.finishAndReleaseAll()).isFalse();
    }

    @Test
    void shouldReleaseTheMessagesOfABatchThatIsNeverWritten() {
        ZmtpMessage m = ZmtpMessage.of("queued");
        ZmtpMessageBatch batch = new ZmtpMessageBatch(2);
        assertThat(batch.add(m)).isTrue();
        assertThat(batch.add(ZmtpMessage.of("second"))).isTrue();
        ZmtpMessage third = ZmtpMessage.of("third");
        assertThat(batch.add(third)).as("full").isFalse();
        third.release();
        batch.release();
        assertThat(m.refCnt()).isZero();
    }
}
