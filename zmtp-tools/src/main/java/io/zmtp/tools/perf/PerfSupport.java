package io.zmtp.tools.perf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.tools.ProgressPrinter;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/** Pieces the four perf tools share. */
final class PerfSupport {
    private PerfSupport() {
    }

    /** A zeroed payload of {@code size} bytes that any number of messages may share through duplicates
     * (never freed). Not read-only: a read-only wrapper's copies go through a new NIO buffer each time. */
    static ByteBuf payload(int size) {
        return Unpooled.unreleasableBuffer(Unpooled.directBuffer(Math.max(size, 1)).writeZero(size));
    }

    /** libzmq's check: the tools fail on a message of another size. */
    static void checkSize(ZmtpMessage message, int expected) {
        long size = message.contentLength();
        if (size != expected || message.size() != 1) {
            message.release();
            throw new PerfException("message of incorrect size received: " + size + " B in " + message.size()
                    + " frame(s) (expected: " + expected + " B in 1 frame)");
        }
    }

    static void checkArguments(int size, long count) {
        if (size < 0) {
            throw new PerfException("message size: " + size + " (expected: >= 0)");
        }
        if (count < 1) {
            throw new PerfException("count: " + count + " (expected: >= 1)");
        }
    }

    /** A counter the owner thread bumps with a plain ordered store, and a progress line on stderr each second. */
    static final class Progress implements AutoCloseable {
        private final AtomicLong count = new AtomicLong();
        private final Thread thread;
        private long local;

        Progress(LongFunction<String> suffix) {
            thread = ProgressPrinter.startBackground(System.err, count::get, suffix);
        }

        Progress() {
            this(rate -> "");
        }

        void increment() {
            count.lazySet(++local);
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    /** A failure the tools report as one line on stderr and exit status 1. */
    static final class PerfException extends RuntimeException {
        PerfException(String message) {
            super(message);
        }
    }
}
