package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.internal.PlatformDependent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A buffer's bytes as its array or its memory address, so that a loop over a large box reads and writes
 * little-endian longs with the checks done once per box instead of once per access and per layer of wrapping.
 * Through {@link ByteBuf#getLongLE} each 8 bytes pass a bounds and a reference-count check in every layer, and a call
 * site that meets several buffer classes (a connection's frames are pooled buffers, slices, duplicates, wrapped
 * arrays) is not inlined: a profile of a 64 KiB CURVE sender whose frames were duplicates of one unreleasable buffer
 * had a fifth of its samples there.
 *
 * <p>{@link ByteBuf#hasArray} and {@link ByteBuf#hasMemoryAddress} see through duplicates, slices and wrappers, so
 * their bytes are found without unwrapping anything. A buffer with neither (a composite of several components) is
 * left to the {@link ByteBuf} methods, and so is direct memory when Netty runs without {@code Unsafe} (its default on
 * JDK 24 and later): memory addresses are read and written with Netty's {@link PlatformDependent}, which is what
 * Netty's own direct buffers do underneath, and only when it has {@code Unsafe}.
 *
 * <p>{@link #check} is the one check: every byte of the range within the buffer's capacity, and the buffer not
 * released. Event-loop confined use keeps it valid for the loop that follows.
 */
final class BufferMemory {
    /** Little-endian longs at any index of a {@code byte[]}. */
    static final VarHandle ARRAY_LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
    /**
     * Whether Netty reads and writes memory addresses itself. Not implied by a buffer having an address: on JDK 25
     * Netty 4.2 gives direct buffers addresses and still runs without {@code Unsafe}.
     */
    private static final boolean ADDRESSES = PlatformDependent.hasUnsafe();

    private BufferMemory() {
    }

    /**
     * Whether {@code buf}'s bytes can be reached as its array or address; if so, checks that {@code length} bytes
     * from {@code index} are within its capacity and that it is not released.
     *
     * @throws IndexOutOfBoundsException if they are not all within the capacity
     * @throws IllegalReferenceCountException if the buffer was released
     */
    static boolean check(ByteBuf buf, int index, int length) {
        if (!buf.hasArray() && !(ADDRESSES && buf.hasMemoryAddress())) {
            return false;
        }
        if (buf.refCnt() == 0) {
            throw new IllegalReferenceCountException(0);
        }
        if (index < 0 || length < 0 || length > buf.capacity() - index) {
            throw new IndexOutOfBoundsException(
                    "index " + index + ", length " + length + " (capacity " + buf.capacity() + ")");
        }
        return true;
    }

    /** {@code buf}'s array after {@link #check}, or {@code null} if its bytes are at a memory address. */
    static byte[] array(ByteBuf buf) {
        return buf.hasArray() ? buf.array() : null;
    }

    /** Where {@code index} is: in {@link #array}, or (for {@code null}) in memory. */
    static long base(ByteBuf buf, int index) {
        return buf.hasArray() ? buf.arrayOffset() + (long) index : buf.memoryAddress() + index;
    }

    /** The little-endian long at {@code at} in {@code array} or, if {@code null}, at address {@code at}. */
    static long getLongLE(byte[] array, long at) {
        if (array != null) {
            return (long) ARRAY_LONG_LE.get(array, (int) at);
        }
        long v = PlatformDependent.getLong(at);
        return BIG_ENDIAN ? Long.reverseBytes(v) : v;
    }

    /** Writes {@code v} little-endian at {@code at} in {@code array} or, if {@code null}, at address {@code at}. */
    static void setLongLE(byte[] array, long at, long v) {
        if (array != null) {
            ARRAY_LONG_LE.set(array, (int) at, v);
        } else {
            PlatformDependent.putLong(at, BIG_ENDIAN ? Long.reverseBytes(v) : v);
        }
    }
}
