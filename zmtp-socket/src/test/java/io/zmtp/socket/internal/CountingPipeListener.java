package io.zmtp.socket.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pipe's listener for tests without a socket: accepts every connection and counts each pipe's activity signals
 * (what wakes a socket), which a reader on another thread can also wait for.
 */
final class CountingPipeListener implements PipeListener {
    private final Map<Pipe, AtomicInteger> signals = new ConcurrentHashMap<>();
    private final Semaphore permits = new Semaphore(0);

    @Override
    public boolean pipeConnected(Pipe pipe) {
        return true;
    }

    @Override
    public void pipeDisconnected(Pipe pipe) {
    }

    @Override
    public void pipeActivity(Pipe pipe) {
        signals.computeIfAbsent(pipe, p -> new AtomicInteger()).incrementAndGet();
        permits.release();
    }

    int signals(Pipe pipe) {
        AtomicInteger n = signals.get(pipe);
        return n == null ? 0 : n.get();
    }

    /** Waits for a signal not waited for before; false if none came in time. */
    boolean awaitSignal(long timeout, TimeUnit unit) throws InterruptedException {
        return permits.tryAcquire(timeout, unit);
    }
}
