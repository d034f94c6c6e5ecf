package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageBatch;

import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a pipe has queued for its peer, and how it gets there: bounded by SNDHWM ({@link #offer}; DROP_OLDEST,
 * {@link #offerReplacingOldest}), written to the connection by a drain on the channel's event loop, or, over inproc,
 * read by the peer's pipe itself through {@code link} ({@link InprocLink}, which states that path's invariants).
 *
 * <h2>Threads</h2>
 * The queue ({@link SpscChunkedQueue}) is produced by whoever holds the owning socket's lock ({@link #offer},
 * {@link #writeToConnection}). Its consumer is the drain task on the channel's event loop, a thread discarding output
 * or handing an ended inproc link's messages over ({@link #service}), the inproc reader, or the producer itself
 * evicting the oldest message (DROP_OLDEST), each claiming the consumer side for a whole run. The drain is scheduled
 * at most once at a time ({@code drainScheduled}), which the drain clears before it looks at the queue and a producer
 * reads after its message is published, so a message is never left without a drain to come. A thread that finds the
 * consumer side held leaves a request instead ({@code drainMissed}, {@code discardRequested}, {@code endedLinks}),
 * written before it tries to claim and read by the holder after it lets go (both volatile, Dekker style), so one of
 * the two always runs it.
 *
 * <p>A drain wakes the socket's waiters only when someone found no room (or, for close's linger, output still
 * pending) since the last wake-up: {@link #hasRoom} and {@link #hasPending} set {@code roomWanted}, fence, and look
 * again; a drain publishes what it took, fences, and reads the flag (Dekker, as {@link InprocLink} does for its
 * writer). Waking on every drain woke a thread blocked in {@code receive} once more per message it sent, which a
 * request/reply round trip paid as an extra futex wake-up and, often, a hop between cores.
 *
 * <p>Memory per peer is bounded by SNDHWM messages plus the channel's high water mark in bytes: the drain moves
 * messages to the channel only while the channel is writable.
 */
final class OutboundQueue {
    /** How many drained messages are given back to SNDHWM at once. */
    private static final int DRAIN_COUNT_BATCH = 32;
    /** Messages a drain hands the channel in one write (one pipeline crossing instead of one each). */
    private static final int WRITE_BATCH = 64;

    private final Pipe pipe;
    /** The socket whose tracked sends this queue wraps; null when the pipe's listener is not a socket (tests). */
    private final SocketBase socket;
    private final PipeCounters counters;
    private final int sndHwm;
    /** Produced under the socket lock; consumed by the drain on the channel's loop, or by whoever discards. */
    private final SpscChunkedQueue<Object> queue = new SpscChunkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Set by a user thread that found no room or output pending; a drain that takes something clears it and wakes. */
    private volatile boolean roomWanted;
    /** Set by {@link #discard} when the drain held the queue: the drain discards on its way out. */
    private volatile boolean discardRequested;
    /** Discards asked for ({@link #discardCounted}), counted before {@code discardRequested} is set. */
    private final AtomicLong discardsAsked = new AtomicLong();
    /** The highest of {@code discardsAsked} that a finished discard covered, its drops counted. */
    private final AtomicLong discardsDone = new AtomicLong();
    /** Set by a drain that found the queue held by another thread: whoever lets go schedules a drain. */
    private volatile boolean drainMissed;
    private final Runnable drainTask = this::runScheduledDrain;
    /** The inproc link this queue feeds: the current connection's, or the last one's; null over tcp. */
    private volatile InprocLink link;
    /** Links that ended with messages still to hand to their readers (by whoever holds the queue). */
    private final ConcurrentLinkedQueue<InprocLink> endedLinks = new ConcurrentLinkedQueue<>();

    OutboundQueue(Pipe pipe, PipeListener listener, PipeCounters counters, int sndHwm) {
        this.pipe = pipe;
        this.socket = listener instanceof SocketBase ? (SocketBase) listener : null;
        this.counters = counters;
        this.sndHwm = sndHwm;
    }

    /** The queue itself, which an inproc link's reader polls. */
    SpscChunkedQueue<Object> queue() {
        return queue;
    }

    InprocLink link() {
        return link;
    }

    /** Set before the pipe turns active: a sender that sees it active queues for the peer, never for the channel. */
    void link(InprocLink link) {
        this.link = link;
    }

    int size() {
        return (int) Math.min(Integer.MAX_VALUE, queue.size());
    }

    boolean isHwmReached() {
        return sndHwm > 0 && queue.size() >= sndHwm;
    }

    /** Whether {@link #offer} would accept a message now; if not, asks the next drain for a wake-up. User side. */
    boolean hasRoom() {
        if (pipe.isTerminated()) {
            return false;
        }
        InprocLink l = link;
        if (l != null) {
            return l.writerHasRoom(sndHwm);
        }
        if (queue.producerBelow(sndHwm)) {
            return true;
        }
        roomWanted = true;
        VarHandle.fullFence();
        return queue.producerBelow(sndHwm);
    }

    /** Messages the queue may hold now: SNDHWM, or SNDHWM + RCVHWM over a live inproc link (0: no limit). */
    private int capacity() {
        InprocLink l = link;
        return l != null && l.isLive() ? l.limit : sndHwm;
    }

    /**
     * Whether output is queued that a peer may still take (for close's linger); if so, asks the drain (or an inproc
     * pipe's reader) for a wake-up when it takes some.
     */
    boolean hasPending() {
        InprocLink l = link;
        if (l != null) {
            return l.writerHasPending();
        }
        if (queue.isEmpty()) {
            return false;
        }
        roomWanted = true;
        VarHandle.fullFence();
        return !queue.isEmpty();
    }

    /**
     * Queues a message (or command) for the peer. Returns false, keeping the caller's ownership, when the pipe is
     * at SNDHWM or terminated; otherwise the pipe owns it.
     */
    boolean offer(Object msg) {
        if (!hasRoom()) {
            return false;
        }
        enqueue(msg);
        return true;
    }

    /** Publishes {@code msg}, counted and tracked as asked, and schedules a drain for it. Producer side. */
    private void enqueue(Object msg) {
        msg = trackIfAsked(msg);
        // Counted before it is published: once queued, the drain may take it and the encoder consume it.
        counters.queuedOut(msg);
        queue.offer(msg);
        scheduleDrain();
    }

    /**
     * Queues {@code msg} (a subscription change) regardless of SNDHWM for the connection that is up now, and only
     * for it: if that connection is gone before the message is written, it is dropped, not replayed on the next
     * one, since a reconnection sends the whole subscription set first ({@link PipeListener#writeSubscriptions}).
     * Dropped at once when no connection is up. The pipe owns {@code msg}.
     *
     * <p>The caller updates the set that reconnections send <em>before</em> calling this, and
     * {@link Pipe#onHandshake} makes the pipe active before reading that set (both volatile), so a change is never
     * missed by a connection coming up at the same moment: either the change sees the pipe active, or the handshake
     * sees the changed set (or both, and the peer gets a harmless duplicate).
     */
    void writeToConnection(Object msg) {
        Channel ch = pipe.channel();
        if (!pipe.isActive() || ch == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        queue.offer(new ForConnection(ch, msg));
        scheduleDrain();
    }

    /**
     * Writes {@code msg} (a subscription) to the connection coming up, ahead of anything queued: from
     * {@link PipeListener#writeSubscriptions}, on the I/O thread. The caller flushes the channel.
     */
    void writeOnConnect(Object msg) {
        InprocLink l = link;
        if (l != null && !l.isOpen()) {
            l.stage(msg);
            return;
        }
        Channel ch = pipe.channel();
        ch.write(msg, ch.voidPromise());
    }

    /** An outbound object meant for one connection only. */
    static final class ForConnection {
        final Channel channel;
        final Object msg;

        ForConnection(Channel channel, Object msg) {
            this.channel = channel;
            this.msg = msg;
        }
    }

    private static void release(Object queued) {
        ReferenceCountUtil.release(queued instanceof ForConnection ? ((ForConnection) queued).msg : queued);
    }

    /**
     * {@code msg} as it is queued: wrapped for a promise if the socket is in a tracked send (under its lock, as the
     * caller is), as it is. One field read on every offer; only tracked sends allocate.
     */
    private Object trackIfAsked(Object msg) {
        if (socket != null && msg instanceof ZmtpMessage) {
            DeliveryTracker t = socket.tracker;
            if (t != null) {
                return t.wrap((ZmtpMessage) msg);
            }
        }
        return msg;
    }

    /**
     * Discards queued output (linger 0, or a peer that is gone), from any thread. If the drain holds the queue, it
     * discards what is left when it lets go.
     */
    void discard() {
        InprocLink l = link;
        if (l != null && l.isLive()) {
            // Over inproc, what a live link holds is its reader's already (handed over when the link ends).
            return;
        }
        discardRequested = true;
        service();
    }

    /**
     * Discards queued output as {@link #discard} does, and returns once it is done, whichever thread did it: a drain
     * holding the queue discards when it lets go, and a caller counting what was discarded (clearing a peer's queue)
     * would otherwise count nothing. Returns at once, having discarded nothing, over a live inproc link. The holders
     * it waits for never block while they hold the queue, and none of them takes the socket's lock.
     */
    void discardCounted() {
        InprocLink l = link;
        if (l != null && l.isLive()) {
            return;
        }
        long mine = discardsAsked.incrementAndGet();
        discardRequested = true;
        service();
        for (int spins = 0; discardsDone.get() < mine; spins++) {
            backOff(spins);
        }
    }

    /** A link of this queue ended: hands its reader what it is owed, now or when the queue is let go. */
    void requestTransfer(InprocLink ended) {
        endedLinks.add(ended);
        service();
    }

    /**
     * Runs what was asked of the queue's consumer side, from any thread, unless another thread holds it (which runs
     * it when it lets go): hand-overs of ended inproc links first, then a requested discard.
     */
    void service() {
        int discarded = 0;
        while ((discardRequested || !endedLinks.isEmpty()) && queue.tryClaim()) {
            boolean discard = discardRequested;
            // Read after the flag: covers every discard asked for before it was set.
            long asked = discardsAsked.get();
            discardRequested = false;
            boolean deferred = false;
            try {
                InprocLink ended;
                while ((ended = endedLinks.poll()) != null) {
                    ended.transfer();
                }
                if (discard) {
                    InprocLink l = link;
                    if (l != null && l.transferPending()) {
                        // Ended on another thread that has not yet queued its transfer (between the two halves of
                        // InprocLink.detach: a disconnect closing the channel races the I/O thread seeing it close).
                        // What the link holds is the reader's: the discard waits for that thread's transfer.
                        discardRequested = true;
                        deferred = true;
                    } else {
                        Object m;
                        while ((m = poll()) != null) {
                            release(m);
                            discarded++;
                        }
                    }
                }
            } finally {
                releaseConsumer();
            }
            InprocLink l = link;
            if (l != null) {
                l.afterServiced();
            }
            if (discard && !deferred) {
                // Counted before the discard is reported done: discardCounted's caller reads the drop count next.
                if (discarded > 0) {
                    pipe.countDrops(discarded);
                    discarded = 0;
                }
                // Two servicers may finish out of order: the mark only moves up.
                discardsDone.accumulateAndGet(asked, Math::max);
            }
            if (deferred && endedLinks.isEmpty()) {
                // The ending thread queues its transfer, then services (and discards) unless this thread holds the
                // queue; this thread looks at endedLinks after letting go: volatile both, so one of the two runs it.
                break;
            }
        }
        if (discarded > 0) {
            pipe.countDrops(discarded);
        }
    }

    private void scheduleDrain() {
        InprocLink l = link;
        if (l != null) {
            // Inproc: the peer reads the queue itself; it needs a signal only if it may be waiting.
            l.wakeReader();
            return;
        }
        Channel ch = pipe.channel();
        if (ch == null || !pipe.isActive()) {
            return;
        }
        // The queue's volatile store of the message came before this read, and the drain clears the flag before it
        // looks at the queue (both volatile), so either this sees the flag clear or the drain sees the message.
        // Read before the CAS: a failed CAS still takes the cache line from the I/O thread, once per message.
        if (!drainScheduled.get() && drainScheduled.compareAndSet(false, true)) {
            ch.eventLoop().execute(drainTask);
        }
    }

    /** The scheduled drain, allocated once: it drains whichever connection is current when it runs. */
    private void runScheduledDrain() {
        drainScheduled.set(false);
        Channel ch = pipe.channel();
        if (ch != null && ch.eventLoop().inEventLoop()) {
            drain(ch);
        }
    }

    /** Gives up the queue's consumer side, scheduling the drain another thread missed meanwhile. */
    private void releaseConsumer() {
        queue.unclaim();
        if (drainMissed) {
            drainMissed = false;
            scheduleDrain();
        }
    }

    /** Writes what is queued to {@code ch} while it is writable, if it is the pipe's live connection (its loop). */
    void drain(Channel ch) {
        if (pipe.channel() != ch || !pipe.isActive() || !ch.isActive() || link != null) {
            return;
        }
        if (!queue.tryClaim()) {
            // Another thread holds the queue: a discarder, an evicting sender, or a drain for the connection before
            // this one, on another loop, that stopped at its dead channel. Ask it for a drain when it lets go (flag,
            // then claim; its release, then flag: both volatile, so one of the two sees the other).
            drainMissed = true;
            if (!queue.tryClaim()) {
                return;
            }
        }
        drainMissed = false;
        int taken = 0;
        int written = 0;
        ZmtpMessageBatch batch = null;
        try {
            Object m;
            while (ch.isWritable() && (m = poll()) != null) {
                // The count senders check for room is published every few messages, not once per message (an
                // ordered store each) nor only at the end (a sender at SNDHWM would wait for the whole drain).
                if (++taken % DRAIN_COUNT_BATCH == 0) {
                    queue.publishConsumed();
                }
                if (m instanceof ZmtpMessage) {
                    if (batch == null) {
                        if (!queue.consumerHasNext()) {
                            // The only message: no batch to allocate.
                            ch.write(m, ch.voidPromise());
                            written++;
                            continue;
                        }
                        batch = new ZmtpMessageBatch(WRITE_BATCH);
                    }
                    batch.add((ZmtpMessage) m);
                    if (batch.isFull()) {
                        written += writeBatch(ch, batch);
                        batch = null;
                    }
                    continue;
                }
                if (batch != null) {
                    written += writeBatch(ch, batch);
                    batch = null;
                }
                if (m instanceof TrackedMessage) {
                    ((TrackedMessage) m).writeTo(ch);
                    written++;
                    continue;
                }
                if (m instanceof ForConnection) {
                    ForConnection f = (ForConnection) m;
                    if (f.channel != ch) {
                        // Meant for an earlier connection; this one started with the current subscription set.
                        ReferenceCountUtil.release(f.msg);
                        continue;
                    }
                    m = f.msg;
                }
                ch.write(m, ch.voidPromise());
                written++;
            }
            if (batch != null) {
                written += writeBatch(ch, batch);
            }
        } finally {
            releaseConsumer();
        }
        if (discardRequested) {
            discard();
        }
        if (written > 0) {
            counters.addSent(written);
            ch.flush();
        }
        if (taken > 0) {
            // The consumed position (published by unclaim) before the flag: Dekker with hasRoom and hasPending.
            VarHandle.fullFence();
            if (roomWanted) {
                roomWanted = false;
                pipe.signalActivity();
            }
        }
    }

    private static int writeBatch(Channel ch, ZmtpMessageBatch batch) {
        int n = batch.size();
        ch.write(batch, ch.voidPromise());
        return n;
    }

    /** The claimed consumer's poll, counting the bytes it takes. */
    private Object poll() {
        Object m = queue.poll();
        if (m != null) {
            counters.tookOut(m);
        }
        return m;
    }

    /**
     * Queues {@code msg} in place of the oldest queued message when the pipe is at SNDHWM (DROP_OLDEST). User side,
     * under the socket lock (the producer). The producer takes the consumer role for one poll, waiting for it if a
     * drain or a discard holds it: they never block while they hold it, and a drain that finds the channel full lets
     * go at once. Giving up instead would drop the newest message whenever a drain happened to be looking, which is
     * DROP_NEWEST. Only an application message is evicted, never a subscription or other command; if the head of the
     * queue is a command, the caller drops {@code msg} (false). Returns true if the pipe took {@code msg}.
     */
    boolean offerReplacingOldest(Object msg) {
        if (pipe.isTerminated()) {
            return false;
        }
        // What the queue may hold: SNDHWM, or over a live inproc link SNDHWM + RCVHWM. Compared with SNDHWM alone, a
        // send at the link's limit evicted one message, still found the queue full, and dropped the new one too.
        int capacity = capacity();
        if (!queue.producerBelow(capacity)) {
            for (int spins = 0; !queue.tryClaim(); spins++) {
                backOff(spins);
            }
            Object oldest = null;
            try {
                // Looked at again: a drain that held the queue may have made room meanwhile.
                Object head = queue.producerBelow(capacity) ? null : queue.peek();
                if (head instanceof ZmtpMessage || head instanceof TrackedMessage) {
                    oldest = poll();
                }
            } finally {
                releaseConsumer();
            }
            InprocLink l = link;
            if (l != null) {
                // An inproc reader that found the queue claimed by this eviction armed its wake-up and left; if the
                // head was a command (not evicted) and the new message is dropped, no enqueue will wake it, and
                // every later send gives up the same way: the reader would sleep with messages queued.
                l.afterServiced();
            }
            if (discardRequested) {
                discard();
            }
            if (oldest != null) {
                if (oldest instanceof TrackedMessage) {
                    ((TrackedMessage) oldest).discardReason("dropped for a newer message (DROP_OLDEST)");
                }
                release(oldest);
                pipe.countDrop();
            }
        }
        if (!queue.producerBelow(capacity)) {
            return false;
        }
        // Its drain also covers one that found the queue claimed by this sender while it evicted, and left.
        enqueue(msg);
        return true;
    }

    /** Waiting for a holder of the queue that never blocks while it holds it: spin a little, then yield. */
    private static void backOff(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
