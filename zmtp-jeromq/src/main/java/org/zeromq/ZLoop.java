package org.zeromq;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A reactor, as JeroMQ 0.6.0's {@code ZLoop}: handlers called when poll items are ready, and timers (once, n times
 * or forever) with a 1 ms resolution, all on the thread that calls {@link #start()}.
 *
 * <p>The loop waits in {@link ZMQ.Poller#poll(long)} until the next timer is due (at most an hour); with no poll
 * items it sleeps until then, so an idle loop never spins. Items may be sockets or java.nio channels (non-blocking):
 * a loop with a channel waits in its poller's selector, which the sockets wake (see {@code PollSet}). It ends when a handler returns -1 ({@link #start()}
 * returns -1), when its thread is interrupted (returns 0, the thread's interrupt status stays set) or when the
 * context is closed (returns 0). Timers are measured on {@link System#nanoTime()}, so a change of the wall clock
 * does not fire or delay them. Not thread-safe: add and remove from the loop's thread, or before {@link #start()}.
 */
public class ZLoop {
    /** Called when an item is ready ({@code item} non-null) or a timer is due ({@code item} null). */
    public interface IZLoopHandler {
        /**
         * @param loop the loop calling
         * @param item the ready item, or null for a timer
         * @param arg  the argument given with the handler
         * @return -1 to end the loop, anything else to go on
         */
        int handle(ZLoop loop, ZMQ.PollItem item, Object arg);
    }

    /** A timer never waits longer than this, as JeroMQ's tickless timer. */
    private static final long MAX_WAIT_MS = TimeUnit.HOURS.toMillis(1);

    private static final class Reader {
        final ZMQ.PollItem item;
        final IZLoopHandler handler;
        final Object arg;

        Reader(ZMQ.PollItem item, IZLoopHandler handler, Object arg) {
            this.item = item;
            this.handler = handler;
            this.arg = arg;
        }
    }

    private static final class Timer {
        final long delayMs;
        int times;
        final IZLoopHandler handler;
        final Object arg;
        long dueMs;

        Timer(int delay, int times, IZLoopHandler handler, Object arg) {
            this.delayMs = delay;
            this.times = times;
            this.handler = handler;
            this.arg = arg;
        }
    }

    private final ZMQ.Context context;
    private final List<Reader> readers = new ArrayList<>();
    private final List<Timer> timers = new ArrayList<>();
    /** Timers added since the last turn: they start at the end of it, as in JeroMQ. */
    private final List<Timer> newTimers = new ArrayList<>();
    /** Arguments of the timers to cancel at the end of the turn. */
    private final List<Object> cancelled = new ArrayList<>();
    private ZMQ.Poller pollset;
    private Reader[] polled = new Reader[0];
    private boolean dirty = true;
    private boolean verbose;

    /** A loop whose poller is made in {@code context}. */
    public ZLoop(ZMQ.Context context) {
        this.context = Objects.requireNonNull(context, "Context has to be supplied for ZLoop");
    }

    /** A loop whose poller is made in {@code ctx}'s context. */
    public ZLoop(ZContext ctx) {
        this(ctx.getContext());
    }

    /** Does nothing: the loop holds nothing to release once {@link #start()} has returned. */
    @Deprecated
    public void destroy() {
    }

    /**
     * Calls {@code handler} with {@code arg} whenever {@code pollItem} is ready.
     *
     * @return 0
     */
    public int addPoller(ZMQ.PollItem pollItem, IZLoopHandler handler, Object arg) {
        Objects.requireNonNull(pollItem, "pollItem");
        readers.add(new Reader(pollItem, handler, arg));
        dirty = true;
        trace("register %s poller", describe(pollItem));
        return 0;
    }

    /** Stops calling the handlers of items equal to {@code pollItem}. */
    public void removePoller(ZMQ.PollItem pollItem) {
        if (readers.removeIf(r -> r.item.equals(pollItem))) {
            dirty = true;
        }
        trace("cancel %s poller", describe(pollItem));
    }

    /**
     * Calls {@code handler} with {@code arg} after {@code delay} ms, {@code times} times ({@code 0}: forever). A
     * timer added while the loop runs starts at the end of the current turn.
     *
     * @return 0
     */
    public int addTimer(int delay, int times, IZLoopHandler handler, Object arg) {
        Objects.requireNonNull(handler, "handler");
        newTimers.add(new Timer(delay, times, handler, arg));
        trace("register timer delay=%d times=%d", delay, times);
        return 0;
    }

    /**
     * Cancels every timer added with {@code arg} (compared by identity), at the end of the current turn.
     *
     * @return 0
     */
    public int removeTimer(Object arg) {
        Objects.requireNonNull(arg, "Argument has to be supplied");
        cancelled.add(arg);
        trace("cancel timer");
        return 0;
    }

    /** Whether to trace the loop's turns on standard output. */
    public void verbose(boolean verbose) {
        this.verbose = verbose;
    }

    /**
     * Runs the loop on the calling thread until a handler returns -1, the thread is interrupted or the context is
     * closed.
     *
     * @return -1 when a handler ended the loop, else 0
     */
    public int start() {
        long now = nowMs();
        moveNewTimers();
        for (Timer t : timers) {
            t.dueMs = now + t.delayMs;
        }
        try {
            while (!Thread.currentThread().isInterrupted() && !context.isTerminating()) {
                if (!waitForWork(nextWaitMs())) {
                    return 0;
                }
                int rc = runTimers();
                if (rc != -1) {
                    rc = runReaders();
                }
                endTurn();
                if (rc == -1) {
                    return -1;
                }
            }
            return 0;
        } finally {
            if (pollset != null) {
                pollset.close();
                pollset = null;
            }
            dirty = true;
        }
    }

    /** Waits for an item or {@code waitMs}; false when the loop must end (interrupted, context closed). */
    private boolean waitForWork(long waitMs) {
        trace("polling for %d msec", waitMs);
        if (readers.isEmpty()) {
            if (pollset != null) {
                pollset.close();
                pollset = null;
                polled = new Reader[0];
            }
            if (waitMs > 0) {
                try {
                    Thread.sleep(waitMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
        if (dirty) {
            rebuild();
        }
        try {
            pollset.poll(waitMs);
        } catch (ZMQException e) {
            if (e.getErrorCode() == ErrorCodes.EINTR) {
                trace("interrupted");
                return false;
            }
            throw e;
        }
        return !context.isTerminating();
    }

    private int runTimers() {
        int rc = 0;
        long now = nowMs();
        Iterator<Timer> it = timers.iterator();
        while (it.hasNext()) {
            Timer timer = it.next();
            if (now < timer.dueMs) {
                continue;
            }
            trace("call timer handler");
            rc = timer.handler.handle(this, null, timer.arg);
            if (rc == -1) {
                break;
            }
            if (timer.times != 0 && --timer.times == 0) {
                it.remove();
            } else {
                timer.dueMs = nowMs() + timer.delayMs;
            }
        }
        return rc;
    }

    private int runReaders() {
        if (pollset == null) {
            return 0;
        }
        Reader[] turn = polled;
        for (int i = 0; i < turn.length; i++) {
            ZMQ.PollItem item = pollset.getItem(i);
            if (item != null && item.readyOps() > 0) {
                if (verbose) {
                    trace("call %s handler", describe(item));
                }
                if (turn[i].handler.handle(this, turn[i].item, turn[i].arg) == -1) {
                    return -1;
                }
            }
        }
        return 0;
    }

    private void endTurn() {
        for (Object arg : cancelled) {
            timers.removeIf(t -> t.arg == arg);
            newTimers.removeIf(t -> t.arg == arg);
        }
        cancelled.clear();
        long now = nowMs();
        for (Timer t : newTimers) {
            t.dueMs = now + t.delayMs;
        }
        moveNewTimers();
    }

    private void moveNewTimers() {
        timers.addAll(newTimers);
        newTimers.clear();
    }

    private void rebuild() {
        if (pollset != null) {
            pollset.close();
        }
        pollset = context.poller(readers.size());
        polled = readers.toArray(new Reader[0]);
        for (Reader r : polled) {
            pollset.register(r.item);
        }
        dirty = false;
    }

    /** Until the next timer is due, at most an hour; 0 if one is due now. */
    private long nextWaitMs() {
        long now = nowMs();
        long due = now + MAX_WAIT_MS;
        for (Timer t : timers) {
            due = Math.min(due, t.dueMs);
        }
        return Math.max(0, due - now);
    }

    private static long nowMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    /** The item's socket type and socket, or its channel, for the trace. */
    private static String describe(ZMQ.PollItem item) {
        ZMQ.Socket socket = item.getSocket();
        return socket != null ? socket.getSocketType() + " (" + socket + ")" : "channel (" + item.getRawSocket() + ")";
    }

    private void trace(String format, Object... args) {
        if (verbose) {
            System.out.printf("I: zloop: " + format + "%n", args);
        }
    }
}
