package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * {@link MessageBoxer} as round 3 of issue 27 left it (commit ccabb28, with its {@link Round3SalsaStream} and
 * {@link Round3SalsaLanes}), the baseline of {@link SecretBoxBenchmark}'s
 * {@code impl=round3}: one pass over the buffers, but each box's key stream made for that box alone, so below 4 KiB
 * by Bouncy Castle's scalar Salsa20 core. Benchmark code only, not used by the codec.
 */
final class Round3MessageBoxer {
    /** Key-stream blocks made at once: as much as a frame needs, up to 16 KiB of stream. */
    private static final int MAX_BLOCKS = Round3SalsaLanes.MAX_LANES;
    /** One key-stream array per I/O thread: boxing never yields the thread, so connections can share it. */
    private static final FastThreadLocal<long[]> KEY_STREAM = new FastThreadLocal<long[]>() {
        @Override
        protected long[] initialValue() {
            return new long[8 * MAX_BLOCKS];
        }
    };

    private final Round3SalsaStream salsa;
    private final Poly1305Mac mac = new Poly1305Mac();
    /** This box's key stream (the thread's array) and the next unused long in it, and its end. */
    private long[] keyStream;
    private int ksAt;
    private int ksEnd;

    /**
     * @param key    the connection's precomputed key ({@code crypto_box_beforenm})
     * @param prefix the 16-byte nonce prefix of this direction
     */
    Round3MessageBoxer(byte[] key, String prefix) {
        byte[] p = new byte[16];
        for (int i = 0; i < 16; i++) {
            p[i] = (byte) prefix.charAt(i);
        }
        byte[] subkey = CryptoBox.hsalsa20(key, p);
        salsa = new Round3SalsaStream(subkey);
        java.util.Arrays.fill(subkey, (byte) 0);
    }

    /**
     * Starts a box with {@code nonce} for {@code streamLength} bytes of clear text: the key stream restarts, its
     * first 32 bytes key the MAC, and the next 32 are the first to encrypt with.
     */
    private void begin(long nonce, int streamLength) {
        long[] ks = KEY_STREAM.get();
        keyStream = ks;
        salsa.start(nonce);
        int blocks = blocksFor(32 + streamLength);
        salsa.next(ks, blocks);
        ksEnd = 8 * blocks;
        mac.init(ks[0], ks[1], ks[2], ks[3]);
        ksAt = 4;
    }

    private static int blocksFor(int streamBytes) {
        return Math.min(MAX_BLOCKS, (streamBytes + 63) >>> 6);
    }

    /**
     * Writes the box of {@code flags} followed by {@code length} bytes of {@code content} from {@code index}: the tag,
     * then the ciphertext, at {@code out}'s writer index.
     */
    void seal(long nonce, int flags, ByteBuf content, int index, int length, ByteBuf out) {
        int n = 1 + length;
        out.ensureWritable(CryptoBox.TAG_LENGTH + n);
        int tagAt = out.writerIndex();
        int at = tagAt + CryptoBox.TAG_LENGTH;
        begin(nonce, n);
        long[] ks = keyStream;
        if (length >= 15) {
            // The first block: the flags byte and the frame's first 15 bytes.
            long y0 = ((flags & 0xFF) | (content.getLongLE(index) << 8)) ^ ks[4];
            long y1 = content.getLongLE(index + 7) ^ ks[5];
            out.setLongLE(at, y0);
            out.setLongLE(at + 8, y1);
            mac.block(y0, y1);
            ksAt = 6;
            crypt(content, index + 15, out, at + 16, length - 15, true);
        } else {
            long x0 = (flags & 0xFF) | (gather(content, index, Math.min(length, 7)) << 8);
            long x1 = length > 7 ? gather(content, index + 7, length - 7) : 0;
            lastBlock(x0, x1, n, out, at, true);
        }
        mac.finish();
        out.setLongLE(tagAt, mac.tag0());
        out.setLongLE(tagAt + 8, mac.tag1());
        out.writerIndex(at + n);
        keyStream = null;
    }

