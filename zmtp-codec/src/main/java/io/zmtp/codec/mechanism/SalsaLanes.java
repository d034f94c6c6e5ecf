package io.zmtp.codec.mechanism;

/**
 * The Salsa20 core on many blocks at once, laid out so that HotSpot's auto-vectorizer (SuperWord) turns it into SIMD
 * code: word {@code k} of block {@code l} is {@code xk[l]}, and each step of a quarter-round is a loop over the
 * blocks ({@code x4[l] ^= rotl(x0[l] + x12[l], 7)} for every {@code l}), which C2 compiles to vector adds, rotates
 * and XORs, 8 or 16 blocks per instruction. Scalar Java can't go below about 1.6 ns per byte of key stream (the
 * 16-word state does not fit the registers); this runs at about a third of that from 256 blocks on, but each loop's
 * set-up costs as much as a few blocks, so it pays only for long streams (measured: it loses at 16 blocks, breaks even
 * near 32 and is 1.7x at 64): {@link SalsaStream} uses it from {@link #MIN_LANES} blocks on. The Vector API would
 * say this outright, but it is an incubator module and the build is {@code --release 17}.
 *
 * <p>One per I/O thread ({@link SalsaStream} keeps it in a thread local, 16 KiB); nothing allocated per use.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class SalsaLanes {
    /** The most blocks made per call. */
    static final int MAX_LANES = 256;
    /** The fewest blocks worth making this way. */
    static final int MIN_LANES = 64;

    private final int[] x0 = new int[MAX_LANES];
    private final int[] x1 = new int[MAX_LANES];
    private final int[] x2 = new int[MAX_LANES];
    private final int[] x3 = new int[MAX_LANES];
    private final int[] x4 = new int[MAX_LANES];
    private final int[] x5 = new int[MAX_LANES];
    private final int[] x6 = new int[MAX_LANES];
    private final int[] x7 = new int[MAX_LANES];
    private final int[] x8 = new int[MAX_LANES];
    private final int[] x9 = new int[MAX_LANES];
    private final int[] x10 = new int[MAX_LANES];
    private final int[] x11 = new int[MAX_LANES];
    private final int[] x12 = new int[MAX_LANES];
    private final int[] x13 = new int[MAX_LANES];
    private final int[] x14 = new int[MAX_LANES];
    private final int[] x15 = new int[MAX_LANES];
    /** The same arrays by word number. */
    private final int[][] words = {x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15};

    /**
     * Writes {@code blocks} (at most {@link #MAX_LANES}) blocks of the stream whose input block is {@code state}
     * into {@code keyStream} from index 0, eight little-endian longs per block, the block counter (words 8 and 9)
     * counting up from {@code state}'s; {@code state} itself is not changed.
     */
    void blocks(int[] state, int blocks, long[] keyStream) {
        int n = blocks;
        long counter = (state[8] & 0xFFFFFFFFL) | ((long) state[9] << 32);
        int[][] words = this.words;
        for (int k = 0; k < 16; k++) {
            java.util.Arrays.fill(words[k], 0, n, state[k]);
        }
        for (int l = 0; l < n; l++) {
            long c = counter + l;
            x8[l] = (int) c;
            x9[l] = (int) (c >>> 32);
        }
        rounds(n);
        for (int l = 0; l < n; l++) {
            long c = counter + l;
            int at = 8 * l;
            for (int k = 0; k < 16; k += 2) {
                int lo = words[k][l] + (k == 8 ? (int) c : state[k]);
                int hi = words[k + 1][l] + (k == 8 ? (int) (c >>> 32) : state[k + 1]);
                keyStream[at + (k >> 1)] = (lo & 0xFFFFFFFFL) | ((long) hi << 32);
            }
        }
    }

    /** Ten double rounds: a column round, then a row round, each step a loop over the {@code n} blocks. */
    private void rounds(int n) {
        int[] x0 = this.x0; int[] x1 = this.x1; int[] x2 = this.x2; int[] x3 = this.x3;
        int[] x4 = this.x4; int[] x5 = this.x5; int[] x6 = this.x6; int[] x7 = this.x7;
        int[] x8 = this.x8; int[] x9 = this.x9; int[] x10 = this.x10; int[] x11 = this.x11;
        int[] x12 = this.x12; int[] x13 = this.x13; int[] x14 = this.x14; int[] x15 = this.x15;
        for (int r = 0; r < 10; r++) {
            // Column round.
            for (int l = 0; l < n; l++) {
                x4[l] ^= Integer.rotateLeft(x0[l] + x12[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x8[l] ^= Integer.rotateLeft(x4[l] + x0[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x12[l] ^= Integer.rotateLeft(x8[l] + x4[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x0[l] ^= Integer.rotateLeft(x12[l] + x8[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x9[l] ^= Integer.rotateLeft(x5[l] + x1[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x13[l] ^= Integer.rotateLeft(x9[l] + x5[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x1[l] ^= Integer.rotateLeft(x13[l] + x9[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x5[l] ^= Integer.rotateLeft(x1[l] + x13[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x14[l] ^= Integer.rotateLeft(x10[l] + x6[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x2[l] ^= Integer.rotateLeft(x14[l] + x10[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x6[l] ^= Integer.rotateLeft(x2[l] + x14[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x10[l] ^= Integer.rotateLeft(x6[l] + x2[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x3[l] ^= Integer.rotateLeft(x15[l] + x11[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x7[l] ^= Integer.rotateLeft(x3[l] + x15[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x11[l] ^= Integer.rotateLeft(x7[l] + x3[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x15[l] ^= Integer.rotateLeft(x11[l] + x7[l], 18);
            }
            // Row round.
            for (int l = 0; l < n; l++) {
                x1[l] ^= Integer.rotateLeft(x0[l] + x3[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x2[l] ^= Integer.rotateLeft(x1[l] + x0[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x3[l] ^= Integer.rotateLeft(x2[l] + x1[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x0[l] ^= Integer.rotateLeft(x3[l] + x2[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x6[l] ^= Integer.rotateLeft(x5[l] + x4[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x7[l] ^= Integer.rotateLeft(x6[l] + x5[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x4[l] ^= Integer.rotateLeft(x7[l] + x6[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x5[l] ^= Integer.rotateLeft(x4[l] + x7[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x11[l] ^= Integer.rotateLeft(x10[l] + x9[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x8[l] ^= Integer.rotateLeft(x11[l] + x10[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x9[l] ^= Integer.rotateLeft(x8[l] + x11[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x10[l] ^= Integer.rotateLeft(x9[l] + x8[l], 18);
            }
            for (int l = 0; l < n; l++) {
                x12[l] ^= Integer.rotateLeft(x15[l] + x14[l], 7);
            }
            for (int l = 0; l < n; l++) {
                x13[l] ^= Integer.rotateLeft(x12[l] + x15[l], 9);
            }
            for (int l = 0; l < n; l++) {
                x14[l] ^= Integer.rotateLeft(x13[l] + x12[l], 13);
            }
            for (int l = 0; l < n; l++) {
                x15[l] ^= Integer.rotateLeft(x14[l] + x13[l], 18);
            }
        }
    }
}
