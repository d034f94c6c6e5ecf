package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The allocation-free message boxes against Bouncy Castle's XSalsa20 engine and Poly1305 as they come ({@link
 * CryptoBox}'s, which match libsodium on the CURVE vectors, and {@link #referenceSeal}): every size from empty to past
 * several key-stream refills, random sizes up to 64 KiB, on random keys and nonces, with the frame and the boxes at
 * every offset 0-15 in heap, direct and composite buffers, so the first block around the flags byte, 16-byte and
 * 64-byte block edges, refills and the partial last block are all crossed. Deterministic seeds.
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

    @Test
    void shouldSealAndOpenAsBouncyCastleAtEveryOffsetInEveryKindOfBuffer() {
        Random random = new Random(27);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i <= 80; i++) {
            sizes.add(i);
        }
        for (int size : new int[] {255, 256, 257, 271, 272, 273, 1007, 1008, 1009, 1024, 1039, 1040, 1041, 4095, 4096,
            65535, 65536}) {
            sizes.add(size);
        }
        for (int i = 0; i < 8; i++) {
            sizes.add(random.nextInt(65537));
        }
        // The kinds a frame comes in: from 256 bytes on the loop reads and writes arrays and memory addresses found
        // through slices, duplicates and pooled buffers (BufferMemory); composites take the ByteBuf methods.
        List<IntFunction<ByteBuf>> kinds = List.of(Unpooled::buffer, Unpooled::directBuffer, MessageBoxerTest::composite,
            n -> Unpooled.buffer(n + 11).slice(11, n).clear(),
            n -> Unpooled.directBuffer(n + 5).slice(5, n).clear(),
            n -> Unpooled.directBuffer(n).duplicate(),
            n -> PooledByteBufAllocator.DEFAULT.directBuffer(n),
            n -> PooledByteBufAllocator.DEFAULT.heapBuffer(n),
            n -> Unpooled.compositeBuffer().addComponent(true, Unpooled.directBuffer(n)).clear());
        for (int size : sizes) {
            // Every offset at the small sizes, where the first and last blocks meet; a few at the large ones.
            int offsets = size <= 80 ? 16 : 3;
            for (int o = 0; o < offsets; o++) {
                int offset = size <= 80 ? o : random.nextInt(16);
                IntFunction<ByteBuf> kind = kinds.get((size + o) % kinds.size());
                byte[] key = new byte[32];
                random.nextBytes(key);
                long nonce = random.nextLong();
                int flags = random.nextInt(4);
                byte[] content = new byte[size];
                random.nextBytes(content);
                byte[] expected = referenceSeal(key, nonce, flags, content);
                assertRoundTrip(key, nonce, flags, content, expected, offset, kind);
            }
        }
    }

    private static void assertRoundTrip(byte[] key, long nonce, int flags, byte[] content, byte[] expected,
                                        int offset, IntFunction<ByteBuf> kind) {
        int size = content.length;
        ByteBuf frame = kind.apply(offset + size + 16);
        ByteBuf sealed = kind.apply(offset + size + 40);
        ByteBuf opened = kind.apply(offset + size + 16);
        try {
            frame.writeZero(offset).writeBytes(content).writeZero(16);
            sealed.writeZero(offset);
            opened.writeZero(offset);
            new MessageBoxer(key, PREFIX).seal(nonce, flags, frame, offset, size, sealed);
            assertThat(sealed.writerIndex()).isEqualTo(offset + expected.length);
            assertThat(ByteBufUtil.getBytes(sealed, offset, expected.length))
                    .as("sealed, size %d offset %d %s", size, offset, frame.getClass().getSimpleName())
                    .isEqualTo(expected);
            sealed.readerIndex(offset);
            int got = new MessageBoxer(key, PREFIX).open(nonce, sealed, expected.length, opened);
            assertThat(got).isEqualTo(flags);
            assertThat(sealed.isReadable()).isFalse();
            assertThat(opened.writerIndex()).isEqualTo(offset + size);
            assertThat(ByteBufUtil.getBytes(opened, offset, size))
                    .as("opened, size %d offset %d %s", size, offset, frame.getClass().getSimpleName())
                    .isEqualTo(content);
        } finally {
            frame.release();
            sealed.release();
            opened.release();
        }
    }

    @Test
    void shouldRefuseABoxWithATamperedTagOrCiphertextAtAnySize() {
        Random random = new Random(16);
        for (int size : new int[] {0, 1, 14, 15, 16, 31, 1024, 65536}) {
            byte[] key = new byte[32];
            random.nextBytes(key);
            byte[] content = new byte[size];
            random.nextBytes(content);
            byte[] good = referenceSeal(key, 4, 0, content);
            for (int at : new int[] {0, 15, 16, good.length - 1}) {
                byte[] bad = good.clone();
                bad[at] ^= (byte) (1 << random.nextInt(8));
                ByteBuf in = Unpooled.directBuffer(bad.length).writeBytes(bad);
                ByteBuf out = Unpooled.buffer();
                try {
                    assertThatThrownBy(() -> new MessageBoxer(key, PREFIX).open(4, in, bad.length, out))
                            .as("size %d, byte %d", size, at)
                            .isInstanceOf(CryptoBox.CryptoException.class);
                } finally {
                    in.release();
                    out.release();
                }
            }
        }
    }

    /** The box as Bouncy Castle's XSalsa20 and Poly1305 make it, no code of ours: tag, then ciphertext. */
    static byte[] referenceSeal(byte[] key, long shortNonce, int flags, byte[] content) {
        byte[] plain = new byte[1 + content.length];
        plain[0] = (byte) flags;
        System.arraycopy(content, 0, plain, 1, content.length);
        // crypto_box_afternm's key is already the beforenm one; XSalsa20 does the HSalsa20 step with the prefix.
        XSalsa20Engine salsa = new XSalsa20Engine();
        salsa.init(true, new ParametersWithIV(new KeyParameter(key), CryptoBox.nonce(PREFIX, shortNonce)));
        byte[] macKey = new byte[32];
        salsa.processBytes(macKey, 0, 32, macKey, 0);
        byte[] out = new byte[16 + plain.length];
        salsa.processBytes(plain, 0, plain.length, out, 16);
        Poly1305 mac = new Poly1305();
        mac.init(new KeyParameter(macKey));
        mac.update(out, 16, plain.length);
        mac.doFinal(out, 0);
        return out;
    }

    /** A composite buffer of a few odd-sized components, so 8-byte reads and writes straddle them. */
    static ByteBuf composite(int capacity) {
        CompositeByteBuf c = Unpooled.compositeBuffer();
        int left = capacity;
        int part = 7;
        while (left > 0) {
            int n = Math.min(left, part);
            c.addComponent(false, Unpooled.buffer(n, n));
            left -= n;
            part = part * 3 + 5;
        }
        // Components were added without moving the writer index: start empty, with room for capacity bytes.
        return c.writerIndex(0);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = new int[a.length + b.length];
        System.arraycopy(a, 0, c, 0, a.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
