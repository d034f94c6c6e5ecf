package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The allocation-free message boxes against {@link CryptoBox}'s, which are Bouncy Castle's XSalsa20 engine and
 * Poly1305 as they come (and match libsodium on the CURVE vectors): every size from empty to past several chunks,
 * so word-wise XOR, block edges and chunk edges are all crossed.
 */
class MessageBoxerTest {
    private static final String PREFIX = "CurveZMQMESSAGEC";

    @Test
    void shouldSealExactlyAsTheReferenceBoxForEverySize() {
        Random random = new Random(7);
        byte[] key = new byte[32];
        random.nextBytes(key);
        MessageBoxer boxer = new MessageBoxer(key, PREFIX);
        int[] sizes = new int[300];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = i;
        }
        long nonce = 3;
        for (int size : concat(sizes, new int[] {8191, 8192, 8193, 20_000, 70_001})) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            int flags = size % 4;
            ByteBuf out = Unpooled.buffer();
            try {
                boxer.seal(nonce, flags, Unpooled.wrappedBuffer(content), 0, size, out);
                byte[] plain = new byte[1 + size];
                plain[0] = (byte) flags;
                System.arraycopy(content, 0, plain, 1, size);
                byte[] reference = CryptoBox.seal(key, CryptoBox.nonce(PREFIX, nonce), plain);
                assertThat(ByteBufUtil.getBytes(out)).as("size %d", size).isEqualTo(reference);

                ByteBuf opened = Unpooled.buffer();
                try {
                    int got = new MessageBoxer(key, PREFIX).open(nonce, out, out.readableBytes(), opened);
                    assertThat(got).isEqualTo(flags);
                    assertThat(ByteBufUtil.getBytes(opened)).as("size %d", size).isEqualTo(content);
                } finally {
                    opened.release();
                }
            } finally {
                out.release();
            }
            nonce++;
        }
    }

    @Test
    void shouldRefuseABoxWithAnyBitFlipped() {
        byte[] key = new byte[32];
        MessageBoxer boxer = new MessageBoxer(key, PREFIX);
        ByteBuf sealed = Unpooled.buffer();
        boxer.seal(9, 0, Unpooled.wrappedBuffer(new byte[40]), 0, 40, sealed);
        byte[] good = ByteBufUtil.getBytes(sealed);
        sealed.release();
        for (int bit = 0; bit < good.length * 8; bit += 7) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            ByteBuf out = Unpooled.buffer();
            try {
                assertThatThrownBy(() -> boxer.open(9, Unpooled.wrappedBuffer(bad), bad.length, out))
                        .isInstanceOf(CryptoBox.CryptoException.class);
            } finally {
                out.release();
            }
        }
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = new int[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
