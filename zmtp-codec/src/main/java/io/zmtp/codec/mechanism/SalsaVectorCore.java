package io.zmtp.codec.mechanism;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Salsa20 core on the Vector API ({@code jdk.incubator.vector}): {@link SalsaLanes}' lanes, but with the 16 words
 * of a group of blocks held in 16 vector registers through all 20 rounds, where auto-vectorized loops load and store
 * every word for each quarter-round. One group is {@link #LANES} blocks (16 with AVX-512, 8 with AVX2): the rounds
 * take 0.17 ns per byte of key stream, 0.26-0.28 with {@link SalsaLanes}' write-out, against the loops' 0.40-0.42
 * (docs/performance-notes.md, CURVE round 6).
 *
 * <p>Loaded only when {@link CurveVectors} says the JVM has the module (an incubator module: the user starts
 * the JVM with {@code --add-modules jdk.incubator.vector}); nothing else in the codec refers to this class, so without
 * the module it is never linked.
 */
final class SalsaVectorCore {
    private static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;
    /** Blocks per group: one lane of each of the 16 word vectors per block. */
    static final int LANES = SPECIES.length();

    private SalsaVectorCore() {
    }

    /**
     * The core on blocks {@code from} to {@code from + LANES - 1}: the input is {@code state}, but words 6-9 come from
     * the per-lane arrays at {@code from}; word {@code k} of block {@code l}'s output (rounds plus input) goes to
     * {@code out[k][l]}. Every array must have room for {@code from + LANES} entries.
     */
    static void group(int[] state, int[] nonceLo, int[] nonceHi, int[] counterLo, int[] counterHi, int from,
            int[][] out) {
        IntVector i6 = IntVector.fromArray(SPECIES, nonceLo, from);
        IntVector i7 = IntVector.fromArray(SPECIES, nonceHi, from);
        IntVector i8 = IntVector.fromArray(SPECIES, counterLo, from);
        IntVector i9 = IntVector.fromArray(SPECIES, counterHi, from);
        IntVector x0 = IntVector.broadcast(SPECIES, state[0]);
        IntVector x1 = IntVector.broadcast(SPECIES, state[1]);
        IntVector x2 = IntVector.broadcast(SPECIES, state[2]);
        IntVector x3 = IntVector.broadcast(SPECIES, state[3]);
        IntVector x4 = IntVector.broadcast(SPECIES, state[4]);
        IntVector x5 = IntVector.broadcast(SPECIES, state[5]);
        IntVector x6 = i6;
        IntVector x7 = i7;
        IntVector x8 = i8;
        IntVector x9 = i9;
        IntVector x10 = IntVector.broadcast(SPECIES, state[10]);
        IntVector x11 = IntVector.broadcast(SPECIES, state[11]);
        IntVector x12 = IntVector.broadcast(SPECIES, state[12]);
        IntVector x13 = IntVector.broadcast(SPECIES, state[13]);
        IntVector x14 = IntVector.broadcast(SPECIES, state[14]);
        IntVector x15 = IntVector.broadcast(SPECIES, state[15]);
        for (int r = 0; r < 10; r++) {
            // Columns: (0, 4, 8, 12), (5, 9, 13, 1), (10, 14, 2, 6), (15, 3, 7, 11).
            x4 = x4.lanewise(VectorOperators.XOR, x0.add(x12).lanewise(VectorOperators.ROL, 7));
            x8 = x8.lanewise(VectorOperators.XOR, x4.add(x0).lanewise(VectorOperators.ROL, 9));
            x12 = x12.lanewise(VectorOperators.XOR, x8.add(x4).lanewise(VectorOperators.ROL, 13));
            x0 = x0.lanewise(VectorOperators.XOR, x12.add(x8).lanewise(VectorOperators.ROL, 18));
            x9 = x9.lanewise(VectorOperators.XOR, x5.add(x1).lanewise(VectorOperators.ROL, 7));
            x13 = x13.lanewise(VectorOperators.XOR, x9.add(x5).lanewise(VectorOperators.ROL, 9));
            x1 = x1.lanewise(VectorOperators.XOR, x13.add(x9).lanewise(VectorOperators.ROL, 13));
            x5 = x5.lanewise(VectorOperators.XOR, x1.add(x13).lanewise(VectorOperators.ROL, 18));
            x14 = x14.lanewise(VectorOperators.XOR, x10.add(x6).lanewise(VectorOperators.ROL, 7));
            x2 = x2.lanewise(VectorOperators.XOR, x14.add(x10).lanewise(VectorOperators.ROL, 9));
            x6 = x6.lanewise(VectorOperators.XOR, x2.add(x14).lanewise(VectorOperators.ROL, 13));
            x10 = x10.lanewise(VectorOperators.XOR, x6.add(x2).lanewise(VectorOperators.ROL, 18));
            x3 = x3.lanewise(VectorOperators.XOR, x15.add(x11).lanewise(VectorOperators.ROL, 7));
            x7 = x7.lanewise(VectorOperators.XOR, x3.add(x15).lanewise(VectorOperators.ROL, 9));
            x11 = x11.lanewise(VectorOperators.XOR, x7.add(x3).lanewise(VectorOperators.ROL, 13));
            x15 = x15.lanewise(VectorOperators.XOR, x11.add(x7).lanewise(VectorOperators.ROL, 18));
            // Rows: (0, 1, 2, 3), (5, 6, 7, 4), (10, 11, 8, 9), (15, 12, 13, 14).
            x1 = x1.lanewise(VectorOperators.XOR, x0.add(x3).lanewise(VectorOperators.ROL, 7));
            x2 = x2.lanewise(VectorOperators.XOR, x1.add(x0).lanewise(VectorOperators.ROL, 9));
            x3 = x3.lanewise(VectorOperators.XOR, x2.add(x1).lanewise(VectorOperators.ROL, 13));
            x0 = x0.lanewise(VectorOperators.XOR, x3.add(x2).lanewise(VectorOperators.ROL, 18));
            x6 = x6.lanewise(VectorOperators.XOR, x5.add(x4).lanewise(VectorOperators.ROL, 7));
            x7 = x7.lanewise(VectorOperators.XOR, x6.add(x5).lanewise(VectorOperators.ROL, 9));
            x4 = x4.lanewise(VectorOperators.XOR, x7.add(x6).lanewise(VectorOperators.ROL, 13));
            x5 = x5.lanewise(VectorOperators.XOR, x4.add(x7).lanewise(VectorOperators.ROL, 18));
            x11 = x11.lanewise(VectorOperators.XOR, x10.add(x9).lanewise(VectorOperators.ROL, 7));
            x8 = x8.lanewise(VectorOperators.XOR, x11.add(x10).lanewise(VectorOperators.ROL, 9));
            x9 = x9.lanewise(VectorOperators.XOR, x8.add(x11).lanewise(VectorOperators.ROL, 13));
            x10 = x10.lanewise(VectorOperators.XOR, x9.add(x8).lanewise(VectorOperators.ROL, 18));
            x12 = x12.lanewise(VectorOperators.XOR, x15.add(x14).lanewise(VectorOperators.ROL, 7));
            x13 = x13.lanewise(VectorOperators.XOR, x12.add(x15).lanewise(VectorOperators.ROL, 9));
            x14 = x14.lanewise(VectorOperators.XOR, x13.add(x12).lanewise(VectorOperators.ROL, 13));
            x15 = x15.lanewise(VectorOperators.XOR, x14.add(x13).lanewise(VectorOperators.ROL, 18));
        }
        x0.add(state[0]).intoArray(out[0], from);
        x1.add(state[1]).intoArray(out[1], from);
        x2.add(state[2]).intoArray(out[2], from);
        x3.add(state[3]).intoArray(out[3], from);
        x4.add(state[4]).intoArray(out[4], from);
        x5.add(state[5]).intoArray(out[5], from);
        x6.add(i6).intoArray(out[6], from);
        x7.add(i7).intoArray(out[7], from);
        x8.add(i8).intoArray(out[8], from);
        x9.add(i9).intoArray(out[9], from);
        x10.add(state[10]).intoArray(out[10], from);
        x11.add(state[11]).intoArray(out[11], from);
        x12.add(state[12]).intoArray(out[12], from);
        x13.add(state[13]).intoArray(out[13], from);
        x14.add(state[14]).intoArray(out[14], from);
        x15.add(state[15]).intoArray(out[15], from);
    }
}
