package io.zmtp.codec;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * Coalesces flushes: call {@link #flush()} after each {@code channel.write(...)} from any thread, and the channel is
 * flushed once per run of its event loop instead of once per message, so many small messages leave in few
 * syscalls. Latency stays low: a flush is never deferred past the writes already queued.
 */
public final class ZmtpBatchFlusher {
    private static final AtomicIntegerFieldUpdater<ZmtpBatchFlusher> SCHEDULED =
            AtomicIntegerFieldUpdater.newUpdater(ZmtpBatchFlusher.class, "scheduled");

    private final Channel channel;
    private final EventLoop eventLoop;
    private final Runnable flushTask = this::doFlush;
    private volatile int scheduled;

    public ZmtpBatchFlusher(Channel channel) {
        this.channel = channel;
        this.eventLoop = channel.eventLoop();
    }

    /** Requests a flush; several requests before the event loop gets to it make one flush. */
    public void flush() {
        if (scheduled == 0 && SCHEDULED.compareAndSet(this, 0, 1)) {
            eventLoop.execute(flushTask);
        }
    }

    private void doFlush() {
        // Clear first: a write that lands after this point schedules its own flush.
        scheduled = 0;
        channel.flush();
    }
}
