package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pipe's counts, what {@code ZmtpPeer} and the socket's totals read: messages sent, received and dropped, and the
 * bytes of the messages queued for the peer. Read by anyone at any time (a snapshot while messages flow). The
 * outgoing bytes are two monotonic counts, each written by one side only with an ordered store and no
 * read-modify-write (bytes queued: the queue's producer, under the socket lock; bytes taken: whoever holds the queue's
 * consumer side), read as a difference; the message counts are added to from several threads, once per batch.
 */
final class PipeCounters {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong outBytesQueued = new AtomicLong();
    private final AtomicLong outBytesTaken = new AtomicLong();
    private final AtomicBoolean retired = new AtomicBoolean();

    long sent() {
        return sent.get();
    }

    long received() {
        return received.get();
    }

    long dropped() {
        return dropped.get();
    }

    void addSent(int n) {
        sent.addAndGet(n);
    }

    void addReceived(int n) {
        if (n > 0) {
            received.addAndGet(n);
        }
    }

    void addDropped(int n) {
        dropped.addAndGet(n);
    }

    /** The queue's producer: {@code queued} was just offered. */
    void queuedOut(Object queued) {
        outBytesQueued.lazySet(outBytesQueued.get() + bytes(queued));
    }

    /** The queue's claimed consumer: {@code taken} was just polled. */
    void tookOut(Object taken) {
        outBytesTaken.lazySet(outBytesTaken.get() + bytes(taken));
    }

    /** Bytes of the messages queued for the peer (frames' content). */
    long outBytes() {
        long taken = outBytesTaken.get();
        return Math.max(0, outBytesQueued.get() - taken);
    }

    /** True once, the first time: the caller then hands the counts over to the socket's totals. */
    boolean retire() {
        return retired.compareAndSet(false, true);
    }

    private static long bytes(Object queued) {
        if (queued instanceof ZmtpMessage) {
            return ((ZmtpMessage) queued).contentLength();
        }
        if (queued instanceof TrackedMessage) {
            return ((TrackedMessage) queued).message().contentLength();
        }
        return 0;
    }
}
