package io.zmtp.codec.mechanism;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Poly1305's block steps on the Vector API ({@code jdk.incubator.vector}), {@link #LANES} blocks at a time in double
 * precision: the arithmetic and its bounds are {@link Poly1305Lanes}'. 0.155 ns per byte against the scalar MAC's
 * 0.59-0.63 (AVX-512, docs/performance-notes.md, CURVE round 6).
 *
 * <p>Loaded only when {@link CurveVectors} found the module; nothing else refers to it.
 */
final class Poly1305VectorCore {
    private static final VectorSpecies<Double> DOUBLES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONGS = LongVector.SPECIES_PREFERRED;
    /** Blocks per step: one lane of each of the 6 limb vectors per block. */
    static final int LANES = Math.min(DOUBLES.length(), LONGS.length());

    /** 1.5 * 2^52: adding and subtracting it rounds a double below 2^51 in magnitude to an integer. */
    private static final double ROUND = 6755399441055744.0;
    private static final double TWO_52 = 4503599627370496.0;
    /** The bits of the double 2^52: OR'd with an integer below 2^52, they make the double 2^52 + that integer. */
    private static final long TWO_52_BITS = 0x4330000000000000L;
    private static final long LIMB_MASK = (1L << 22) - 1;

    private Poly1305VectorCore() {
    }

