package io.zmtp.examples.echo;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replies counted per client, printed once a second per client and in total, packets/s and bytes/s. Each client's
 * counters are written by that client's thread (or event loop) only and read by the printing thread.
 */
public final class EchoStats {
    /** One client's counts. */
    public static final class Counter {
        private final AtomicLong packets = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();
        private long lastPackets;
        private long lastBytes;

        /** A reply of {@code size} bytes arrived. One writer: no atomic read-modify-write needed. */
        void add(int size) {
            packets.lazySet(packets.get() + 1);
            bytes.lazySet(bytes.get() + size);
        }
    }

    private final Counter[] counters;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private long lastNanos = startNanos;
    private long totalPackets;
    private long totalBytes;
    /** Totals at the end of seconds 2 and 5, where the average starts (warm-up excluded). */
    private final long[] warmPackets = new long[2];
    private final long[] warmBytes = new long[2];
    private final long[] warmNanos = new long[2];
    private int seconds;

    EchoStats(int clients, PrintStream out) {
        this.counters = new Counter[clients];
        for (int i = 0; i < clients; i++) {
            counters[i] = new Counter();
        }
        this.out = out;
    }

    Counter client(int index) {
        return counters[index];
    }

    long startNanos() {
        return startNanos;
    }

    /** Prints the lines of the second that just ended. */
    void printSecond() {
        long now = System.nanoTime();
        double elapsed = (now - lastNanos) / 1e9;
        seconds++;
        long sumPackets = 0;
        long sumBytes = 0;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < counters.length; i++) {
            Counter c = counters[i];
            long p = c.packets.get();
            long b = c.bytes.get();
            lines.append(String.format("%3ds client %2d: %,10.0f packets/s %,14.0f bytes/s%n", seconds, i + 1,
                    (p - c.lastPackets) / elapsed, (b - c.lastBytes) / elapsed));
            sumPackets += p - c.lastPackets;
            sumBytes += b - c.lastBytes;
            c.lastPackets = p;
            c.lastBytes = b;
        }
        totalPackets += sumPackets;
        totalBytes += sumBytes;
        lines.append(String.format("%3ds total    : %,10.0f packets/s %,14.0f bytes/s%n", seconds,
                sumPackets / elapsed, sumBytes / elapsed));
        out.print(lines);
        out.flush();
        lastNanos = now;
        if (seconds == 2 || seconds == 5) {
            int i = seconds == 2 ? 0 : 1;
            warmPackets[i] = totalPackets;
            warmBytes[i] = totalBytes;
            warmNanos[i] = now;
        }
    }

    /**
     * The run's last line: the average rate, leaving out the warm-up (the JIT compiling, connections starting): the
     * first two seconds of a run of 5 s or more, the first five of a run of 15 s or more.
     */
    String summary() {
        int warm = seconds >= 15 ? 1 : seconds >= 5 ? 0 : -1;
        long packets = warm >= 0 ? totalPackets - warmPackets[warm] : totalPackets;
        long bytes = warm >= 0 ? totalBytes - warmBytes[warm] : totalBytes;
        double elapsed = (lastNanos - (warm >= 0 ? warmNanos[warm] : startNanos)) / 1e9;
        if (elapsed <= 0) {
            return "no whole second measured";
        }
        String over = warm < 0 ? seconds + " s"
                : "seconds " + (warm == 0 ? 3 : 6) + " to " + seconds + " (warm-up left out)";
        return String.format("average %,.0f packets/s %,.0f bytes/s over %s; %,d replies in all",
                packets / elapsed, bytes / elapsed, over, totalPackets);
    }
}
