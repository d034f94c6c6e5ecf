package io.zmtp.testkit;

import java.time.Duration;

/**
 * How long the tests wait for what should happen, scaled for the machine they run on: the one place where the suite's
 * deadlines grow on a slow or busy machine.
 *
 * <p>A deadline here is how long a test waits for something that will happen (a message, a connection, a process
 * that ends) before it gives up and fails: on a quiet machine it is never reached, so multiplying it only changes
 * how long a failing test takes to say so. Run with {@code -Dzmtp.test.timeoutScale=3} (the root pom passes it to
 * every test JVM; the default is 1) to give everything three times as long. {@link ScaledTimeoutExtension} applies the
 * same factor to every {@code @Timeout}.
 *
 * <p>Not for durations that are the behaviour under test: a heartbeat's TTL, a socket's receive timeout whose expiry
 * the test asserts, or how long a test watches to see that nothing arrives. Scaling those would change what the test
 * checks, or only make it slower.
 */
public final class TestTimeouts {
    /** The system property that holds the factor (a positive number, 1 if unset). */
    public static final String SCALE_PROPERTY = "zmtp.test.timeoutScale";

    private static final double SCALE = parseScale(System.getProperty(SCALE_PROPERTY));

    private TestTimeouts() {
    }

    /** The factor every deadline is multiplied by. */
    public static double scale() {
        return SCALE;
    }

    /** {@code deadline} times the factor. */
    public static Duration scaled(Duration deadline) {
        return scaled(deadline, SCALE);
    }

    static Duration scaled(Duration deadline, double scale) {
        return scale == 1 ? deadline : Duration.ofNanos(Math.round(deadline.toNanos() * scale));
    }

    /** {@code millis} times the factor, for APIs that take milliseconds. */
    public static long scaledMillis(long millis) {
        return Math.round(millis * SCALE);
    }

    /** {@code seconds} times the factor (rounded), for APIs that take a count and a {@code TimeUnit}. */
    public static long scaledSeconds(long seconds) {
        return Math.round(seconds * SCALE);
    }

    static double parseScale(String value) {
        if (value == null || value.isBlank()) {
            return 1;
        }
        double scale;
        try {
            scale = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SCALE_PROPERTY + ": " + value + " (expected: a positive number)", e);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException(SCALE_PROPERTY + ": " + value + " (expected: a positive number)");
        }
        return scale;
    }
}