    /**
     * {@code groups} steps of {@link #LANES} blocks, block {@code from + LANES * g + j} in lane {@code j}, given as
     * {@code m0[i], m1[i]} (its two little-endian longs; the 2^128 bit is added here): each step is
     * {@code h = (h + block) * r}, where {@code r} is, per limb {@code k}, {@code r[k]} in every lane, or, if
     * {@code perLane}, {@code r[LANES * k + j]} in lane {@code j}. {@code h} holds limb {@code k} of lane {@code j} at
     * {@code LANES * k + j}, read before and written after.
     */
    static void steps(double[] h, long[] m0, long[] m1, int from, int groups, double[] r, boolean perLane) {
        DoubleVector r0 = limb(r, 0, perLane);
        DoubleVector r1 = limb(r, 1, perLane);
        DoubleVector r2 = limb(r, 2, perLane);
        DoubleVector r3 = limb(r, 3, perLane);
        DoubleVector r4 = limb(r, 4, perLane);
        DoubleVector r5 = limb(r, 5, perLane);
        // 2^132 = 20 (mod 2^130 - 5): a product's limbs 6 and up come back times 20.
        DoubleVector t1 = r1.mul(20);
        DoubleVector t2 = r2.mul(20);
        DoubleVector t3 = r3.mul(20);
        DoubleVector t4 = r4.mul(20);
        DoubleVector t5 = r5.mul(20);
        DoubleVector scale = DoubleVector.broadcast(DOUBLES, 1.0 / (1 << 22));
        DoubleVector round = DoubleVector.broadcast(DOUBLES, ROUND);
        DoubleVector radix = DoubleVector.broadcast(DOUBLES, -(double) (1 << 22));
        DoubleVector twenty = DoubleVector.broadcast(DOUBLES, 20);
        DoubleVector two52 = DoubleVector.broadcast(DOUBLES, TWO_52);
        int n = LANES;
        DoubleVector h0 = DoubleVector.fromArray(DOUBLES, h, 0);
        DoubleVector h1 = DoubleVector.fromArray(DOUBLES, h, n);
        DoubleVector h2 = DoubleVector.fromArray(DOUBLES, h, 2 * n);
        DoubleVector h3 = DoubleVector.fromArray(DOUBLES, h, 3 * n);
        DoubleVector h4 = DoubleVector.fromArray(DOUBLES, h, 4 * n);
        DoubleVector h5 = DoubleVector.fromArray(DOUBLES, h, 5 * n);
        // One induction variable, so that the range checks of the loads are taken out of the loop.
        int end = from + groups * LANES;
        for (int i = from; i < end; i += LANES) {
            LongVector a = LongVector.fromArray(LONGS, m0, i);
            LongVector b = LongVector.fromArray(LONGS, m1, i);
            // The block as six 22-bit limbs (the 2^128 bit is bit 18 of the last), each made a double exactly.
            h0 = h0.add(a.and(LIMB_MASK).or(TWO_52_BITS).reinterpretAsDoubles().sub(two52));
            h1 = h1.add(a.lanewise(VectorOperators.LSHR, 22).and(LIMB_MASK).or(TWO_52_BITS).reinterpretAsDoubles()
                    .sub(two52));
            h2 = h2.add(a.lanewise(VectorOperators.LSHR, 44).or(b.lanewise(VectorOperators.LSHL, 20)).and(LIMB_MASK)
                    .or(TWO_52_BITS).reinterpretAsDoubles().sub(two52));
            h3 = h3.add(b.lanewise(VectorOperators.LSHR, 2).and(LIMB_MASK).or(TWO_52_BITS).reinterpretAsDoubles()
                    .sub(two52));
            h4 = h4.add(b.lanewise(VectorOperators.LSHR, 24).and(LIMB_MASK).or(TWO_52_BITS).reinterpretAsDoubles()
                    .sub(two52));
            h5 = h5.add(b.lanewise(VectorOperators.LSHR, 46).or(1L << 18).or(TWO_52_BITS).reinterpretAsDoubles()
                    .sub(two52));
            // d = h * r, limb by limb (each sum exact: below 2^52).
            DoubleVector d0 = h0.mul(r0);
            DoubleVector d1 = h0.mul(r1);
            DoubleVector d2 = h0.mul(r2);
            DoubleVector d3 = h0.mul(r3);
            DoubleVector d4 = h0.mul(r4);
            DoubleVector d5 = h0.mul(r5);
            d0 = h1.fma(t5, d0);
            d1 = h1.fma(r0, d1);
            d2 = h1.fma(r1, d2);
            d3 = h1.fma(r2, d3);
            d4 = h1.fma(r3, d4);
            d5 = h1.fma(r4, d5);
            d0 = h2.fma(t4, d0);
            d1 = h2.fma(t5, d1);
            d2 = h2.fma(r0, d2);
            d3 = h2.fma(r1, d3);
            d4 = h2.fma(r2, d4);
            d5 = h2.fma(r3, d5);
            d0 = h3.fma(t3, d0);
            d1 = h3.fma(t4, d1);
            d2 = h3.fma(t5, d2);
            d3 = h3.fma(r0, d3);
            d4 = h3.fma(r1, d4);
            d5 = h3.fma(r2, d5);
            d0 = h4.fma(t2, d0);
            d1 = h4.fma(t3, d1);
            d2 = h4.fma(t4, d2);
            d3 = h4.fma(t5, d3);
            d4 = h4.fma(r0, d4);
            d5 = h4.fma(r1, d5);
            d0 = h5.fma(t1, d0);
            d1 = h5.fma(t2, d1);
            d2 = h5.fma(t3, d2);
            d3 = h5.fma(t4, d3);
            d4 = h5.fma(t5, d4);
            d5 = h5.fma(r0, d5);
            // Two rounds of carries, all limbs at once: each limb keeps its part within 2^21 and passes the rest on.
            DoubleVector c0 = d0.fma(scale, round).sub(round);
            DoubleVector c1 = d1.fma(scale, round).sub(round);
            DoubleVector c2 = d2.fma(scale, round).sub(round);
            DoubleVector c3 = d3.fma(scale, round).sub(round);
            DoubleVector c4 = d4.fma(scale, round).sub(round);
            DoubleVector c5 = d5.fma(scale, round).sub(round);
            d0 = c0.fma(radix, d0).add(c5.mul(twenty));
            d1 = c1.fma(radix, d1).add(c0);
            d2 = c2.fma(radix, d2).add(c1);
            d3 = c3.fma(radix, d3).add(c2);
            d4 = c4.fma(radix, d4).add(c3);
            d5 = c5.fma(radix, d5).add(c4);
            c0 = d0.fma(scale, round).sub(round);
            c1 = d1.fma(scale, round).sub(round);
            c2 = d2.fma(scale, round).sub(round);
            c3 = d3.fma(scale, round).sub(round);
            c4 = d4.fma(scale, round).sub(round);
            c5 = d5.fma(scale, round).sub(round);
            h0 = c0.fma(radix, d0).add(c5.mul(twenty));
            h1 = c1.fma(radix, d1).add(c0);
            h2 = c2.fma(radix, d2).add(c1);
            h3 = c3.fma(radix, d3).add(c2);
            h4 = c4.fma(radix, d4).add(c3);
            h5 = c5.fma(radix, d5).add(c4);
        }
        h0.intoArray(h, 0);
        h1.intoArray(h, n);
        h2.intoArray(h, 2 * n);
        h3.intoArray(h, 3 * n);
        h4.intoArray(h, 4 * n);
        h5.intoArray(h, 5 * n);
    }

    private static DoubleVector limb(double[] r, int k, boolean perLane) {
        return perLane ? DoubleVector.fromArray(DOUBLES, r, LANES * k) : DoubleVector.broadcast(DOUBLES, r[k]);
    }
}
