package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer's bytes as the NIO buffer behind it, so a loop over a large box reads and writes little-endian longs with
 * one check per region instead of one per access and per layer of wrapping. Through {@link ByteBuf#getLongLE} each 8
 * bytes pass a bounds and reference-count check in every layer: a duplicate of an unreleasable buffer (what a sender
 * that shares one payload across messages hands us) is three layers, and a profile of a 64 KiB CURVE sender had a
 * fifth of its samples there.
 *
 * <p>Nothing is allocated: the region is the root buffer's own cached NIO buffer ({@link ByteBuf#internalNioBuffer}),
 * found by unwrapping derived buffers (duplicates, slices, unreleasable and other wrappers) as long as each layer's
 * bytes are its parent's at a known shift (same array, or a memory address). A buffer made of several regions (a
 * composite of more than one component), or whose layers cannot be mapped (direct memory with no address, when Netty
 * runs without {@code Unsafe}), has no region: the caller uses the {@link ByteBuf} methods.
 *
 * <p>The root's {@code internalNioBuffer} checks the bounds and that the buffer is not released; after that the
 * accesses check only against the NIO buffer's limit (the region's end).
 */
final class BufferMemory {
    /** Little-endian longs at any byte index of a heap or direct NIO buffer. */
    static final VarHandle LONG_LE = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private BufferMemory() {
    }

    /**
     * The {@code length} bytes of {@code buf} from {@code index} as an NIO buffer positioned at the first and limited
     * after the last (both absolute indices into it), or {@code null} if they are not one region of one NIO buffer.
     * The NIO buffer is the root buffer's cached one: valid until the next call on that root.
     *
     * @throws IndexOutOfBoundsException if the bytes are not all within {@code buf}'s capacity
     */
    static ByteBuffer region(ByteBuf buf, int index, int length) {
        if (index < 0 || length < 0 || length > buf.capacity() - index) {
            throw new IndexOutOfBoundsException(
                    "index " + index + ", length " + length + " (capacity " + buf.capacity() + ")");
        }
        ByteBuf root = buf;
        long at = index;
        for (ByteBuf parent = root.unwrap(); parent != null; parent = root.unwrap()) {
            if (root.hasArray() && parent.hasArray() && root.array() == parent.array()) {
                at += root.arrayOffset() - parent.arrayOffset();
            } else if (root.hasMemoryAddress() && parent.hasMemoryAddress()) {
                at += root.memoryAddress() - parent.memoryAddress();
            } else {
                return null;
            }
            root = parent;
        }
        if (root.nioBufferCount() != 1 || at < 0 || at > root.capacity() - length) {
            return null;
        }
        return root.internalNioBuffer((int) at, length);
    }
}
