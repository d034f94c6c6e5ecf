package io.zmtp.codec.mechanism;

import java.util.Arrays;

/**
 * Poly1305 over many blocks at once on the Vector API ({@link Poly1305VectorCore}), for the long runs of whole blocks
 * in a box; {@link Poly1305Mac} keeps the key, the blocks before and after, and the tag. Used only where
 * {@link CurveVectors#MAC_LANES} is not 0.
 *
 * <p><b>Lanes.</b> With {@code K} lanes, lane {@code j} takes blocks {@code j, K + j, 2K + j, ...} of the run and
 * steps {@code h_j = (h_j + block) * r^K}, except at the run's last step, where it multiplies by {@code r^(K - j)}.
 * Block {@code i} of a run of {@code T} steps then ends up multiplied by {@code r^(KT - i)}, as in the MAC's own
 * Horner steps, so the lanes' sum is what the MAC would have after the run. What the MAC had before it is added to
 * lane 0's first block (Horner adds it there too). Blocks are buffered, and a step is taken only once the next
 * group is there, so the last step is known to be the last.
 *
 * <p><b>Arithmetic.</b> Numbers mod {@code p = 2^130 - 5} are six limbs of 22 bits ({@code 2^132 = 20 mod p}), each a
 * double holding an integer, so a product's terms are exact and fused multiply-adds add them exactly: the powers of
 * {@code r} have limbs below 2^22 (times 20 for the wrapped terms: below 2^26.4); an accumulator's limbs stay within
 * 2^21 + 2^16.7 after the carries (lane 0 starts from the MAC's accumulator, limbs below 2^22), plus a block's limb
 * below 2^22, so each of the six terms of a product limb is below 2^49.4 and their sum below 2^52, under the 2^53
 * where doubles stop being exact. The carries round each limb to a multiple of 2^22 by adding and subtracting
 * 1.5 * 2^52 (exact below 2^51) and pass the quotient on, twice: after the first round a limb is within
 * 2^21 + 20 * 2^30, after the second within 2^21 + 20 * 2^12.3. The sum of the lanes is reduced in longs
 * ({@link #finish}), with a multiple of {@code p} added first so nothing is negative.
 *
 * <p><b>Timing.</b> No branch or index depends on the key or the data: the rounding is arithmetic on doubles that
 * hold integers (no subnormals), and the fold and reduction are fixed sequences of shifts and masks.
 *
 * <p>Checked against Bouncy Castle's Poly1305 on random keys, lengths and starting states, and at the arithmetic's edges
 * ({@code Poly1305MacTest}).
 * One per I/O thread ({@link MessageBoxer} keeps it in a thread local): a run starts and ends within one box.
 */
final class Poly1305Lanes {
    /**
     * Blocks buffered before the lanes take them, a group kept back: a multiple of the lane count ({@link CurveVectors}
     * uses the lanes only then).
     */
    static final int BUFFERED = 512;
    private static final long LIMB = (1L << 22) - 1;

    private final int lanes;
    /** The run's blocks not yet stepped, as two little-endian longs each. */
    final long[] m0 = new long[BUFFERED];
    final long[] m1 = new long[BUFFERED];
    /** Blocks in {@link #m0}/{@link #m1}. */
    int buffered;
    /** Limb {@code k} of lane {@code j} at {@code lanes * k + j}. */
    private final double[] h;
    /** {@code r^K}'s limbs, then {@code r^(K - j)}'s limb {@code k} for lane {@code j} at {@code lanes * k + j}. */
    private final double[] rStep = new double[6];
    private final double[] rLast;
    /** {@code r^1} to {@code r^K}, three limbs each, as {@link Poly1305Mac#powers} writes them. */
    private final long[] powers;
    private final long[] limbs = new long[6];
    private Poly1305Mac mac;
    private final VectorWatch watch = VectorWatch.mac();

    /** Only where {@link CurveVectors#MAC_LANES} is not 0: the lane count is the vector core's. */
    Poly1305Lanes() {
        lanes = Poly1305VectorCore.LANES;
        h = new double[6 * lanes];
        rLast = new double[6 * lanes];
        powers = new long[3 * lanes];
    }

    /** Whether the lanes are still on: off for the JVM once {@link VectorWatch} caught the core compiled wrong. */
    boolean on() {
        return watch.on();
    }

