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
 * limbs, an accumulator at and just above 2^130 - 5), and RFC 8439's test vector. Deterministic seeds.
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
    void shouldComputeRfc8439sTestVector() {
        byte[] key = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
        byte[] message = "Cryptographic Forum Research Group".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(ours(key, message)).isEqualTo(hex("a8061dc1305136c6c22b8baf0c0127a9"));
    }

    private static void assertMatches(byte[] key, byte[] message) {
        Poly1305 reference = new Poly1305();
        reference.init(new KeyParameter(key));
        reference.update(message, 0, message.length);
        byte[] expected = new byte[16];
        reference.doFinal(expected, 0);
        assertThat(ours(key, message)).as("length %d", message.length).isEqualTo(expected);
    }

    private static byte[] ours(byte[] key, byte[] message) {
        ByteBuffer k = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN);
        Poly1305Mac mac = new Poly1305Mac();
        mac.init(k.getLong(0), k.getLong(8), k.getLong(16), k.getLong(24));
        ByteBuffer m = ByteBuffer.wrap(Arrays.copyOf(message, message.length + 16)).order(ByteOrder.LITTLE_ENDIAN);
        int whole = message.length & ~15;
        for (int i = 0; i < whole; i += 16) {
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
