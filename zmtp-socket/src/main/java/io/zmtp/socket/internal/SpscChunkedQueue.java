package io.zmtp.socket.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A FIFO between one producer and one consumer, stored in linked chunks of {@value #CHUNK_SIZE} slots, the shape of
 * libzmq's ypipe. It is unbounded (callers count against their high-water mark with {@link #producerSize()}), it
 * allocates nothing in steady state (the consumer hands each chunk it has emptied back to the producer), and each
 * side publishes its position with one ordered store, reading the other's only when its cached copy runs out. A
 * {@code ConcurrentLinkedQueue} costs a node, a compare-and-set and a volatile item per element instead; JCTools'
 * unbounded SPSC queues allocate a chunk for every chunk's worth of elements and keep no counts to check a
 * high-water mark against.
 *
 * <h2>Threads</h2>
 * <ul>
 *   <li>One producer at a time: callers serialize producers (the socket lock), which also orders the producer
 *       fields from one to the next.</li>
 *   <li>One consumer at a time: a thread consumes only between {@link #tryClaim()} and {@link #unclaim()}, so an
 *       I/O thread draining and a user thread discarding never consume at once, and each sees the last one's
 *       position. The claim is one compare-and-set per run of polls, not per element.</li>
 *   <li>{@code produced} is written with a volatile store after the element and, at a chunk's end, the link to the
 *       next chunk: a consumer that reads it sees both. A volatile store (not only an ordered one) so that a
 *       producer that then reads a consumer's "asleep" flag is ordered after it: the caller's wake-up protocol
 *       (Dekker style, see {@code OutboundQueue} and {@code InprocLink}) relies on it.</li>
 *   <li>{@code consumed} is published by the consumer with an ordered store in {@link #publishConsumed()}, every
 *       few elements and at the end of a run; the producer's count of queued elements is never below the truth.</li>
 * </ul>
 */
final class SpscChunkedQueue<E> {
    static final int CHUNK_SIZE = 256;
    private static final int MASK = CHUNK_SIZE - 1;

    private static final VarHandle PRODUCED;
    private static final VarHandle CONSUMED;
    private static final VarHandle SPARE;
    private static final VarHandle CLAIMED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCED = l.findVarHandle(SpscChunkedQueue.class, "produced", long.class);
            CONSUMED = l.findVarHandle(SpscChunkedQueue.class, "consumed", long.class);
            SPARE = l.findVarHandle(SpscChunkedQueue.class, "spare", Chunk.class);
            CLAIMED = l.findVarHandle(SpscChunkedQueue.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Chunk {
        final Object[] slots = new Object[CHUNK_SIZE];
        /** Written by the producer before the {@code produced} store that makes the chunk's last slot visible. */
        Chunk next;
    }

    // producer side
    private Chunk tail;
    @SuppressWarnings("unused") // through PRODUCED; the producer reads its own writes plainly
    private long produced;
    /** The producer's last view of {@code consumed}. */
    private long consumedSeen;

    // consumer side (between tryClaim and unclaim)
    private Chunk head;
    private long position;
    /** The consumer's last view of {@code produced}. */
    private long producedSeen;
    @SuppressWarnings("unused") // through CONSUMED
    private long consumed;

    /** A chunk the consumer emptied, for the producer's next one. */
    @SuppressWarnings("unused") // through SPARE
    private Chunk spare;
    @SuppressWarnings("unused") // through CLAIMED
    private int claimed;

    SpscChunkedQueue() {
        head = tail = new Chunk();
    }

    // ---------------------------------------------------------------- producer

    /** Appends {@code e} (not null). Producer only. */
    void offer(E e) {
        long p = produced;
        int slot = (int) p & MASK;
        Chunk t = tail;
        t.slots[slot] = e;
        if (slot == MASK) {
            Chunk next = (Chunk) SPARE.getAndSet(this, null);
            if (next == null) {
                next = new Chunk();
            }
            t.next = next;
            tail = next;
        }
        PRODUCED.setVolatile(this, p + 1);
    }

    /**
     * Elements queued and not yet consumed, as the producer sees it: never below the truth, and exact once the
     * consumer has published. Producer only.
     */
    long producerSize() {
        long p = produced;
        long size = p - consumedSeen;
        if (size > 0) {
            consumedSeen = (long) CONSUMED.getAcquire(this);
            size = p - consumedSeen;
        }
        return size;
    }

    /** Whether the producer may add an element under a limit ({@code <= 0}: none). Producer only. */
    boolean producerBelow(int limit) {
        if (limit <= 0) {
            return true;
        }
        long p = produced;
        if (p - consumedSeen < limit) {
            return true;
        }
        consumedSeen = (long) CONSUMED.getAcquire(this);
        return p - consumedSeen < limit;
    }

    // ---------------------------------------------------------------- consumer

    /** Makes the calling thread the consumer, or returns false if another thread is consuming. */
    boolean tryClaim() {
        return (int) CLAIMED.getVolatile(this) == 0 && CLAIMED.compareAndSet(this, 0, 1);
    }

    /**
     * Publishes the consumer's position and gives up the consumer role, with a volatile store: a caller that then
     * reads a flag another thread set before failing to claim is ordered after it.
     */
    void unclaim() {
        publishConsumed();
        CLAIMED.setVolatile(this, 0);
    }

    /** Takes the next element, or null if there is none. Claimed consumer only. */
    @SuppressWarnings("unchecked")
    E poll() {
        long c = position;
        if (c == producedSeen) {
            producedSeen = (long) PRODUCED.getVolatile(this);
            if (c == producedSeen) {
                return null;
            }
        }
        int slot = (int) c & MASK;
        Chunk h = head;
        Object e = h.slots[slot];
        h.slots[slot] = null;
        if (slot == MASK) {
            head = h.next;
            h.next = null;
            SPARE.setRelease(this, h);
        }
        position = c + 1;
        return (E) e;
    }

    /**
     * Takes up to {@code max} elements into {@code into}, from index 0; returns how many. The consumer's fields are
     * written once for the lot, not per element: they share a cache line with the producer's count, which a
     * producer running alongside writes per element. Claimed consumer only.
     */
    int poll(Object[] into, int max) {
        long c = position;
        long available = producedSeen - c;
        if (available < max) {
            producedSeen = (long) PRODUCED.getVolatile(this);
            available = producedSeen - c;
        }
        int n = (int) Math.min(available, max);
        Chunk h = head;
        for (int i = 0; i < n; i++) {
            int slot = (int) c & MASK;
            into[i] = h.slots[slot];
            h.slots[slot] = null;
            if (slot == MASK) {
                Chunk next = h.next;
                h.next = null;
                SPARE.setRelease(this, h);
                h = next;
            }
            c++;
        }
        head = h;
        position = c;
        return n;
    }

    /** Whether {@link #poll()} would return an element. Claimed consumer only. */
    boolean consumerHasNext() {
        long c = position;
        return c != producedSeen || c != (producedSeen = (long) PRODUCED.getVolatile(this));
    }

    /** How many elements the consumer has taken so far. Claimed consumer only. */
    long consumerPosition() {
        return position;
    }

    /** Makes the consumer's position visible to the producer (room under its limit) and to {@link #size()}. */
    void publishConsumed() {
        CONSUMED.setRelease(this, position);
    }

    // ---------------------------------------------------------------- any thread

    /** Elements queued and not yet consumed (published), from any thread. */
    long size() {
        long c = (long) CONSUMED.getVolatile(this);
        return (long) PRODUCED.getVolatile(this) - c;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    // ---------------------------------------------------------------- claimed consumer, for a producer evicting

    /**
     * The next element without taking it, or null. Claimed consumer only: a producer that must drop the oldest
     * element (DROP_OLDEST) claims the consumer side with {@link #tryClaim()}, looks, polls, and unclaims.
     */
    @SuppressWarnings("unchecked")
    E peek() {
        long c = position;
        if (c == producedSeen) {
            producedSeen = (long) PRODUCED.getVolatile(this);
            if (c == producedSeen) {
                return null;
            }
        }
        return (E) head.slots[(int) c & MASK];
    }

    /** How many elements the producer has added so far (published), from any thread. */
    long producedCount() {
        return (long) PRODUCED.getVolatile(this);
    }
}
