package io.zmtp.codec.mechanism;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.management.ManagementFactory;

/**
 * Watches a core on the Vector API for the one way it goes wrong: the JIT compiling it without the API's intrinsics,
 * so that every vector operation runs the API's Java fallback, allocates, and the pair runs several times slower
 * than on the code the core replaced (1.1-2.9 k 64 KiB messages a second against 9 k). Seen with JDK 17's C2 in 8 of
 * about 80 starts of the perf tools' CURVE pair with C2's diagnostic output on, which changes its timing (the
 * vector stores' intrinsics refused for "missing constant": the vector's species was not known at the call), and in
 * none of about 40 without; the cause is in C2's profile-driven inlining, and JDK 25 did not show it in 20 starts.
 * Compiled as intended, a core allocates nothing, so the watch measures the thread's allocation across one call now
 * and then (calls 2^10, 2^11, then every 2^12th up to 2^20; the first while the JIT may still be in its first tiers,
 * which allocate too) and, from {@link #DECISIVE} calls and {@link #DECISIVE_NANOS} on, turns the core off for the
 * JVM if the call allocated: the portable code takes over, and a warning says so.
 *
 * <p>One per core and thread (the counters are the thread's own); {@link #on()} is read by every thread.
 */
final class VectorWatch {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(VectorWatch.class);

    /**
     * From this many calls, and {@link #DECISIVE_NANOS} after the first, a call that allocates turns the core off: the
     * JIT has compiled it by then (within 1.2 to 3.1 s of a CURVE stream's start in the runs seen, on 2 loaded cores).
     */
    static final long DECISIVE = 1L << 12;
    static final long DECISIVE_NANOS = 4_000_000_000L;
    private static final long FIRST = 1L << 10;
    private static final long LAST = 1L << 20;

    private static final Switch SALSA = new Switch();
    private static final Switch MAC = new Switch();

    private final String core;
    private final Switch on;
    private long calls;
    private long next = FIRST;
    private long firstNanos;

    VectorWatch(String core, Switch on) {
        this.core = core;
        this.on = on;
    }

    static VectorWatch salsa() {
        return new VectorWatch("Salsa20", SALSA);
    }

    static VectorWatch mac() {
        return new VectorWatch("Poly1305", MAC);
    }

    /** Whether this core is still on (not turned off by a watch on any thread). */
    boolean on() {
        return on.on;
    }

    /** What {@link #begin} returns for a call not measured. */
    private static final long NOT_MEASURED = Long.MIN_VALUE;

    /**
     * Before a call of the core: counts it and, if it is one to measure, returns the thread's allocation so far; pass
     * what it returns to {@link #end} after the call.
     */
    long begin() {
        return due() ? allocated() : NOT_MEASURED;
    }

    /** After a call of the core, with what {@link #begin} returned before it. */
    void end(long mark) {
        if (mark != NOT_MEASURED) {
            check(mark);
        }
    }

    /** Counts a call; true if it is one to measure: pass {@link #allocated()} before it to {@link #check} after. */
    boolean due() {
        if (++calls == next) {
            if (firstNanos == 0) {
                firstNanos = System.nanoTime();
            }
            return true;
        }
        return false;
    }

    /** The thread's allocated bytes so far, or -1 where the JVM does not count them. */
    static long allocated() {
        return Allocation.BEAN == null ? -1 : Allocation.BEAN.getCurrentThreadAllocatedBytes();
    }

    /** After a call {@link #due()} said to measure, with {@link #allocated()} from before it. */
    void check(long before) {
        check(before, System.nanoTime() - firstNanos);
    }

    /** {@link #check(long)} at {@code nanosSinceFirstCheck} after the first measured call (for the tests). */
    void check(long before, long nanosSinceFirstCheck) {
        next = next < DECISIVE ? next << 1 : next < LAST ? next + DECISIVE : Long.MAX_VALUE;
        if (before < 0) {
            return;
        }
        long bytes = allocated() - before;
        if (bytes > 0 && calls >= DECISIVE && nanosSinceFirstCheck >= DECISIVE_NANOS && on.on) {
            on.on = false;
            logger.warn("CURVE: {} on the Vector API allocated {} bytes in one call after {} calls: the JIT compiled "
                    + "it without the API's intrinsics (seen with JDK 17). Turned off for this JVM; {} continues "
                    + "on the portable code.", core, bytes, calls, core);
        }
    }

    /** A core's state, shared by the threads' watches: on until one of them sees it allocate. */
    static final class Switch {
        volatile boolean on = true;
    }

    /** Loaded at the first check: the allocation counter of HotSpot's thread bean, where there is one. */
    private static final class Allocation {
        static final com.sun.management.ThreadMXBean BEAN = bean();

        private static com.sun.management.ThreadMXBean bean() {
            try {
                if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean) {
                    com.sun.management.ThreadMXBean bean =
                            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                    if (bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
                        return bean;
                    }
                }
            } catch (LinkageError | RuntimeException e) {
                logger.debug("no allocation counter for the Vector API watch", e);
            }
            return null;
        }
    }
}
