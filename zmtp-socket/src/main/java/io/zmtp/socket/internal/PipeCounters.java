package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A pipe's counts, what {@code ZmtpPeer} and the socket's totals read: messages sent, received and dropped, and the
 * bytes of the messages queued for the peer. Read by anyone at any time (a snapshot while messages flow). The
 * outgoing bytes are two monotonic counts, each written by one side only with an ordered store and no
 * read-modify-write (bytes queued: the queue's producer, under the socket lock; bytes taken: whoever holds the queue's
 * consumer side), read as a difference; the message counts are added to from several threads, once per batch.
 *
 * <h2>Handing the counts over to the socket's totals</h2>
 * A socket's sent and received totals never go down (Micrometer counters, and {@code ZmtpSocket.sentCount()} as
 * documented), though pipes come and go and a message may still be counted on a pipe after it was terminated (an
 * inproc hand-over, a drain finishing). So each count has a second one, {@code forwarded*}: how much of it is in the
 * socket's totals. {@link #forwardTo} moves the difference with a CAS on {@code forwarded*} first and an add to the
 * total second, so every increment is added to the totals exactly once whoever forwards it. Once retired, every add
 * forwards itself: the adder adds, then reads {@code totals}; {@link #retire} sets {@code totals}, then forwards
 * (volatile both), so an add is either seen by the retiring forward or forwards itself. A reader of the totals reads
 * the total first and each pipe's {@code count - forwarded} second: a forward in between can make it count less,
 * never twice, and {@link SocketPeers} never reports less than it reported before.
 */
final class PipeCounters {
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong outBytesQueued = new AtomicLong();
    private final AtomicLong outBytesTaken = new AtomicLong();
    private final AtomicLong forwardedSent = new AtomicLong();
    private final AtomicLong forwardedReceived = new AtomicLong();
    /** The socket's totals, once the pipe is retired: later adds go there too. */
    private volatile SocketPeers totals;

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
        SocketPeers t = totals;
        if (t != null) {
            forwardTo(t);
        }
    }

    void addReceived(int n) {
        if (n > 0) {
            received.addAndGet(n);
            SocketPeers t = totals;
            if (t != null) {
                forwardTo(t);
            }
        }
    }

    /** Messages sent not yet in the socket's totals (read the totals first: see the class comment). */
    long sentNotForwarded() {
        return Math.max(0, sent.get() - forwardedSent.get());
    }

    /** Messages received not yet in the socket's totals. */
    long receivedNotForwarded() {
        return Math.max(0, received.get() - forwardedReceived.get());
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

    /** The pipe is gone: its counts, and whatever it counts from now on, join {@code peers}' totals. */
    void retire(SocketPeers peers) {
        totals = peers;
        forwardTo(peers);
    }

    private void forwardTo(SocketPeers peers) {
        peers.addRetiredSent(forward(sent, forwardedSent));
        peers.addRetiredReceived(forward(received, forwardedReceived));
    }

    /** Claims what {@code count} has beyond {@code forwarded}; returns it (0 if another thread claimed it). */
    private static long forward(AtomicLong count, AtomicLong forwarded) {
        for (;;) {
            long f = forwarded.get();
            long c = count.get();
            if (c <= f) {
                return 0;
            }
            if (forwarded.compareAndSet(f, c)) {
                return c - f;
            }
        }
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
