package io.zmtp.tools.soak;

import java.util.BitSet;

/**
 * Which sequence numbers arrived, how many arrived more than once, and where the holes are. Thread-safe: the peer's
 * report reader or the soak's receiver records, the soak reads.
 */
final class SequenceLedger {
    private final BitSet received = new BitSet();
    private long unique;
    private long duplicates;

    synchronized void record(long first, long last) {
        for (long n = first; n <= last; n++) {
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("sequence number out of range: " + n);
            }
            if (received.get((int) n)) {
                duplicates++;
            } else {
                received.set((int) n);
                unique++;
            }
        }
    }

    synchronized long unique() {
        return unique;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    /** Runs of numbers in {@code [0, sent)} that never arrived: their count and the longest. */
    synchronized long[] gaps(long sent) {
        long count = 0;
        long longest = 0;
        int n = 0;
        while (n < sent) {
            int hole = received.nextClearBit(n);
            if (hole >= sent) {
                break;
            }
            int end = (int) Math.min(sent, received.nextSetBit(hole) < 0 ? sent : received.nextSetBit(hole));
            count++;
            longest = Math.max(longest, end - hole);
            n = end;
        }
        return new long[] {count, longest};
    }
}
