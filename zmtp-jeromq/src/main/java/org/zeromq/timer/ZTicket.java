package org.zeromq.timer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A set of one-shot tickets, as JeroMQ 0.6.0's {@code org.zeromq.timer.ZTicket} (CZMQ's ticket timers in
 * {@code zloop}).
 *
 * <p>A ticket runs its handler once, {@code delay} milliseconds after it was added or last
 * {@linkplain Ticket#reset() reset}, unless it is cancelled first. Tickets are made for expiry timers of which a
 * server has thousands and resets one per message received: {@link Ticket#reset()}, {@link Ticket#setDelay} and
 * {@link Ticket#cancel()} only write a field and mark the set for sorting, which happens once, on the next
 * {@link #timeout()} or {@link #execute()}.
 *
 * <p><b>Threads.</b> Not thread-safe: use a set from one thread, or guard it.
 */
public final class ZTicket {
    /**
     * A handle on one ticket, to reset, re-time or cancel it. Like the set, not thread-safe. Tickets order by the
     * moment they are due, live ones before cancelled ones.
     */
    public static final class Ticket implements Comparable<Ticket> {
        private final ZTicket parent;
        private final TimerHandler handler;
        private final Object[] args;
        private long start;
        private long delay;
        private boolean alive = true;

        private Ticket(ZTicket parent, long start, long delay, TimerHandler handler, Object[] args) {
            this.parent = parent;
            this.start = start;
            this.delay = delay;
            this.handler = handler;
            this.args = args;
        }

        /** Starts the ticket's delay again from now. No effect on a ticket that ran or was cancelled. */
        public void reset() {
            if (alive) {
                start = parent.clock.nowMillis();
                parent.unsorted = true;
            }
        }

        /**
         * Cancels the ticket: its handler will not run.
         *
         * @return true if this call cancelled it; false if it had already run or been cancelled
         */
        public boolean cancel() {
            if (!alive) {
                return false;
            }
            alive = false;
            parent.unsorted = true;
            return true;
        }

        /**
         * Changes the delay, counted from when the ticket was added or last reset. No effect on a ticket that ran or
         * was cancelled.
         *
         * @param delay the new delay in milliseconds
         */
        public void setDelay(long delay) {
            if (alive) {
                this.delay = delay;
                parent.unsorted = true;
            }
        }

        private long deadline() {
            return start + delay;
        }

        /** Earlier deadline first; every live ticket before every cancelled or spent one. */
        @Override
        public int compareTo(Ticket other) {
            if (alive != other.alive) {
                return alive ? -1 : 1;
            }
            return alive ? Long.compare(deadline(), other.deadline()) : 0;
        }
    }

    private final TimerClock clock;
    private final List<Ticket> tickets;
    /** Set when a ticket was added or changed since the list was last sorted. */
    private boolean unsorted;

    /** A set of tickets on the system's monotonic clock. */
    public ZTicket() {
        this(TimerClock.SYSTEM);
    }

    ZTicket(TimerClock clock) {
        this(clock, new ArrayList<>());
    }

    /** Tickets on {@code clock}'s milliseconds, JeroMQ's package-private constructor. */
    ZTicket(Supplier<Long> clock) {
        this(TimerClock.of(clock));
    }

    /**
     * Tickets on {@code clock}'s milliseconds, kept in {@code tickets}, JeroMQ's package-private constructor (its
     * tests look into the list): the list is sorted by due time, cancelled tickets last, on {@link #timeout()} and
     * {@link #execute()} after a change, and loses the tickets that ran or were cancelled on {@link #execute()}.
     */
    ZTicket(Supplier<Long> clock, List<Ticket> tickets) {
        this(TimerClock.of(clock), tickets);
    }

    private ZTicket(TimerClock clock, List<Ticket> tickets) {
        this.clock = clock;
        this.tickets = tickets;
    }

    /**
     * Adds a ticket that runs {@code handler} once, {@code delay} milliseconds from now.
     *
     * @param delay   the delay in milliseconds, above 0
     * @param handler what to run; with null nothing is added and null is returned, as in JeroMQ
     * @param args    the arguments handed to the handler
     * @return the ticket's handle, or null if {@code handler} is null
     * @throws IllegalArgumentException if {@code delay} is 0 or less
     */
    public Ticket add(long delay, TimerHandler handler, Object... args) {
        if (handler == null) {
            return null;
        }
        if (delay <= 0) {
            throw new IllegalArgumentException("ticket delay: " + delay + " (expected: > 0)");
        }
        Ticket ticket = new Ticket(this, clock.nowMillis(), delay, handler, args == null ? new Object[0] : args);
        tickets.add(ticket);
        unsorted = true;
        return ticket;
    }

    /**
     * How long until the next live ticket is due.
     *
     * @return milliseconds until the next ticket is due, 0 if one is due now, -1 if no ticket is waiting (JeroMQ
     *         counts a cancelled ticket until the next {@link #execute()} drops it; this set does not)
     */
    public long timeout() {
        sortIfNeeded();
        if (tickets.isEmpty() || !tickets.get(0).alive) {
            return -1;
        }
        return Math.max(0, tickets.get(0).deadline() - clock.nowMillis());
    }

    /**
     * Runs the handler of every ticket that is due now, once, and drops those tickets and the cancelled ones. A
     * due ticket that an earlier handler of the same call cancels does not run; a ticket a handler adds waits for
     * its delay.
     *
     * @return the number of handlers run
     */
    public int execute() {
        long now = clock.nowMillis();
        sortIfNeeded();
        int due = 0;
        while (due < tickets.size() && tickets.get(due).alive && tickets.get(due).deadline() <= now) {
            due++;
        }
        // Cancelled tickets sort last: drop them with the due ones before any handler can add to the list.
        int live = tickets.size();
        while (live > due && !tickets.get(live - 1).alive) {
            live--;
        }
        List<Ticket> firing = new ArrayList<>(tickets.subList(0, due));
        tickets.subList(live, tickets.size()).clear();
        tickets.subList(0, due).clear();
        int executed = 0;
        for (Ticket ticket : firing) {
            if (ticket.alive) {
                ticket.alive = false;
                ticket.handler.time(ticket.args);
                executed++;
            }
        }
        return executed;
    }

    private void sortIfNeeded() {
        if (unsorted) {
            unsorted = false;
            tickets.sort(null);
        }
    }
}
