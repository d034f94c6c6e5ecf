package io.zmtp.tools;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;

/** The payload every tool sends. */
public final class Payload {
    /** The payload lives as long as the process, so the leak detector must not count it as garbage-collected. */
    private static final ByteBufAllocator UNTRACKED = new UnpooledByteBufAllocator(true, true);

    private Payload() {
    }

    /**
     * A zeroed buffer of {@code size} bytes that any number of messages may share through {@link ByteBuf#duplicate()}
     * and that is never freed, so senders pay no allocation per message. Direct, so large frames go to the socket
     * without a copy; not a read-only wrapper, whose copies go through a new NIO buffer each time.
     */
    public static ByteBuf shared(int size) {
        return Unpooled.unreleasableBuffer(UNTRACKED.directBuffer(Math.max(size, 1)).writeZero(size));
    }
}
