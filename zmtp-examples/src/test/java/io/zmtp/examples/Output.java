package io.zmtp.examples;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** An example's standard output, line by line, as a test reads it. */
public final class Output {
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();
    private final PrintStream stream = new PrintStream(new OutputStream() {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                String s = line.toString(StandardCharsets.UTF_8);
                line.reset();
                lines.add(s);
                synchronized (all) {
                    all.add(s);
                }
            } else {
                line.write(b);
            }
        }
    }, true, StandardCharsets.UTF_8);

    public PrintStream stream() {
        return stream;
    }

    /** The next line that matches, waiting up to {@code wait} for it; fails if none comes. */
    public String await(Predicate<String> matching, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        for (;;) {
            String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("no such line within " + wait + "; output so far:\n" + String.join("\n", all()));
            }
            if (matching.test(line)) {
                return line;
            }
        }
    }

    /** Every line printed so far. */
    public List<String> all() {
        synchronized (all) {
            return new ArrayList<>(all);
        }
    }
}
