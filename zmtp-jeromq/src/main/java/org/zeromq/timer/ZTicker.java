package org.zeromq.timer;

import org.zeromq.timer.ZTicket.Ticket;
import org.zeromq.timer.ZTimer.Timer;

import java.util.function.Supplier;

/**
 * Repeating timers and one-shot tickets together, as JeroMQ 0.6.0's {@code org.zeromq.timer.ZTicker}: one
 * {@link #timeout()} to wait on and one {@link #execute()} for both.
 *
 * <p><b>Threads.</b> Not thread-safe, as {@link ZTimer} and {@link ZTicket} are not.
 */
public final class ZTicker {
    private final ZTimer timers;
    private final ZTicket tickets;

    /** Timers and tickets on the system's monotonic clock. */
    public ZTicker() {
        this(TimerClock.SYSTEM);
    }

    ZTicker(TimerClock clock) {
        timers = new ZTimer(clock);
        tickets = new ZTicket(clock);
    }

    /** Timers and tickets on {@code clock}'s milliseconds, JeroMQ's package-private constructor. */
    ZTicker(Supplier<Long> clock) {
        this(TimerClock.of(clock));
    }

    /**
     * Adds a ticket: {@code handler} runs once, {@code delay} milliseconds from now.
     *
     * @see ZTicket#add(long, TimerHandler, Object...)
     */
    public Ticket addTicket(long delay, TimerHandler handler, Object... args) {
        return tickets.add(delay, handler, args);
    }

    /**
     * Adds a timer: {@code handler} runs every {@code interval} milliseconds until cancelled.
     *
     * @see ZTimer#add(long, TimerHandler, Object...)
     */
    public Timer addTimer(long interval, TimerHandler handler, Object... args) {
        return timers.add(interval, handler, args);
    }

    /**
     * How long until the next timer or ticket is due.
     *
     * @return milliseconds until the next one is due, 0 if one is due now, -1 if there is none
     */
    public long timeout() {
        long timer = timers.timeout();
        long ticket = tickets.timeout();
        if (timer < 0 || ticket < 0) {
            // One of them has nothing: the other's answer (-1 if both have nothing).
            return Math.max(timer, ticket);
        }
        return Math.min(timer, ticket);
    }

    /**
     * Runs the due timers, then the due tickets.
     *
     * @return the number of handlers run
     */
    public int execute() {
        return timers.execute() + tickets.execute();
    }
}
