package org.zeromq;

import org.zeromq.timer.TimerHandler;

/**
 * JeroMQ's first timer set, kept for applications that use it: each method hands over to
 * {@link org.zeromq.timer.ZTimer}, whose {@link org.zeromq.timer.ZTimer.Timer handles} have the methods that this
 * class takes a {@link Timer} for.
 *
 * <p><b>Threads.</b> Not thread-safe.
 *
 * @deprecated as in JeroMQ 0.6.0: use {@link org.zeromq.timer.ZTimer}
 */
@Deprecated
public final class ZTimer {
    /**
     * A handle on one timer.
     *
     * @deprecated use {@link org.zeromq.timer.ZTimer.Timer}
     */
    @Deprecated
    public static final class Timer {
        private final org.zeromq.timer.ZTimer.Timer delegate;

        Timer(org.zeromq.timer.ZTimer.Timer delegate) {
            this.delegate = delegate;
        }
    }

    /**
     * What a timer runs.
     *
     * @deprecated use {@link TimerHandler}
     */
    @Deprecated
    public interface Handler extends TimerHandler {
    }

    private final org.zeromq.timer.ZTimer timers = new org.zeromq.timer.ZTimer();

    /**
     * Adds a timer that runs {@code handler} every {@code interval} milliseconds until cancelled.
     *
     * @return its handle, or null if {@code handler} is null
     * @throws IllegalArgumentException if {@code interval} is 0 or less
     */
    public Timer add(long interval, Handler handler, Object... args) {
        if (handler == null) {
            return null;
        }
        return new Timer(timers.add(interval, handler, args));
    }

    /**
     * Changes a timer's interval and re-arms it from now.
     *
     * @return false if the timer was cancelled
     * @deprecated use {@link org.zeromq.timer.ZTimer.Timer#setInterval(long)}
     */
    @Deprecated
    public boolean setInterval(Timer timer, long interval) {
        return timer.delegate.setInterval(interval);
    }

    /**
     * Re-arms a timer for one interval from now.
     *
     * @return false if the timer was cancelled
     * @deprecated use {@link org.zeromq.timer.ZTimer.Timer#reset()}
     */
    @Deprecated
    public boolean reset(Timer timer) {
        return timer.delegate.reset();
    }

    /**
     * Cancels a timer.
     *
     * @return false if it was already cancelled
     * @deprecated use {@link org.zeromq.timer.ZTimer.Timer#cancel()}
     */
    @Deprecated
    public boolean cancel(Timer timer) {
        return timer.delegate.cancel();
    }

    /** Milliseconds until the next timer is due, 0 if one is due now, -1 if there is none. */
    public long timeout() {
        return timers.timeout();
    }

    /** Runs the due timers; returns how many ran. */
    public int execute() {
        return timers.execute();
    }

    /** Waits until a timer is due and runs the due timers; returns how many ran. */
    public int sleepAndExecute() {
        return timers.sleepAndExecute();
    }
}
