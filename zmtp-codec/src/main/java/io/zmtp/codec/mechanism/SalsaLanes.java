package io.zmtp.codec.mechanism;

import java.util.Arrays;

/**
 * The Salsa20 core on many blocks at once, laid out so that HotSpot's auto-vectorizer (SuperWord) turns it into SIMD
 * code: word {@code k} of block {@code l} is {@code words[k][l]}, and each quarter-round is one loop over the
 * blocks ({@link #quarterRound}: load {@code x0[l], x4[l], x8[l], x12[l]}, the four steps, store), which C2 compiles
 * to vector loads, adds, rotates, XORs and stores, 8 or 16 blocks per instruction. Scalar Java can't go below about
 * 1.6 ns per byte of key stream (the 16-word state does not fit the registers); this runs at about a third of that
 * from 128 blocks on, but each loop's set-up costs as much as a few blocks, so it pays most for long streams
 * (measured, thread CPU per byte: 1.3x the scalar core at 16 blocks, 2x at 32, 2.6x at 64, 3.2x at 256):
 * {@link SalsaStream} uses it from {@link #MIN_LANES} blocks on. Where the JVM has the Vector API (an incubator
 * module, resolved only with {@code --add-modules jdk.incubator.vector}), long streams run the rounds on it instead
 * ({@link SalsaVectorCore}, the words in registers across the rounds), and the write-out below is shared.
 *
 * <p>The 8 quarter-rounds of a double round are a table walked by one call site, not 8 loops written out: written
 * out (the steps as 32 loops, in round 3), the method took C2 seconds to compile (each vectorized loop with its pre-
 * and post-loop) and ran in C1's code meanwhile, which a loaded machine turned into minutes. One small loop compiles
 * at once. (A whole column or row round in one loop, 16 words live, ran no faster and compiled slower.)
 *
 * <p>Each lane has its own nonce and block counter (input words 6-9), so one call makes either one long stream
 * ({@link #blocks}) or the first blocks of several boxes' streams ({@link #boxes}: a CurveZMQ direction's next short
 * nonces, which is how a 1 KiB box, 17 blocks, gets the wide core; see {@link KeyStreamAhead}).
 *
 * <p>One per I/O thread ({@link SalsaStream} keeps it in a thread local, 20 KiB); nothing allocated per use. Its
 * words are zeroed after each call: they are the key stream just written out, which only the caller may keep.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class SalsaLanes {
    /** The most blocks made per call. */
    static final int MAX_LANES = 256;
    /** The fewest blocks worth making this way (16 blocks: 1.3 ns/B against the scalar core's 1.75). */
    static final int MIN_LANES = 16;
    /**
     * The fewest blocks (4 KiB of stream) for which the Vector API core is used, where it is on: until the JIT has
     * compiled that core, each of its calls is many times slower than the loops and allocates
     * (docs/performance-notes.md, CURVE round 6), which small-message streams paid in their first seconds (cold runs
     * of 64 B and 1 KiB boxes 7-9% slower) for no gain later (1 KiB level in steady state). Large boxes pay it over
     * their first few dozen messages.
     */
    static final int VECTOR_MIN_BLOCKS = 64;

    /**
     * A double round's 8 quarter-rounds {@code (a, b, c, d)}: the columns, then the rows, each
     * {@code b ^= (a+d)<<<7; c ^= (b+a)<<<9; d ^= (c+b)<<<13; a ^= (d+c)<<<18}.
     */
    private static final int[] QUARTERS = {0, 4, 8, 12, 5, 9, 13, 1, 10, 14, 2, 6, 15, 3, 7, 11,
        0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14};

    /** Word {@code k} of lane {@code l} is {@code words[k][l]} (package-private for the tests). */
    final int[][] words = new int[16][MAX_LANES];
    /** Blocks per {@link SalsaVectorCore} group, or 0 for the auto-vectorized loops. */
    private final int vectorLanes;
    private final VectorWatch watch = VectorWatch.salsa();
    /** Each lane's nonce (words 6, 7) and block counter (words 8, 9): the input words that differ between lanes. */
    private final int[] nonceLo = new int[MAX_LANES];
    private final int[] nonceHi = new int[MAX_LANES];
    private final int[] counterLo = new int[MAX_LANES];
    private final int[] counterHi = new int[MAX_LANES];

    /** The rounds on the Vector API where {@link CurveVectors} found it, else on the auto-vectorized loops. */
    SalsaLanes() {
        this(CurveVectors.SALSA_LANES > 0);
    }

    /**
     * {@code vector}: the rounds on the Vector API ({@link SalsaVectorCore}), which must then be available (tests
     * run both cores side by side), or on the auto-vectorized loops.
     */
    SalsaLanes(boolean vector) {
        if (vector && CurveVectors.SALSA_LANES == 0) {
            throw new IllegalStateException("the Vector API is not available: start the JVM with --add-modules "
                    + CurveVectors.MODULE);
        }
        vectorLanes = vector ? CurveVectors.SALSA_LANES : 0;
    }

    /**
     * Writes {@code blocks} (at most {@link #MAX_LANES}) blocks of the stream whose input block is {@code state}
     * into {@code keyStream} from index 0, eight little-endian longs per block, the block counter (words 8 and 9)
     * counting up from {@code state}'s; {@code state} itself is not changed.
     */
    void blocks(int[] state, int blocks, long[] keyStream) {
        long counter = (state[8] & 0xFFFFFFFFL) | ((long) state[9] << 32);
        for (int l = 0; l < blocks; l++) {
            long c = counter + l;
            nonceLo[l] = state[6];
            nonceHi[l] = state[7];
            counterLo[l] = (int) c;
            counterHi[l] = (int) (c >>> 32);
        }
        run(state, blocks, keyStream, vectorLanes > 0 && blocks >= VECTOR_MIN_BLOCKS && watch.on());
    }

    /**
     * Writes the first {@code blocksPerBox} blocks of the streams of {@code boxes} consecutive short nonces from
     * {@code firstNonce} (network order, as {@link SalsaStream#start} takes them) into {@code keyStream} from index 0:
     * box {@code i}'s block {@code j} is lane {@code i * blocksPerBox + j}, eight longs from {@code 8 * lane}. The
     * key and constants are {@code state}'s; {@code boxes * blocksPerBox} is at most {@link #MAX_LANES}.
     */
    void boxes(int[] state, long firstNonce, int boxes, int blocksPerBox, long[] keyStream) {
        int l = 0;
        for (int i = 0; i < boxes; i++) {
            long nonce = firstNonce + i;
            int lo = Integer.reverseBytes((int) (nonce >>> 32));
            int hi = Integer.reverseBytes((int) nonce);
            for (int j = 0; j < blocksPerBox; j++, l++) {
                nonceLo[l] = lo;
                nonceHi[l] = hi;
                counterLo[l] = j;
                counterHi[l] = 0;
            }
        }
        // The loops even where the Vector API is on: these calls serve boxes below 4 KiB (see VECTOR_MIN_BLOCKS).
        run(state, l, keyStream, false);
    }

    /**
     * The core on {@code n} lanes: {@code state}'s words, but words 6-9 from the per-lane arrays; the rounds on the
     * Vector API if {@code vector}, else on the loops.
     */
    private void run(int[] state, int n, long[] keyStream, boolean vector) {
        int[][] x = words;
        int computed = n;
        if (vector) {
            long mark = watch.begin();
            // Whole groups: the last may run past n into lanes left from earlier calls (the arrays hold MAX_LANES, a
            // multiple of the group); their words are never written out.
            int from = 0;
            for (; from < n; from += vectorLanes) {
                SalsaVectorCore.group(state, nonceLo, nonceHi, counterLo, counterHi, from, x);
            }
            watch.end(mark);
            computed = from;
        } else {
            loops(state, n, x);
        }
        writeOut(x, n, keyStream);
        // The words are the key stream too (and the past-n lanes of a group key stream of nonces that may be used):
        // the caller decides how long its copy lives, this one goes now. 64 bytes a block, as written out.
        for (int k = 0; k < 16; k++) {
            Arrays.fill(x[k], 0, computed, 0);
        }
    }

    /** The rounds and the input added back, as auto-vectorized loops over the lanes. */
    private void loops(int[] state, int n, int[][] x) {
        for (int k = 0; k < 16; k++) {
            if (k < 6 || k > 9) {
                Arrays.fill(x[k], 0, n, state[k]);
            }
        }
        System.arraycopy(nonceLo, 0, x[6], 0, n);
        System.arraycopy(nonceHi, 0, x[7], 0, n);
        System.arraycopy(counterLo, 0, x[8], 0, n);
        System.arraycopy(counterHi, 0, x[9], 0, n);
        for (int r = 0; r < 10; r++) {
            for (int q = 0; q < 32; q += 4) {
                quarterRound(x[QUARTERS[q]], x[QUARTERS[q + 1]], x[QUARTERS[q + 2]], x[QUARTERS[q + 3]], n);
            }
        }
        // The core's output is the rounds' result plus the input block: added word by word over the lanes (vector adds).
        for (int k = 0; k < 16; k++) {
            if (k < 6 || k > 9) {
                addTo(x[k], state[k], n);
            }
        }
        addTo(x[6], nonceLo, n);
        addTo(x[7], nonceHi, n);
        addTo(x[8], counterLo, n);
        addTo(x[9], counterHi, n);
    }

    /** Each lane's 16 output words as its 8 little-endian longs, lane after lane, so the stores are sequential. */
    private static void writeOut(int[][] x, int n, long[] keyStream) {
        int[] w0 = x[0];
        int[] w1 = x[1];
        int[] w2 = x[2];
        int[] w3 = x[3];
        int[] w4 = x[4];
        int[] w5 = x[5];
        int[] w6 = x[6];
        int[] w7 = x[7];
        int[] w8 = x[8];
        int[] w9 = x[9];
        int[] w10 = x[10];
        int[] w11 = x[11];
        int[] w12 = x[12];
        int[] w13 = x[13];
        int[] w14 = x[14];
        int[] w15 = x[15];
        for (int l = 0, at = 0; l < n; l++, at += 8) {
            keyStream[at] = (w0[l] & 0xFFFFFFFFL) | ((long) w1[l] << 32);
            keyStream[at + 1] = (w2[l] & 0xFFFFFFFFL) | ((long) w3[l] << 32);
            keyStream[at + 2] = (w4[l] & 0xFFFFFFFFL) | ((long) w5[l] << 32);
            keyStream[at + 3] = (w6[l] & 0xFFFFFFFFL) | ((long) w7[l] << 32);
            keyStream[at + 4] = (w8[l] & 0xFFFFFFFFL) | ((long) w9[l] << 32);
            keyStream[at + 5] = (w10[l] & 0xFFFFFFFFL) | ((long) w11[l] << 32);
            keyStream[at + 6] = (w12[l] & 0xFFFFFFFFL) | ((long) w13[l] << 32);
            keyStream[at + 7] = (w14[l] & 0xFFFFFFFFL) | ((long) w15[l] << 32);
        }
    }

    private static void addTo(int[] words, int add, int n) {
        for (int l = 0; l < n; l++) {
            words[l] += add;
        }
    }

    private static void addTo(int[] words, int[] add, int n) {
        for (int l = 0; l < n; l++) {
            words[l] += add[l];
        }
    }

    /**
     * One quarter-round on {@code n} blocks: four words loaded, four steps in registers, four stored (a loop per step
     * loads and stores 16 times per quarter-round, and ran at 0.65-0.70 ns per byte of key stream against 0.43-0.45
     * for this, 256 blocks, same machine and load).
     */
    private static void quarterRound(int[] a, int[] b, int[] c, int[] d, int n) {
        for (int l = 0; l < n; l++) {
            int va = a[l];
            int vb = b[l];
            int vc = c[l];
            int vd = d[l];
            vb ^= Integer.rotateLeft(va + vd, 7);
            vc ^= Integer.rotateLeft(vb + va, 9);
            vd ^= Integer.rotateLeft(vc + vb, 13);
            va ^= Integer.rotateLeft(vd + vc, 18);
            a[l] = va;
            b[l] = vb;
            c[l] = vc;
            d[l] = vd;
        }
    }
}
