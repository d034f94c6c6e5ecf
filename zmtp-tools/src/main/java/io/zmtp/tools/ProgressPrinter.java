package io.zmtp.tools;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Prints one line per second in the form of Spotify netty-zmtp's benchmarks:
 * {@code 3s:    7,158,176 messages/s.    (total:   17,154,830)}.
 */
public final class ProgressPrinter {
    private final PrintStream out;
    private final LongSupplier counter;
    private long lastTotal;
    private long lastNanos;
    private final long startNanos;

    public ProgressPrinter(PrintStream out, LongAdder counter) {
        this(out, counter::sum);
    }

    /** {@code counter} is read once a second from the printing thread. */
    public ProgressPrinter(PrintStream out, LongSupplier counter) {
        this.out = out;
        this.counter = counter;
        this.startNanos = System.nanoTime();
        this.lastNanos = startNanos;
    }

    /** Sleeps until the next whole second since the start, then prints that second's line. Returns the rate. */
    public long awaitAndPrint(String suffix) throws InterruptedException {
        return awaitAndPrint(rate -> suffix);
    }

    /** As {@link #awaitAndPrint(String)}, with a suffix computed from the second's rate. */
    public long awaitAndPrint(LongFunction<String> suffix) throws InterruptedException {
        long second = (lastNanos - startNanos) / 1_000_000_000L + 1;
        long deadline = startNanos + second * 1_000_000_000L;
        long wait;
        while ((wait = deadline - System.nanoTime()) > 0) {
            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
        }
        long now = System.nanoTime();
        long total = counter.getAsLong();
        long rate = Math.round((total - lastTotal) * 1e9 / (now - lastNanos));
        out.printf("%ds:%,13d messages/s.    (total:%,13d)%s%n", second, rate, total, suffix.apply(rate));
        out.flush();
        lastTotal = total;
        lastNanos = now;
        return rate;
    }

    /**
     * Starts a daemon thread printing a line each second until {@link Thread#interrupt()}; the first line comes after
     * a full second, so runs shorter than that print none.
     */
    public static Thread startBackground(PrintStream out, LongSupplier counter, LongFunction<String> suffix) {
        ProgressPrinter printer = new ProgressPrinter(out, counter);
        Thread t = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    printer.awaitAndPrint(suffix);
                }
            } catch (InterruptedException e) {
                // done
            }
        }, "zmtp-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Prints a line a second for {@code seconds} seconds with the request rate and that second's average latency, then
     * the averages over the run: the output of the request/reply benchmarks.
     */
    public static void printRequestRates(PrintStream out, int seconds, LongAdder replies, LongAdder latencyNanos)
            throws InterruptedException {
        ProgressPrinter printer = new ProgressPrinter(out, replies);
        long[] last = new long[2];
        long sum = 0;
        for (int s = 0; s < seconds; s++) {
            sum += printer.awaitAndPrint(rate -> {
                long n = replies.sum();
                long ns = latencyNanos.sum();
                double avg = n == last[0] ? 0 : (ns - last[1]) / 1000.0 / (n - last[0]);
                last[0] = n;
                last[1] = ns;
                return String.format("    average latency: %,.1f us", avg);
            });
        }
        out.printf("average: %,d requests/s over %d s; average latency: %,.1f us%n", sum / seconds, seconds,
                replies.sum() == 0 ? 0.0 : latencyNanos.sum() / 1000.0 / replies.sum());
    }
}
