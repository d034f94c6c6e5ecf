package org.zeromq.timer;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Where timers and tickets read the time and how they wait: the system's monotonic clock in use, a fake one in tests
 * (so that no test asserts on elapsed time).
 */
interface TimerClock {
    /** The monotonic clock, in milliseconds, and {@link Thread#sleep}. */
    TimerClock SYSTEM = new TimerClock() {
        @Override
        public long nowMillis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    /**
     * A clock reading milliseconds from {@code millis}, waiting with {@link Thread#sleep}: for JeroMQ's
     * package-private {@code (Supplier<Long> clock)} constructors, which JeroMQ's own tests call.
     */
    static TimerClock of(Supplier<Long> millis) {
        return new TimerClock() {
            @Override
            public long nowMillis() {
                return millis.get();
            }

            @Override
            public void sleep(long ms) throws InterruptedException {
                Thread.sleep(ms);
            }
        };
    }

    /** Milliseconds from an arbitrary origin; never goes back. */
    long nowMillis();

    /** Waits {@code millis} milliseconds (a fake clock moves itself forward instead). */
    void sleep(long millis) throws InterruptedException;
}
