package io.zmtp.socket.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock-free "something changed" signal: I/O threads call {@link #signal()}, user threads read {@link #sequence()},
 * check their condition, and {@link #await} a change of the sequence. No lock is ever taken, so the I/O thread never
 * waits for a user thread. Listeners (poller, async completion) run on the signalling thread and must not block.
 */
public final class Signal {
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentLinkedQueue<Thread> waiters = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Runnable> listeners = new CopyOnWriteArrayList<>();

    public long sequence() {
        return sequence.get();
    }

    public void signal() {
        sequence.incrementAndGet();
        for (Thread t : waiters) {
            LockSupport.unpark(t);
        }
        for (Runnable r : listeners) {
            r.run();
        }
    }

    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    public void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /**
     * Waits until the sequence differs from {@code observed} or {@code deadlineNanos} (a {@link System#nanoTime()}
     * value; {@code Long.MAX_VALUE} for none) passes.
     */
    public void await(long observed, long deadlineNanos) throws InterruptedException {
        Thread me = Thread.currentThread();
        waiters.add(me);
        try {
            while (sequence.get() == observed) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                long park = MAX_PARK_NANOS;
                if (deadlineNanos != Long.MAX_VALUE) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    park = Math.min(park, left);
                }
                LockSupport.parkNanos(this, park);
            }
        } finally {
            waiters.remove(me);
        }
    }
}
