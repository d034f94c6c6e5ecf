package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketEvent;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a socket's drops into MESSAGES_DROPPED events, one per burst: the first drop after a quiet spell schedules a
 * report {@value #REPORT_DELAY_MILLIS} ms later on one of the context's event loops, and that report carries every
 * drop counted meanwhile. A PUB dropping a million messages a second for a slow subscriber raises ten events a
 * second, not a million.
 *
 * <h2>Threads</h2>
 * Drops are added from any thread. The report clears {@code scheduled} before it takes the count, and an adder adds
 * before it reads {@code scheduled}, so a drop is either in the count a report takes or schedules a report of its own.
 */
final class DropReporter {
    static final long REPORT_DELAY_MILLIS = 100;

    private final SocketBase socket;
    private final AtomicLong unreported = new AtomicLong();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable reportTask = this::report;

    DropReporter(SocketBase socket) {
        this.socket = socket;
    }

    void add(int n) {
        unreported.addAndGet(n);
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            try {
                socket.context.group().next().schedule(reportTask, REPORT_DELAY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                // The context is closing; close reports what is left (flush).
                scheduled.set(false);
            }
        }
    }

    private void report() {
        scheduled.set(false);
        flush();
    }

    /** Reports what was dropped and not yet reported, at once. */
    void flush() {
        long n = unreported.getAndSet(0);
        if (n > 0) {
            socket.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.MESSAGES_DROPPED, null, null, null, null, n));
        }
    }
}
