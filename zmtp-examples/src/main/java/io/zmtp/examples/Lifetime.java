package io.zmtp.examples;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long an example runs: until Ctrl-C (SIGINT/SIGTERM) or, if given, for a number of seconds. On Ctrl-C the JVM's
 * shutdown hook waits for the example to finish its own shutdown ({@link #close()}), so it closes its sockets and
 * prints its last lines instead of being cut off mid-way.
 *
 * <pre>{@code
 * try (Lifetime lifetime = new Lifetime(durationSeconds)) {
 *     ... start ...
 *     for (int s = 1; !lifetime.awaitStopUntil(start + s * 1_000_000_000L); s++) {
 *         ... print a line ...
 *         if (lifetime.isOver()) break;
 *     }
 *     ... stop, print the totals ...
 * }
 * }</pre>
 */
public final class Lifetime implements AutoCloseable {
    private static final long SHUTDOWN_GRACE_SECONDS = 10;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final long deadlineNanos;
    private final Thread hook;

    /** Runs until Ctrl-C, or for {@code durationSeconds} if that is positive. */
    public Lifetime(long durationSeconds) {
        this.deadlineNanos = durationSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(durationSeconds)
                : Long.MAX_VALUE;
        this.hook = new Thread(() -> {
            stop.countDown();
            try {
                done.await(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "example-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Stops the example as Ctrl-C does (for tests, and for examples that end on their own). */
    public void stop() {
        stop.countDown();
    }

    /** Waits up to {@code millis}; true if Ctrl-C came meanwhile (or before). */
    public boolean awaitStop(long millis) throws InterruptedException {
        return stop.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Waits until {@code System.nanoTime()} reaches {@code nanoTime}; true if Ctrl-C came meanwhile. */
    public boolean awaitStopUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        return wait > 0 ? stop.await(wait, TimeUnit.NANOSECONDS) : stop.getCount() == 0;
    }

    /** Whether the example should stop now: Ctrl-C came, or its duration is over. */
    public boolean isOver() {
        return stop.getCount() == 0 || System.nanoTime() - deadlineNanos >= 0;
    }

    /** Waits until the example should stop. */
    public void awaitStop() throws InterruptedException {
        while (!isOver()) {
            long left = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
            awaitStop(Math.max(1, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(left))));
        }
    }

    /** The example has shut down: lets a Ctrl-C's shutdown finish, or removes the hook if it ran its course. */
    @Override
    public void close() {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down (Ctrl-C): the hook is running and now returns.
        }
    }
}
