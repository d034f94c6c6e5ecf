package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A pipe's inbound queue: messages travel from the connection to the application in batches, one per read from the
 * connection (or per {@value #BATCH} messages), so a read costs one queue operation and one counter update, however
 * many messages it carried.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>The batch being filled is the I/O thread's alone ({@link #add}, {@link #publish}); a published batch is
 *       read by one user thread at a time, under the socket's lock ({@link #next}, {@link #takeBatch}). Whole batches
 *       may also be added from any thread ({@link #addBatch}: an inproc peer's subscriptions, what an ended inproc
 *       link left).</li>
 *   <li>{@code count} is the messages in published batches, updated once per batch on each side (before the batch is
 *       queued, so it may run ahead of the queue for a moment, never behind).</li>
 *   <li>A batch the application has emptied goes back to the I/O thread through a ring of spare slots ({@code
 *       spares}, single producer: the user side; single consumer: the I/O thread). Each side owns its index; a slot
 *       is filled only when empty and emptied only when full, with a release store after and an acquire load
 *       before, so a batch is reused only once its reader is done with it. With room for the batches a full queue
 *       holds, a steady flow allocates none; a batch that finds the ring full is left to the collector.</li>
 *   <li>Bytes queued are counted per published batch, bytes taken per message (user side, single writer), both
 *       monotonic, read by anyone as a difference.</li>
 * </ul>
 */
final class InboundQueue {
    /** Messages per batch. */
    static final int BATCH = 64;

    private final ConcurrentLinkedQueue<InboundBatch> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger count = new AtomicInteger();
    /** Spare batches (a power of two): enough for a queue at the default RCVHWM of 1000 in full batches. */
    private static final int SPARES = 16;
    private final AtomicReferenceArray<InboundBatch> spares = new AtomicReferenceArray<>(SPARES);
    /** User side only: the next slot to give a spare back into. */
    private int spareIn;
    /** I/O thread only: the next slot to take a spare from. */
    private int spareOut;
    private final AtomicLong bytesQueued = new AtomicLong();
    private final AtomicLong bytesTaken = new AtomicLong();
    /** I/O thread only. */
    private InboundBatch filling;
    /** User side only; read without the lock for a depth estimate. */
    private volatile InboundBatch taking;

    // ---- I/O thread

    /** Adds {@code msg} to the batch being filled; returns true if that filled it (the caller then publishes). */
    boolean add(ZmtpMessage msg) {
        InboundBatch f = filling;
        if (f == null) {
            int slot = spareOut & (SPARES - 1);
            f = spares.get(slot);
            if (f != null) {
                spares.lazySet(slot, null);
                spareOut++;
            } else {
                f = new InboundBatch(BATCH, true);
            }
            filling = f;
        }
        f.add(msg);
        return f.isFull();
    }

    /** Messages queued, those of the batch being filled included (what RCVHWM is checked against). */
    int depthWithFilling() {
        InboundBatch f = filling;
        return count.get() + (f == null ? 0 : f.size());
    }

    /** Hands the batch being filled to the application; returns how many messages it held (0: there was none). */
    int publish() {
        InboundBatch f = filling;
        if (f == null) {
            return 0;
        }
        filling = null;
        int n = f.size();
        addBatch(f);
        return n;
    }

    // ---- any thread

    /** Queues a whole batch (not to be touched by the caller afterwards). */
    void addBatch(InboundBatch batch) {
        // Counted before it is queued: once queued, the reader may empty it and give it back for reuse, which
        // clears it.
        bytesQueued.addAndGet(batch.bytes());
        count.addAndGet(batch.size());
        queue.add(batch);
    }

    /** Messages in published batches not yet taken. */
    int count() {
        return count.get();
    }

    /** Messages queued and not yet taken by the application, the batch being taken from included (approximate). */
    int depth() {
        InboundBatch t = taking;
        return count.get() + (t == null ? 0 : t.remaining());
    }

    long bytes() {
        long taken = bytesTaken.get();
        return Math.max(0, bytesQueued.get() - taken);
    }

    /** Releases the published batches, not the one being taken from. */
    void releaseQueued() {
        InboundBatch b;
        while ((b = queue.poll()) != null) {
            count.addAndGet(-b.size());
            b.releaseRest();
        }
    }

    // ---- user side (under the socket's lock)

    /** Whether a message can be taken now. */
    boolean hasNext() {
        InboundBatch t = taking;
        return (t != null && t.hasNext()) || !queue.isEmpty();
    }

    /** The next message of the batch being taken from (ownership passes to the caller), or null. */
    ZmtpMessage next() {
        InboundBatch t = taking;
        if (t == null || !t.hasNext()) {
            return null;
        }
        ZmtpMessage m = t.next();
        bytesTaken.lazySet(bytesTaken.get() + t.lastLength());
        return m;
    }

    /**
     * Moves on to the next published batch; returns how many messages are still queued after it, or -1 if none was
     * queued. The batch taken from until now must be empty.
     */
    int takeBatch() {
        retireTaking();
        InboundBatch b = queue.poll();
        if (b == null) {
            return -1;
        }
        taking = b;
        return count.addAndGet(-b.size());
    }

    /** Moves on to {@code batch}, from elsewhere (an inproc peer's queue), which stays its owner's to reuse. */
    void take(InboundBatch batch) {
        retireTaking();
        bytesQueued.addAndGet(batch.bytes());
        taking = batch;
    }

    /** Releases everything: the batch being taken from and the published ones. */
    void releaseAll() {
        InboundBatch t = taking;
        taking = null;
        if (t != null) {
            t.releaseRest();
        }
        releaseQueued();
    }

    private void retireTaking() {
        InboundBatch t = taking;
        if (t == null) {
            return;
        }
        taking = null;
        int slot = spareIn & (SPARES - 1);
        if (t.recyclable && spares.get(slot) == null) {
            t.clear();
            spares.lazySet(slot, t);
            spareIn++;
        }
    }
}