    /**
     * Starts a run of whole blocks that {@code mac} (keyed, with any blocks before the run absorbed) would otherwise
     * absorb one by one: feed them with {@link #m0}/{@link #m1}/{@link #buffered} and {@link #drain}, then
     * {@link #finish}.
     */
    void start(Poly1305Mac mac) {
        this.mac = mac;
        int k = lanes;
        mac.powers(powers, k);
        // r^K for every step but the last, r^(K - j) for lane j at the last.
        toLimbs(powers[3 * (k - 1)], powers[3 * (k - 1) + 1], powers[3 * (k - 1) + 2]);
        for (int i = 0; i < 6; i++) {
            rStep[i] = limbs[i];
        }
        for (int j = 0; j < k; j++) {
            int p = 3 * (k - 1 - j);
            toLimbs(powers[p], powers[p + 1], powers[p + 2]);
            for (int i = 0; i < 6; i++) {
                rLast[k * i + j] = limbs[i];
            }
        }
        Arrays.fill(h, 0);
        toLimbs(mac.h0(), mac.h1(), mac.h2());
        for (int i = 0; i < 6; i++) {
            h[k * i] = limbs[i];
        }
        buffered = 0;
    }

    /** Steps all buffered blocks but the last group (called when the buffer is full). */
    void drain() {
        int groups = buffered / lanes - 1;
        if (groups > 0) {
            Poly1305VectorCore.steps(h, m0, m1, 0, groups, rStep, false);
            int done = groups * lanes;
            int left = buffered - done;
            System.arraycopy(m0, done, m0, 0, left);
            System.arraycopy(m1, done, m1, 0, left);
            buffered = left;
        }
    }

    /**
     * Ends the run: the buffered groups stepped (the last with {@code r^(K - j)}), the lanes' sum put in the MAC, and
     * the blocks after the last whole group absorbed by the MAC itself.
     */
    void finish() {
        int k = lanes;
        int groups = buffered / k;
        long mark = watch.begin();
        if (groups > 1) {
            Poly1305VectorCore.steps(h, m0, m1, 0, groups - 1, rStep, false);
        }
        if (groups > 0) {
            Poly1305VectorCore.steps(h, m0, m1, (groups - 1) * k, 1, rLast, true);
        }
        watch.end(mark);
        // (No whole group: no step was taken, and lane 0 holds the MAC's accumulator as it was, the others 0.)
        fold();
        for (int i = groups * k; i < buffered; i++) {
            mac.block(m0[i], m1[i]);
        }
        buffered = 0;
        mac = null;
    }

    /** The lanes' sum, reduced below 2^130 + 2^110, into the MAC's accumulator. */
    private void fold() {
        int k = lanes;
        long[] l = limbs;
        for (int i = 0; i < 6; i++) {
            long sum = 0;
            for (int j = 0; j < k; j++) {
                sum += (long) h[k * i + j];
            }
            l[i] = sum;
        }
        // Each sum is below 2^25 in magnitude, so the number is above -2^136: add 64p = 2^136 - 320 to make it
        // positive, then carry (limbs 0 to 4 end in [0, 2^22), limb 5 in [0, 2^27)).
        l[5] += 1L << 26;
        l[0] -= 320;
        carry(l);
        // Bits 130 and up come back times 5 (2^130 = 5 mod p), and one more carry leaves limb 5 at most 2^20.
        long top = l[5] >> 20;
        l[5] &= (1L << 20) - 1;
        l[0] += 5 * top;
        carry(l);
        mac.accumulator(l[0] | (l[1] << 22) | (l[2] << 44),
                (l[2] >>> 20) | (l[3] << 2) | (l[4] << 24) | (l[5] << 46),
                l[5] >>> 18);
    }

    private static void carry(long[] l) {
        for (int i = 0; i < 5; i++) {
            l[i + 1] += l[i] >> 22;
            l[i] &= LIMB;
        }
    }

    /** {@code v0 + v1 * 2^64 + v2 * 2^128} (below 2^132) as six 22-bit limbs in {@link #limbs}. */
    private void toLimbs(long v0, long v1, long v2) {
        long[] l = limbs;
        l[0] = v0 & LIMB;
        l[1] = (v0 >>> 22) & LIMB;
        l[2] = ((v0 >>> 44) | (v1 << 20)) & LIMB;
        l[3] = (v1 >>> 2) & LIMB;
        l[4] = (v1 >>> 24) & LIMB;
        l[5] = (v1 >>> 46) | (v2 << 18);
    }
}
