package io.zmtp.codec.mechanism;

import java.util.Arrays;

/**
 * <b>The benchmark's baseline, not used by the codec:</b> {@code SalsaLanes} as round 3 of issue 27 left it (commit
 * ccabb28), for {@link Round3MessageBoxer}.
 *
 * <p>The Salsa20 core on many blocks at once, laid out so that HotSpot's auto-vectorizer (SuperWord) turns it into SIMD
 * code: word {@code k} of block {@code l} is {@code words[k][l]}, and each step of a quarter-round is one loop over
 * the blocks ({@code x4[l] ^= rotl(x0[l] + x12[l], 7)} for every {@code l}, {@link #step}), which C2 compiles to
 * vector adds, rotates and XORs, 8 or 16 blocks per instruction. Scalar Java can't go below about 1.6 ns per byte of
 * key stream (the 16-word state does not fit the registers); this runs at about a third of that from 256 blocks on,
 * but each loop's set-up costs as much as a few blocks, so it pays only for long streams (measured: it loses at 16
 * blocks, breaks even near 32, is 1.6x at 64 and 3x at 256): {@link SalsaStream} uses it from {@link #MIN_LANES}
 * blocks on. The Vector API would say this outright, but it is an incubator module and the build is
 * {@code --release 17}.
 *
 * <p>The 32 steps of a double round are a table walked by one call site, not 32 loops written out: written out, the
 * method took C2 seconds to compile (32 vectorized loops, each with its pre- and post-loop) and ran in C1's code
 * meanwhile, which a loaded machine turned into minutes. One small loop compiles at once.
 *
 * <p>One per I/O thread ({@link SalsaStream} keeps it in a thread local, 16 KiB); nothing allocated per use.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class Round3SalsaLanes {
    /** The most blocks made per call. */
    static final int MAX_LANES = 256;
    /** The fewest blocks worth making this way. */
    static final int MIN_LANES = 64;

    /**
     * A double round's 32 steps, {@code words[TARGET] ^= rotl(words[A] + words[B], ROTATE)}: the quarter-rounds of
     * the columns (0 4 8 12, 5 9 13 1, 10 14 2 6, 15 3 7 11), then of the rows (0 1 2 3, 5 6 7 4, 10 11 8 9,
     * 15 12 13 14), each {@code b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18}.
     */
    private static final int[] TARGET = new int[32];
    private static final int[] A = new int[32];
    private static final int[] B = new int[32];
    private static final int[] ROTATE = new int[32];

    static {
        int[][] quarters = {{0, 4, 8, 12}, {5, 9, 13, 1}, {10, 14, 2, 6}, {15, 3, 7, 11},
            {0, 1, 2, 3}, {5, 6, 7, 4}, {10, 11, 8, 9}, {15, 12, 13, 14}};
        int s = 0;
        for (int[] q : quarters) {
            int a = q[0];
            int b = q[1];
            int c = q[2];
            int d = q[3];
            int[][] steps = {{b, a, d, 7}, {c, b, a, 9}, {d, c, b, 13}, {a, d, c, 18}};
            for (int[] step : steps) {
                TARGET[s] = step[0];
                A[s] = step[1];
                B[s] = step[2];
                ROTATE[s] = step[3];
                s++;
            }
        }
    }

    private final int[][] words = new int[16][MAX_LANES];

    /**
     * Writes {@code blocks} (at most {@link #MAX_LANES}) blocks of the stream whose input block is {@code state}
     * into {@code keyStream} from index 0, eight little-endian longs per block, the block counter (words 8 and 9)
     * counting up from {@code state}'s; {@code state} itself is not changed.
     */
    void blocks(int[] state, int blocks, long[] keyStream) {
        int n = blocks;
        int[][] x = words;
        long counter = (state[8] & 0xFFFFFFFFL) | ((long) state[9] << 32);
        for (int k = 0; k < 16; k++) {
            Arrays.fill(x[k], 0, n, state[k]);
        }
        int[] x8 = x[8];
        int[] x9 = x[9];
        for (int l = 0; l < n; l++) {
            long c = counter + l;
            x8[l] = (int) c;
            x9[l] = (int) (c >>> 32);
        }
        for (int r = 0; r < 10; r++) {
            for (int s = 0; s < 32; s++) {
                step(x[TARGET[s]], x[A[s]], x[B[s]], ROTATE[s], n);
            }
        }
        // The core's output is the rounds' result plus the input block.
        for (int k = 0; k < 16; k += 2) {
            int[] lo = x[k];
            int[] hi = x[k + 1];
            int inLo = state[k];
            int inHi = state[k + 1];
            for (int l = 0, at = k >> 1; l < n; l++, at += 8) {
                long c = counter + l;
                int addLo = k == 8 ? (int) c : inLo;
                int addHi = k == 8 ? (int) (c >>> 32) : inHi;
                keyStream[at] = ((lo[l] + addLo) & 0xFFFFFFFFL) | ((long) (hi[l] + addHi) << 32);
            }
        }
    }

    /** One step of a quarter-round on {@code n} blocks. */
    private static void step(int[] target, int[] a, int[] b, int rotate, int n) {
        for (int l = 0; l < n; l++) {
            target[l] ^= Integer.rotateLeft(a[l] + b[l], rotate);
        }
    }
}
