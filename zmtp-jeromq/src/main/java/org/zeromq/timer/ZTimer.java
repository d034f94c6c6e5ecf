package org.zeromq.timer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A set of repeating timers, as JeroMQ 0.6.0's {@code org.zeromq.timer.ZTimer} (libzmq's {@code zmq_timers}).
 *
 * <p>A timer added with an interval is due that many milliseconds later; {@link #execute()} runs the handler of
 * every due timer and arms it again for one interval after that moment, until the timer is
 * {@linkplain Timer#cancel() cancelled}. Timers due at the same moment run in the order they were armed.
 *
 * <p>There is no thread behind it: {@link #timeout()} says how long the caller may wait before the next timer is
 * due, and {@link #execute()} or {@link #sleepAndExecute()} runs the handlers on the calling thread.
 *
 * <p><b>Threads.</b> Not thread-safe: use a set from one thread, or guard it.
 */
public final class ZTimer {
    /**
     * A handle on one timer of a {@link ZTimer}, to change, re-arm or cancel it. Like the set, not thread-safe.
     */
    public static final class Timer {
        private final ZTimer parent;
        private final TimerHandler handler;
        private final Object[] args;
        private long interval;
        private long deadline;
        /** Tells apart timers with the same deadline (the one armed first runs first); 0 before the first arming. */
        private long sequence;
        private boolean alive = true;

        private Timer(ZTimer parent, long interval, TimerHandler handler, Object[] args) {
            this.parent = parent;
            this.interval = interval;
            this.handler = handler;
            this.args = args;
        }

        /**
         * Changes the interval and re-arms the timer for the new interval from now.
         *
         * @param interval the new interval in milliseconds
         * @return true if the timer was changed; false if it had been cancelled
         */
        public boolean setInterval(long interval) {
            if (!alive) {
                return false;
            }
            this.interval = interval;
            parent.arm(this);
            return true;
        }

        /**
         * Re-arms the timer for one interval from now, as if it had just been added.
         *
         * @return true if the timer was re-armed; false if it had been cancelled
         */
        public boolean reset() {
            if (!alive) {
                return false;
            }
            parent.arm(this);
            return true;
        }

        /**
         * Cancels the timer: its handler does not run again, even if it is due.
         *
         * @return true if this call cancelled it; false if it was already cancelled
         */
        public boolean cancel() {
            if (!alive) {
                return false;
            }
            alive = false;
            parent.timers.remove(this);
            return true;
        }
    }

    private static final Comparator<Timer> BY_DEADLINE =
            Comparator.<Timer>comparingLong(t -> t.deadline).thenComparingLong(t -> t.sequence);

    private final TimerClock clock;
    private final TreeSet<Timer> timers = new TreeSet<>(BY_DEADLINE);
    private long nextSequence = 1;

    /** A set of timers on the system's monotonic clock. */
    public ZTimer() {
        this(TimerClock.SYSTEM);
    }

    ZTimer(TimerClock clock) {
        this.clock = clock;
    }

    /** Timers on {@code clock}'s milliseconds, JeroMQ's package-private constructor. */
    ZTimer(Supplier<Long> clock) {
        this(TimerClock.of(clock));
    }

    /**
     * Adds a timer that runs {@code handler} every {@code interval} milliseconds until it is cancelled, the first
     * time one interval from now.
     *
     * @param interval the interval in milliseconds, above 0
     * @param handler  what to run; with null nothing is added and null is returned, as in JeroMQ
     * @param args     the arguments handed to the handler on every run
     * @return the timer's handle, or null if {@code handler} is null
     * @throws IllegalArgumentException if {@code interval} is 0 or less
     */
    public Timer add(long interval, TimerHandler handler, Object... args) {
        if (handler == null) {
            return null;
        }
        if (interval <= 0) {
            throw new IllegalArgumentException("timer interval: " + interval + " (expected: > 0)");
        }
        Timer timer = new Timer(this, interval, handler, args == null ? new Object[0] : args);
        arm(timer);
        return timer;
    }

    /**
     * How long until the next timer is due.
     *
     * @return milliseconds until the next timer is due, 0 if one is due now, -1 if there is no timer
     */
    public long timeout() {
        if (timers.isEmpty()) {
            return -1;
        }
        return Math.max(0, timers.first().deadline - clock.nowMillis());
    }

    /**
     * Runs the handler of every timer that is due now, each re-armed for one interval from now before its handler
     * runs. A timer that a handler cancels before its turn does not run; a timer a handler adds waits for its
     * interval.
     *
     * @return the number of handlers run
     */
    public int execute() {
        long now = clock.nowMillis();
        List<Timer> due = new ArrayList<>();
        for (Timer timer : timers) {
            if (timer.deadline > now) {
                break;
            }
            due.add(timer);
        }
        int executed = 0;
        for (Timer timer : due) {
            if (!timer.alive) {
                continue;
            }
            arm(timer);
            timer.handler.time(timer.args);
            executed++;
        }
        return executed;
    }

    /**
     * Waits until a timer is due, then {@linkplain #execute() runs the due timers}. With no timer it returns at
     * once. If the thread is interrupted while waiting it stops waiting, keeps the interrupt status set, and runs
     * whatever is due by then (unlike JeroMQ, whose wait turns into a busy loop once the thread is interrupted).
     *
     * @return the number of handlers run
     */
    public int sleepAndExecute() {
        long timeout = timeout();
        while (timeout > 0) {
            try {
                clock.sleep(timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            timeout = timeout();
        }
        return execute();
    }

    /** (Re)arms {@code timer} for one interval from now. */
    private void arm(Timer timer) {
        if (timer.sequence != 0) {
            timers.remove(timer);
        }
        timer.deadline = clock.nowMillis() + timer.interval;
        timer.sequence = nextSequence++;
        timers.add(timer);
    }
}
