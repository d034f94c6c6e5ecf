package io.zmtp.socket;

import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** What the stress tests share: threads that report what they throw instead of dying quietly, and random stalls. */
final class StressThreads {
    private StressThreads() {
    }

    /** Starts {@code body} on a thread named {@code name}; whatever it throws is added to {@code errors}. */
    static Thread start(String name, Runnable body, Collection<String> errors) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                errors.add(name + ": " + e);
            }
        }, name);
        t.start();
        return t;
    }

    /**
     * Once in {@code oneIn} calls, parks for up to 2 ms: long enough for writers to fill what lies between them and
     * a reader that calls this, and wait for room.
     */
    static void maybeStall(int oneIn) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (r.nextInt(oneIn) == 0) {
            LockSupport.parkNanos(r.nextLong(TimeUnit.MILLISECONDS.toNanos(2)));
        }
    }
}
