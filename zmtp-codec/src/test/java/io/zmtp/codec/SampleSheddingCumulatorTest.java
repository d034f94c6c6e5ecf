package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class SampleSheddingCumulatorTest {
    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    /** A root buffer, not a wrapper: what Netty's allocators return for the buffers the leak detector doesn't track. */
    private static ByteBuf plain(String s) {
        // Unpooled, with leak detection off: unwrap() is null whatever the test's leak level.
        ByteBuf b = new UnpooledByteBufAllocator(true, true).buffer(256);
        b.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        return b;
    }

    /** A wrapper with left-over bytes, as a tracked (sampled) read buffer is: unwrap() is not null. */
    private static ByteBuf wrapper(String consumed, String left) {
        ByteBuf root = plain(consumed + left);
        ByteBuf slice = root.retainedSlice();
        root.release();
        slice.skipBytes(consumed.length());
        return slice;
    }

    private static String text(ByteBuf b) {
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void shouldMoveTheLeftOverOfAWrapperAndTheNewReadIntoAFreshBuffer() {
        ByteBuf cumulation = wrapper("frame1", "fr");
        ByteBuf in = plain("ame2 frame3");
        ByteBuf result = SampleSheddingCumulator.INSTANCE.cumulate(ALLOC, cumulation, in);
        try {
            assertThat(text(result)).isEqualTo("frame2 frame3");
            assertThat(result).isNotSameAs(cumulation);
            assertThat(cumulation.refCnt()).isZero();
            assertThat(in.refCnt()).isZero();
        } finally {
            result.release();
        }
    }

    @Test
    void shouldAppendToAPlainCumulationInPlaceAsTheMergeCumulatorDoes() {
        ByteBuf cumulation = plain("frame1fr");
        cumulation.skipBytes(6);
        ByteBuf in = plain("ame2");
        ByteBuf result = SampleSheddingCumulator.INSTANCE.cumulate(ALLOC, cumulation, in);
        try {
            assertThat(result).isSameAs(cumulation);
            assertThat(text(result)).isEqualTo("frame2");
            assertThat(in.refCnt()).isZero();
        } finally {
            result.release();
        }
    }

    @Test
    void shouldLeaveALargeLeftOverToTheMergeCumulatorSoThatItIsNotCopiedOverAndOver() {
        // More left over than the read brings: a large message being assembled. The merge cumulator copies only the read.
        ByteBuf cumulation = wrapper("", "a long partial frame");
        ByteBuf in = plain("more");
        ByteBuf result = SampleSheddingCumulator.INSTANCE.cumulate(ALLOC, cumulation, in);
        try {
            assertThat(text(result)).isEqualTo("a long partial framemore");
            assertThat(in.refCnt()).isZero();
        } finally {
            result.release();
        }
    }

    @Test
    void shouldTakeTheReadItselfWhenNothingIsLeftOver() {
        ByteBuf in = plain("frame1");
        ByteBuf result = SampleSheddingCumulator.INSTANCE.cumulate(ALLOC, Unpooled.EMPTY_BUFFER, in);
        try {
            assertThat(result).isSameAs(in);
            assertThat(text(result)).isEqualTo("frame1");
        } finally {
            result.release();
        }
    }
}