    /**
     * Opens a box of {@code length} bytes (tag, then ciphertext of at least the flags byte) from {@code in}'s reader
     * index, consuming it; writes the content after the flags byte to {@code out} and returns the flags byte. On a
     * wrong tag it throws, having written to {@code out} bytes the caller must discard.
     *
     * @throws CryptoBox.CryptoException if the box is too short or its tag is wrong
     */
    int open(long nonce, ByteBuf in, int length, ByteBuf out) {
        int n = length - CryptoBox.TAG_LENGTH;
        if (n < 1) {
            throw new CryptoBox.CryptoException("MESSAGE box of " + length + " bytes (expected: >= 17)");
        }
        int r = in.readerIndex();
        long expected0 = in.getLongLE(r);
        long expected1 = in.getLongLE(r + 8);
        int s = r + CryptoBox.TAG_LENGTH;
        out.ensureWritable(n - 1);
        int w = out.writerIndex();
        begin(nonce, n);
        long[] ks = keyStream;
        int flags;
        if (n >= 16) {
            long x0 = in.getLongLE(s);
            long x1 = in.getLongLE(s + 8);
            mac.block(x0, x1);
            long y0 = x0 ^ ks[4];
            long y1 = x1 ^ ks[5];
            flags = (int) y0 & 0xFF;
            // The block's other 15 bytes are the frame's first.
            out.setLongLE(w, (y0 >>> 8) | (y1 << 56));
            scatter(out, w + 8, y1 >>> 8, 7);
            ksAt = 6;
            crypt(in, s + 16, out, w + 15, n - 16, false);
        } else {
            long x0 = gather(in, s, Math.min(n, 8));
            long x1 = n > 8 ? gather(in, s + 8, n - 8) : 0;
            mac.lastBlock(x0, x1, n);
            long y0 = x0 ^ ks[4];
            long y1 = x1 ^ ks[5];
            flags = (int) y0 & 0xFF;
            scatter(out, w, y0 >>> 8, Math.min(n - 1, 7));
            if (n > 8) {
                scatter(out, w + 7, y1, n - 8);
            }
        }
        in.readerIndex(r + length);
        out.writerIndex(w + n - 1);
        keyStream = null;
        mac.finish();
        if (!mac.matches(expected0, expected1)) {
            throw new CryptoBox.CryptoException("MESSAGE box does not open: tampered with or forged");
        }
        return flags;
    }

    /**
     * XORs {@code n} bytes of the stream at {@code src} from {@code s} into {@code dst} from {@code d}, 16 at a time,
     * and MACs the ciphertext: what is written when sealing, what is read when opening. The stream must be at a
     * 16-byte boundary.
     */
    private void crypt(ByteBuf src, int s, ByteBuf dst, int d, int n, boolean sealing) {
        long[] ks = keyStream;
        int k = ksAt;
        Poly1305Mac m = mac;
        while (n >= 16) {
            if (k == ksEnd) {
                refill(n);
                k = 0;
            }
            long x0 = src.getLongLE(s);
            long x1 = src.getLongLE(s + 8);
            long y0 = x0 ^ ks[k];
            long y1 = x1 ^ ks[k + 1];
            dst.setLongLE(d, y0);
            dst.setLongLE(d + 8, y1);
            if (sealing) {
                m.block(y0, y1);
            } else {
                m.block(x0, x1);
            }
            k += 2;
            s += 16;
            d += 16;
            n -= 16;
        }
        ksAt = k;
        if (n > 0) {
            long x0 = gather(src, s, Math.min(n, 8));
            long x1 = n > 8 ? gather(src, s + 8, n - 8) : 0;
            lastBlock(x0, x1, n, dst, d, sealing);
        }
    }

    /** The last, partial block of the stream: {@code n} (1 to 15) bytes in {@code x0, x1}, the rest zero. */
    private void lastBlock(long x0, long x1, int n, ByteBuf dst, int d, boolean sealing) {
        if (ksAt == ksEnd) {
            refill(n);
        }
        long[] ks = keyStream;
        long mask0 = n >= 8 ? -1L : (1L << (8 * n)) - 1;
        long mask1 = n <= 8 ? 0 : (1L << (8 * (n - 8))) - 1;
        long y0 = (x0 ^ ks[ksAt]) & mask0;
        long y1 = (x1 ^ ks[ksAt + 1]) & mask1;
        scatter(dst, d, y0, Math.min(n, 8));
        if (n > 8) {
            scatter(dst, d + 8, y1, n - 8);
        }
        if (sealing) {
            mac.lastBlock(y0, y1, n);
        } else {
            mac.lastBlock(x0, x1, n);
        }
        ksAt += 2;
    }

    private void refill(int streamBytesLeft) {
        int blocks = blocksFor(streamBytesLeft);
        salsa.next(keyStream, blocks);
        ksAt = 0;
        ksEnd = 8 * blocks;
    }

    /** {@code count} (0 to 8) bytes from {@code at} as a little-endian long. */
    private static long gather(ByteBuf buf, int at, int count) {
        if (count == 8) {
            return buf.getLongLE(at);
        }
        long v = 0;
        for (int i = 0; i < count; i++) {
            v |= (buf.getByte(at + i) & 0xFFL) << (8 * i);
        }
        return v;
    }

    /** The low {@code count} (0 to 8) bytes of {@code v} to {@code at}, little-endian. */
    private static void scatter(ByteBuf buf, int at, long v, int count) {
        if (count == 8) {
            buf.setLongLE(at, v);
            return;
        }
        for (int i = 0; i < count; i++) {
            buf.setByte(at + i, (int) (v >>> (8 * i)));
        }
    }
}
