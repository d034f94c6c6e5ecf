package io.zmtp.socket.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A socket's lock: barges while nobody waits, queues behind those who do.
 *
 * <p>Sockets may be used from several threads (the thread-safe types, JeroMQ's API, a proxy beside an application
 * thread). With a plain non-fair lock, a thread calling {@code send} in a tight loop unlocks and locks again before
 * a waiter it just unparked gets to run, and can keep another thread off the socket for seconds (seen at load 6 on two
 * cores: a server thread waited 30 s to echo a message while the test thread sent 100,000). A fair lock never
 * barges, which costs a hand-off through the queue on every acquisition that finds the lock held, even a
 * momentary one. This one takes the lock at once when it is free and no thread is queued (the single-threaded case,
 * one volatile read more than a plain lock), and otherwise joins the queue in order: a thread that finds others
 * waiting goes behind them, so a waiter gets the lock by the time the thread ahead of it has unlocked it once more.
 * Reentrant acquisitions never queue.
 */
final class SocketLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;

    SocketLock() {
        super(true);
    }

    @Override
    public void lock() {
        // tryLock barges even on a fair lock: only while nobody waits.
        if (!hasQueuedThreads() && tryLock()) {
            return;
        }
        super.lock();
    }
}
