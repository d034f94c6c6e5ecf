package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

final class Payloads {
    private Payloads() {
    }

    /** A zeroed, never-freed buffer every message may share through duplicates (not a read-only wrapper, whose
     * copies go through a new NIO buffer each time). */
    static ByteBuf shared(int size) {
        return Unpooled.unreleasableBuffer(Unpooled.directBuffer(Math.max(size, 1)).writeZero(size));
    }
}
