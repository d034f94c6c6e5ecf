package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Reading and writing a buffer's longs through its array or memory address ({@link BufferMemory}) lands on the same
 * bytes as the buffer's own methods, through every layer a frame may come wrapped in; what has neither is left to
 * the buffer's methods; a range outside the buffer or a released buffer is refused before any access.
 */
class BufferMemoryTest {

    @Test
    void shouldReadAndWriteTheBytesTheBufferSeesThroughEveryLayer() {
        ByteBuf heap = Unpooled.buffer(64);
        ByteBuf direct = Unpooled.directBuffer(64);
        ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(64);
        ByteBuf unreleasable = Unpooled.unreleasableBuffer(direct);
        try {
            List<ByteBuf> views = List.of(heap, heap.slice(3, 40), heap.duplicate(), direct, direct.slice(7, 50),
                    unreleasable.duplicate(), unreleasable.duplicate().slice(1, 60), pooled, pooled.slice(9, 30),
                    Unpooled.compositeBuffer().addComponent(true, heap.retainedSlice(2, 50)));
            Random random = new Random(5);
            for (ByteBuf view : views) {
                // Direct memory is left to the buffer's methods where Netty runs without Unsafe (JDK 24 and later).
                boolean reachable = view.hasArray() || (PlatformDependent.hasUnsafe() && view.hasMemoryAddress());
                assertThat(BufferMemory.check(view, 0, 8)).as("%s", view).isEqualTo(reachable);
                if (!reachable) {
                    continue;
                }
                for (int index = 0; index + 8 <= view.capacity(); index++) {
                    assertThat(BufferMemory.check(view, index, 8)).as("%s", view).isTrue();
                    byte[] array = BufferMemory.array(view);
                    long at = BufferMemory.base(view, index);
                    long v = random.nextLong();
                    BufferMemory.setLongLE(array, at, v);
                    assertThat(view.getLongLE(index)).as("%s at %d", view, index).isEqualTo(v);
                    view.setLongLE(index, ~v);
                    assertThat(BufferMemory.getLongLE(array, at)).as("%s at %d", view, index).isEqualTo(~v);
                }
            }
            views.get(views.size() - 1).release();
        } finally {
            heap.release();
            direct.release();
            pooled.release();
        }
    }

    @Test
    void shouldLeaveABufferOfSeveralRegionsToItsMethods() {
        ByteBuf composite = Unpooled.compositeBuffer()
                .addComponent(true, Unpooled.buffer(8).writeZero(8))
                .addComponent(true, Unpooled.directBuffer(8).writeZero(8));
        try {
            assertThat(BufferMemory.check(composite, 0, 16)).isFalse();
        } finally {
            composite.release();
        }
    }

    @Test
    void shouldRefuseARangeOutsideTheBufferOrAReleasedBuffer() {
        ByteBuf buf = Unpooled.buffer(32);
        ByteBuf slice = buf.slice(8, 16);
        assertThatThrownBy(() -> BufferMemory.check(slice, 9, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> BufferMemory.check(slice, -1, 8)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> BufferMemory.check(slice, 0, Integer.MAX_VALUE))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(BufferMemory.check(slice, 8, 8)).isTrue();
        buf.release();
        assertThatThrownBy(() -> BufferMemory.check(slice, 0, 8)).isInstanceOf(IllegalReferenceCountException.class);
        ByteBuf heap = Unpooled.buffer(16);
        heap.release();
        assertThatThrownBy(() -> BufferMemory.check(heap, 0, 8)).isInstanceOf(IllegalReferenceCountException.class);
    }
}
