package io.zmtp.codec.mechanism;

import org.bouncycastle.crypto.engines.Salsa20Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SalsaLanes} against Bouncy Castle's Salsa20 core, block by block: the many boxes' first blocks that
 * {@link KeyStreamAhead} asks for (always on the auto-vectorized loops), and long streams whose block counter crosses
 * 2^32, with the rounds on the loops ({@code vector = false}) and on the Vector API ({@code true},
 * {@link SalsaVectorCore}, from {@link SalsaLanes#VECTOR_MIN_BLOCKS} blocks). Every lane count from 1 to
 * {@link SalsaLanes#MAX_LANES} comes up, so groups cut short at the end are covered. The module's tests run
 * with {@code --add-modules jdk.incubator.vector} (zmtp-codec's pom), so both cores are always tested here.
 */
class SalsaLanesTest {
    @Test
    void shouldRunWithTheVectorApiInTheseTests() {
        String why = "zmtp-codec's tests run with --add-modules " + CurveVectors.MODULE + " on a CPU with 256-bit "
                + "vectors or wider, so that the cores on it are tested; see the surefire argLine in zmtp-codec/pom.xml";
        assertThat(CurveVectors.SALSA_LANES).as(why).isGreaterThanOrEqualTo(8);
        assertThat(CurveVectors.MAC_LANES).as(why).isGreaterThanOrEqualTo(4);
    }

    @Test
    void shouldMakeTheLanesOfSeveralBoxesAsTheScalarCore() {
        Random random = new Random(41);
        SalsaLanes lanes = new SalsaLanes(false);
        long[] keyStream = new long[8 * SalsaLanes.MAX_LANES];
        for (int trial = 0; trial < 60; trial++) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            int[] state = inputBlock(key, 0);
            // Some trials cross a carry of the 64-bit nonce, which Salsa20 reads byte-swapped.
            long first = trial % 4 == 0 ? 0xFFFF_FFFFL - random.nextInt(4) : random.nextLong();
            int perBox = 1 + random.nextInt(63);
            int boxes = 1 + random.nextInt(SalsaLanes.MAX_LANES / perBox);
            lanes.boxes(state, first, boxes, perBox, keyStream);
            int[] out = new int[16];
            for (int i = 0; i < boxes; i++) {
                int[] in = inputBlock(key, first + i);
                for (int j = 0; j < perBox; j++) {
                    in[8] = j;
                    Salsa20Engine.salsaCore(20, in, out);
                    assertBlock(keyStream, i * perBox + j, out, "trial " + trial + " box " + i + " block " + j);
                }
            }
        }
    }

    @ParameterizedTest(name = "vector={0}")
    @ValueSource(booleans = {false, true})
    void shouldMakeALongStreamAsTheScalarCore(boolean vector) {
        Random random = new Random(43);
        SalsaLanes lanes = new SalsaLanes(vector);
        long[] keyStream = new long[8 * SalsaLanes.MAX_LANES];
        int[] out = new int[16];
        for (int blocks = 1; blocks <= SalsaLanes.MAX_LANES; blocks += 1 + random.nextInt(7)) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            int[] state = inputBlock(key, random.nextLong());
            // Every other stream starts a few blocks before the counter's low word wraps.
            long counter = blocks % 2 == 0 ? 0xFFFF_FFFFL - random.nextInt(blocks) : random.nextInt(1 << 20);
            state[8] = (int) counter;
            state[9] = (int) (counter >>> 32);
            int[] before = state.clone();
            lanes.blocks(state, blocks, keyStream);
            assertThat(state).as("the input block is not changed").isEqualTo(before);
            int[] in = state.clone();
            for (int l = 0; l < blocks; l++) {
                long c = counter + l;
                in[8] = (int) c;
                in[9] = (int) (c >>> 32);
                Salsa20Engine.salsaCore(20, in, out);
                assertBlock(keyStream, l, out, blocks + " blocks, block " + l);
            }
        }
    }

    private static void assertBlock(long[] keyStream, int block, int[] expectedWords, String what) {
        for (int w = 0; w < 8; w++) {
            long expected = (expectedWords[2 * w] & 0xFFFFFFFFL) | ((long) expectedWords[2 * w + 1] << 32);
            assertThat(keyStream[8 * block + w]).as("%s, word pair %d", what, w).isEqualTo(expected);
        }
    }

    /** Salsa20's input block for a 32-byte key and an 8-byte nonce (big-endian, as CurveZMQ's short nonces). */
    static int[] inputBlock(byte[] key, long nonce) {
        int[] state = new int[16];
        state[0] = 0x61707865;
        state[5] = 0x3320646e;
        state[10] = 0x79622d32;
        state[15] = 0x6b206574;
        for (int i = 0; i < 4; i++) {
            state[1 + i] = CryptoBox.le32(key, 4 * i);
            state[11 + i] = CryptoBox.le32(key, 16 + 4 * i);
        }
        state[6] = Integer.reverseBytes((int) (nonce >>> 32));
        state[7] = Integer.reverseBytes((int) nonce);
        return state;
    }
}
