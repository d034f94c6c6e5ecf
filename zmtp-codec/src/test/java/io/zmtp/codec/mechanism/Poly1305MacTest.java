package io.zmtp.codec.mechanism;

import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our Poly1305 against Bouncy Castle's, the reference, on random keys and messages of every length up to a few
 * blocks and random ones up to 64 KiB, plus the keys and messages that push the arithmetic to its edges (all-ones
 * limbs, an accumulator at and just above 2^130 - 5), and RFC 8439's test vector; the same with a run of the blocks
 * taken by {@link Poly1305Lanes} (on the Vector API, which zmtp-codec's tests have): runs of every length around the
 * lane count and the lanes' buffer, starting after 0 to 3 blocks of the scalar MAC. Deterministic seeds.
 */
class Poly1305MacTest {

    @Test
    void shouldMatchBouncyCastleOnRandomKeysAndLengths() {
        Random random = new Random(1305);
        for (int length = 0; length <= 200; length++) {
            assertMatches(randomBytes(random, 32), randomBytes(random, length));
        }
        for (int i = 0; i < 60; i++) {
            assertMatches(randomBytes(random, 32), randomBytes(random, random.nextInt(65537)));
        }
    }

    @Test
    void shouldMatchBouncyCastleAtTheArithmeticsEdges() {
        Random random = new Random(130);
        byte[] ones = new byte[32];
        Arrays.fill(ones, (byte) 0xFF);
        byte[] zeros = new byte[32];
        for (int length : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 64, 1000, 4096}) {
            byte[] allOnes = new byte[length];
            Arrays.fill(allOnes, (byte) 0xFF);
            assertMatches(ones, allOnes);
            assertMatches(zeros, allOnes);
            assertMatches(ones, new byte[length]);
            assertMatches(randomBytes(random, 32), allOnes);
        }
        // r = 1, s = 0: the tag is the message's polynomial itself, so these land on and around p = 2^130 - 5.
        byte[] rOne = new byte[32];
        rOne[0] = 1;
        for (int low = 0xF8; low <= 0xFF; low++) {
            byte[] nearP = new byte[16];
            Arrays.fill(nearP, (byte) 0xFF);
            nearP[0] = (byte) low;
            assertMatches(rOne, nearP);
            assertMatches(ones, nearP);
        }
    }

    @Test
    void shouldMatchBouncyCastleOnManyShortMessagesOfEveryBlockCount() {
        // Many random accumulator states through the carries and the final reduction, a third of them with bytes of
        // only 0x00 and 0xFF so limbs sit at their edges.
        Random random = new Random(2026);
        for (int i = 0; i < 20_000; i++) {
            byte[] key = randomBytes(random, 32);
            byte[] message = randomBytes(random, random.nextInt(81));
            if (i % 3 == 0) {
                for (int b = 0; b < message.length; b++) {
                    message[b] = random.nextBoolean() ? (byte) 0xFF : 0;
                }
            }
            assertMatches(key, message);
        }
    }

    @Test
    void shouldMatchBouncyCastleWithARunOfBlocksInLanes() {
        Random random = new Random(1306);
        int lanes = CurveVectors.MAC_LANES;
        assertThat(lanes).as("the Vector API in zmtp-codec's tests (see SalsaLanesTest)").isPositive();
        int buffered = Poly1305Lanes.BUFFERED;
        int[] runs = {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes, 2 * lanes + 1, 3 * lanes - 1, 37, buffered - lanes - 1,
            buffered - lanes, buffered - 1, buffered, buffered + 1, buffered + lanes, 2 * buffered - lanes + 3,
            3 * buffered + 5};
        for (int run : runs) {
            for (int before = 0; before < 4; before++) {
                int after = random.nextInt(3);
                int tail = random.nextInt(16);
                byte[] message = randomBytes(random, 16 * (before + run + after) + tail);
                assertMatches(randomBytes(random, 32), message, before, run);
            }
        }
        for (int i = 0; i < 40; i++) {
            byte[] message = randomBytes(random, random.nextInt(65537));
            int blocks = message.length / 16;
            int before = Math.min(blocks, random.nextInt(4));
            assertMatches(randomBytes(random, 32), message, before, blocks - before - random.nextInt(
                    Math.min(3, blocks - before) + 1));
        }
    }

    @Test
    void shouldMatchBouncyCastleAtTheArithmeticsEdgesWithARunInLanes() {
        Random random = new Random(131);
        byte[] ones = new byte[32];
        Arrays.fill(ones, (byte) 0xFF);
        byte[] zeros = new byte[32];
        byte[] rOne = new byte[32];
        rOne[0] = 1;
        for (int blocks : new int[] {1, 7, 8, 9, 16, 17, 64, 65, 600}) {
            byte[] allOnes = new byte[16 * blocks + 5];
            Arrays.fill(allOnes, (byte) 0xFF);
            byte[] edges = new byte[16 * blocks];
            for (int b = 0; b < edges.length; b++) {
                edges[b] = random.nextBoolean() ? (byte) 0xFF : 0;
            }
            for (byte[] key : new byte[][] {ones, zeros, rOne, randomBytes(random, 32)}) {
                for (int before = 0; before < 2; before++) {
                    assertMatches(key, allOnes, before, blocks - before);
                    assertMatches(key, edges, before, blocks - before);
                    assertMatches(key, new byte[16 * blocks], before, blocks - before);
                }
            }
        }
    }

    @Test
    void shouldComputeRfc8439sTestVector() {
        byte[] key = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        byte[] message = "Cryptographic Forum Research Group".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(ours(key, message, 0, 0)).isEqualTo(hex("a8061dc1305136c6c22b8baf0c0127a9"));
    }

    private static void assertMatches(byte[] key, byte[] message) {
        assertMatches(key, message, 0, 0);
    }

    /** Blocks {@code runFrom} to {@code runFrom + runBlocks - 1} (whole ones) through the lanes, if any. */
    private static void assertMatches(byte[] key, byte[] message, int runFrom, int runBlocks) {
        Poly1305 reference = new Poly1305();
        reference.init(new KeyParameter(key));
        reference.update(message, 0, message.length);
        byte[] expected = new byte[16];
        reference.doFinal(expected, 0);
        assertThat(ours(key, message, runFrom, runBlocks))
                .as("length %d, run of %d blocks from block %d", message.length, runBlocks, runFrom)
                .isEqualTo(expected);
    }

    private static byte[] ours(byte[] key, byte[] message, int runFrom, int runBlocks) {
        ByteBuffer k = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN);
        Poly1305Mac mac = new Poly1305Mac();
        mac.init(k.getLong(0), k.getLong(8), k.getLong(16), k.getLong(24));
        ByteBuffer m = ByteBuffer.wrap(Arrays.copyOf(message, message.length + 16)).order(ByteOrder.LITTLE_ENDIAN);
        int whole = message.length & ~15;
        for (int i = 0; i < whole; i += 16) {
            int block = i / 16;
            if (runBlocks > 0 && block == runFrom) {
                i = lanes(mac, m, i, runBlocks) - 16;
                continue;
            }
            mac.block(m.getLong(i), m.getLong(i + 8));
        }
        if (whole < message.length) {
            mac.lastBlock(m.getLong(whole), m.getLong(whole + 8), message.length - whole);
        }
        mac.finish();
        byte[] tag = new byte[16];
        ByteBuffer.wrap(tag).order(ByteOrder.LITTLE_ENDIAN).putLong(mac.tag0()).putLong(mac.tag1());
        assertThat(mac.matches(mac.tag0(), mac.tag1())).isTrue();
        assertThat(mac.matches(mac.tag0() ^ 1, mac.tag1())).isFalse();
        assertThat(mac.matches(mac.tag0(), mac.tag1() ^ Long.MIN_VALUE)).isFalse();
        return tag;
    }

    /** {@code blocks} whole blocks from byte {@code at} through {@link Poly1305Lanes}, as MessageBoxer feeds them. */
    private static int lanes(Poly1305Mac mac, ByteBuffer m, int at, int blocks) {
        Poly1305Lanes lanes = new Poly1305Lanes();
        lanes.start(mac);
        for (int b = 0; b < blocks; b++, at += 16) {
            lanes.m0[lanes.buffered] = m.getLong(at);
            lanes.m1[lanes.buffered] = m.getLong(at + 8);
            if (++lanes.buffered == Poly1305Lanes.BUFFERED) {
                lanes.drain();
            }
        }
        lanes.finish();
        return at;
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }
}
