package io.zmtp.codec;

import io.netty.util.internal.logging.InternalLogger;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * At most one WARN per interval for one kind of event, the rest at DEBUG and counted; the next WARN says how many
 * there were. A load balancer's health check, or a misconfigured peer that reconnects every 100 ms, must not flood
 * the log, yet the first occurrence and how often it recurs stay visible. One per handler class, shared by all its
 * connections, so thread-safe.
 */
final class WarnLimiter {
    static final long DEFAULT_INTERVAL_MILLIS = 60_000;

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong nextWarnAt;
    private final AtomicLong suppressed = new AtomicLong();

    WarnLimiter() {
        this(TimeUnit.MILLISECONDS.toNanos(DEFAULT_INTERVAL_MILLIS), System::nanoTime);
    }

    WarnLimiter(long intervalNanos, LongSupplier nanoClock) {
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
        this.nextWarnAt = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * Whether this event may be logged at WARN: -1 if not (log it at DEBUG), otherwise how many events were held
     * back since the last WARN.
     */
    long tryWarn() {
        long now = nanoClock.getAsLong();
        long next = nextWarnAt.get();
        // nanoTime may wrap: compare the difference, not the values.
        if (now - next >= 0 && nextWarnAt.compareAndSet(next, now + intervalNanos)) {
            return suppressed.getAndSet(0);
        }
        suppressed.incrementAndGet();
        return -1;
    }

    /** Lets the next event through at WARN and forgets the count (tests start from a known state). */
    void reset() {
        suppressed.set(0);
        nextWarnAt.set(nanoClock.getAsLong());
    }

    /** Logs at WARN if {@link #tryWarn} allows, else at DEBUG. */
    void log(InternalLogger logger, String format, Object... args) {
        long held = tryWarn();
        if (held < 0) {
            logger.debug(format, args);
        } else if (held == 0) {
            logger.warn(format, args);
        } else {
            Object[] more = Arrays.copyOf(args, args.length + 2);
            more[args.length] = held;
            more[args.length + 1] = TimeUnit.NANOSECONDS.toSeconds(intervalNanos);
            logger.warn(format + " ({} more like it logged at DEBUG, at most one WARN per {} s)", more);
        }
    }
}
