package io.zmtp.socket.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A socket's peers as the application sees and manages them: the list ({@code ZmtpSocket.peers()}), the counters and
 * gauges summed over them, what clears their queues or disconnects one ({@link Peer}). A peer is a pipe that may
 * have a connection now: a connecting one, or an accepted one whose handshake completed, attached or not yet.
 *
 * <h2>Threads</h2>
 * Any application thread. Each call takes the socket's lock and applies the pending pipe events first, so it sees
 * the pipes the next send or receive would. The totals of pipes gone are atomics, added to by whichever thread
 * retires a pipe or counts on a retired one ({@link PipeCounters} says how each message is added once). The sent and
 * received totals never go down: a reader sums the totals and what live pipes (or, once closed, the pipes the close
 * is lingering over) have not yet handed over, and reports at least what it reported before.
 */
final class SocketPeers {
    private final SocketBase socket;
    private final AtomicLong retiredSent = new AtomicLong();
    private final AtomicLong retiredReceived = new AtomicLong();
    private final AtomicLong reportedSent = new AtomicLong();
    private final AtomicLong reportedReceived = new AtomicLong();
    /** The pipes a closed socket is lingering over (their counts still flow until they are retired). */
    private volatile List<Pipe> closing = List.of();

    SocketPeers(SocketBase socket) {
        this.socket = socket;
    }

    /** A snapshot of the peers. */
    List<Peer> list() {
        socket.lock.lock();
        try {
            if (socket.isClosed()) {
                return List.of();
            }
            socket.attached.processEvents();
            List<Peer> peers = new ArrayList<>();
            for (Pipe p : livePipes()) {
                peers.add(p.peer());
            }
            return peers;
        } finally {
            socket.lock.unlock();
        }
    }

    /** Sums {@code f} over the peers (0 once the socket is closed). */
    long sum(ToLongFunction<Pipe> f) {
        return sum(f, false);
    }

    /**
     * Sums {@code f} over the peers; once the socket is closed, over the pipes its close lingers over if
     * {@code lingering}, else 0.
     */
    private long sum(ToLongFunction<Pipe> f, boolean lingering) {
        socket.lock.lock();
        try {
            List<Pipe> pipes;
            if (socket.isClosed()) {
                pipes = lingering ? closing : List.of();
            } else {
                socket.attached.processEvents();
                pipes = livePipes();
            }
            long n = 0;
            for (Pipe p : pipes) {
                n += f.applyAsLong(p);
            }
            return n;
        } finally {
            socket.lock.unlock();
        }
    }

    /** Whether any peer satisfies {@code test}. */
    boolean any(Predicate<Pipe> test) {
        return sum(p -> test.test(p) ? 1 : 0) > 0;
    }

    /** Close took these pipes to linger over (lock held): the totals count them until they are retired. */
    void closing(List<Pipe> pipes) {
        closing = pipes;
    }

    void addRetiredSent(long n) {
        if (n > 0) {
            retiredSent.addAndGet(n);
        }
    }

    void addRetiredReceived(long n) {
        if (n > 0) {
            retiredReceived.addAndGet(n);
        }
    }

    /** Messages written to all connections, ever (peers gone included); never less than it returned before. */
    long sentCount() {
        long total = retiredSent.get();
        total += sum(p -> p.counters().sentNotForwarded(), true);
        return reportedSent.accumulateAndGet(total, Math::max);
    }

    /** Messages received from all connections, ever (peers gone included); never less than it returned before. */
    long receivedCount() {
        long total = retiredReceived.get();
        total += sum(p -> p.counters().receivedNotForwarded(), true);
        return reportedReceived.accumulateAndGet(total, Math::max);
    }

    /** Releases what is queued for {@code pipe}; returns how many messages (counted as drops). */
    int clearOutgoing(Pipe pipe) {
        int n;
        socket.lock.lock();
        try {
            socket.checkOpen();
            n = discardOutput(pipe);
        } finally {
            socket.lock.unlock();
        }
        // Room freed: senders waiting for it try again.
        socket.signal.signal();
        return n;
    }

    /** Releases what is queued for every peer; returns how many messages. */
    int clearOutgoing() {
        int n = 0;
        socket.lock.lock();
        try {
            socket.checkOpen();
            socket.attached.processEvents();
            for (Pipe p : livePipes()) {
                n += discardOutput(p);
            }
        } finally {
            socket.lock.unlock();
        }
        socket.signal.signal();
        return n;
    }

    private static int discardOutput(Pipe p) {
        long before = p.droppedCount();
        p.discardOutputCounted();
        return (int) (p.droppedCount() - before);
    }

    /**
     * Disconnects one peer: an accepted one's connection is closed and its pipe dropped; a connecting one stops
     * being reconnected. What is queued for it is released and counted as dropped.
     */
    void disconnect(Pipe p) {
        socket.lock.lock();
        try {
            if (socket.isClosed() || p.isTerminated()) {
                return;
            }
            if (p.isConnecting()) {
                socket.endpoints.disconnect(p);
            }
            socket.attached.processEvents();
            socket.attached.disconnect(p);
            p.discardOutput();
            p.terminate();
        } finally {
            socket.lock.unlock();
        }
        socket.signal.signal();
    }

    /** Every pipe that is a peer now: connecting ones, and accepted ones whose handshake completed. Lock held. */
    private List<Pipe> livePipes() {
        Set<Pipe> all = socket.attached.withEndpoints(socket.endpoints);
        List<Pipe> live = new ArrayList<>(all.size());
        for (Pipe p : all) {
            if (!p.isTerminated() && (p.isConnecting() || p.hasHandshaken())) {
                live.add(p);
            }
        }
        return live;
    }
}
