package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.Arrays;

/**
 * XSalsa20-Poly1305 boxes ({@code crypto_secretbox}) for one direction of one connection's messages, with nothing
 * allocated per box, in one pass over the bytes: each 16 bytes are read from the source buffer as two little-endian
 * longs, XORed with the key stream, written to the destination buffer and fed to the MAC ({@link Poly1305Mac}) while
 * still in registers. No scratch copy: sealing reads the frame where it is and writes tag and ciphertext into the
 * outgoing buffer; opening reads the ciphertext where it was received and writes the clear text into the opened
 * buffer, one copy each, which is what the box needs anyway.
 *
 * <p>The clear text of a CurveZMQ MESSAGE box is the inner flags byte followed by the frame, so the frame sits one
 * byte off the 16-byte blocks of the stream: the first block is put together (sealing) or taken apart (opening)
 * around that byte, and from then on a block of the stream is 16 bytes of the frame at an offset of 15 + 16 k.
 *
 * <p>Every MESSAGE nonce of a direction shares its first 16 bytes ("CurveZMQMESSAGEC" or "...S"), so the HSalsa20
 * step of XSalsa20 is done once, when the connection starts, and each box only restarts the Salsa20 stream of that
 * subkey with the 8-byte short nonce ({@link SalsaStream}). Below 4 KiB a box's blocks usually come from key stream
 * made ahead for the direction's next nonces in one wide call ({@link KeyStreamAhead}, see {@link #ahead} for how
 * much and when); else they are made into a per-thread array, several at a time.
 *
 * <p>No key stream outlives its box: whatever a box was given (made ahead or in the thread's array) is zeroed when
 * it ends ({@link #finish}), and {@link #close} lets go of what was made ahead for this boxer (issue 35: key stream of
 * a used nonce XORed with the recorded ciphertext is the clear text, and a closed connection's boxer, with its
 * subkey, stayed reachable from the thread's buffers).
 *
 * <p>Event-loop confined, like the connection it belongs to. Checked against Bouncy Castle's XSalsa20 and Poly1305
 * on random keys, nonces, lengths and buffer offsets ({@code MessageBoxerTest}) and libsodium's boxes (the CURVE
 * vectors).
 */
final class MessageBoxer {
    /** Key-stream blocks made at once: as much as a frame needs, up to 16 KiB of stream. */
    private static final int MAX_BLOCKS = SalsaLanes.MAX_LANES;
    /**
     * One key-stream array per I/O thread: boxing never yields the thread, so connections can share it.
     * Package-private for the tests, which check that nothing is left in it after a box.
     */
    static final FastThreadLocal<long[]> KEY_STREAM = new FastThreadLocal<long[]>() {
        @Override
        protected long[] initialValue() {
            return new long[8 * MAX_BLOCKS];
        }
    };
    /**
     * Key stream made ahead for the boxes sealed on an I/O thread, and for those opened (see KeyStreamAhead).
     * Package-private for the tests, which check that a sequence does take this path.
     */
    static final FastThreadLocal<KeyStreamAhead> SEAL_AHEAD = aheads();
    static final FastThreadLocal<KeyStreamAhead> OPEN_AHEAD = aheads();
    /** Blocks in a stream's first fill: 2.6x the scalar core's speed. */
    private static final int MIN_FILL_LANES = 64;
    /** The most blocks per fill. */
    private static final int MAX_FILL_LANES = KeyStreamAhead.MAX_BLOCKS;
    /** Boxes of fewer blocks (4 KiB) take key stream made ahead: at least two of them fit a fill. */
    private static final int AHEAD_MAX_BLOCKS = KeyStreamAhead.MAX_BLOCKS / 2;
    private static final int MIN_BACKOFF = 16;
    private static final int MAX_BACKOFF = 4096;
    /** From this many bytes a box's loop runs on the buffers' arrays or memory ({@link BufferMemory}). */
    static final int REGION_MIN_BYTES = 256;
    /**
     * From this many bytes of such a run the MAC is taken in lanes on the Vector API ({@link Poly1305Lanes}), where
     * {@link CurveVectors} has it: the same 4 KiB from which the key stream uses that API, for the same reason
     * ({@link SalsaLanes#VECTOR_MIN_BLOCKS}). (The lanes pay from about 400 bytes once compiled.)
     */
    static final int MAC_LANES_MIN_BYTES = 4096;
    /** The MAC's lanes, one per I/O thread like the key stream (a run starts and ends within one box). */
    private static final FastThreadLocal<Poly1305Lanes> MAC_LANES = new FastThreadLocal<Poly1305Lanes>() {
        @Override
        protected Poly1305Lanes initialValue() {
            return new Poly1305Lanes();
        }
    };

    /** Package-private for the tests (its last block). */
    final SalsaStream salsa;
    private final Poly1305Mac mac = new Poly1305Mac();
    /** This box's key stream (the thread's array or the one made ahead) and the next unused long in it, and its end. */
    private long[] keyStream;
    /** Whether {@link #keyStream} is key stream made ahead (a {@link KeyStreamAhead}'s), not the thread's array. */
    private boolean keyStreamAhead;
    private int ksAt;
    private int ksEnd;
    /** This box's blocks made ahead, and where they start in it, to zero when the box is done; or null. */
    private KeyStreamAhead aheadTaken;
    private int aheadAt;
    /** The thread's array if this box made blocks into it, and how far, to zero when the box is done; or null. */
    private long[] threadStream;
    private int threadEnd;
    /** Blocks to make at the next fill; boxes of the last fill not yet used up (0: none pending). */
    private int fillLanes = MIN_FILL_LANES;
    private int fillBoxes;
    private int fillUsed;
    /** Boxes left to box without filling, and what the next cool-down will be. */
    private int cooldown;
    private int backoff = MIN_BACKOFF;
    /** The most blocks a box needed since the last fill. */
    private int recentBlocks;

    /**
     * @param key    the connection's precomputed key ({@code crypto_box_beforenm})
     * @param prefix the 16-byte nonce prefix of this direction
     */
    MessageBoxer(byte[] key, String prefix) {
        byte[] p = new byte[16];
        for (int i = 0; i < 16; i++) {
            p[i] = (byte) prefix.charAt(i);
        }
        byte[] subkey = CryptoBox.hsalsa20(key, p);
        salsa = new SalsaStream(subkey);
        Arrays.fill(subkey, (byte) 0);
    }

    /**
     * Starts a box with {@code nonce} for {@code streamLength} bytes of clear text: the key stream restarts, its
     * first 32 bytes key the MAC, and the next 32 are the first to encrypt with. Below {@link #AHEAD_MAX_BLOCKS}
     * blocks the blocks come from {@code aheads}' key stream made ahead when it holds this nonce, see {@link #ahead}.
     */
    private void begin(long nonce, int streamLength, FastThreadLocal<KeyStreamAhead> aheads) {
        int blocks = blocksFor(32 + streamLength);
        if (blocks < AHEAD_MAX_BLOCKS) {
            KeyStreamAhead ahead = aheads.get();
            int at = ahead(ahead, nonce, blocks);
            if (at >= 0) {
                long[] ks = ahead.keyStream;
                int made = ahead.blocksPerBox();
                aheadTaken = ahead;
                aheadAt = at;
                keyStream = ks;
                keyStreamAhead = true;
                ksAt = at + 4;
                ksEnd = at + 8 * made;
                mac.init(ks[at], ks[at + 1], ks[at + 2], ks[at + 3]);
                // Should the box need more than was made, its stream goes on from there (refill).
                salsa.start(nonce);
                salsa.seek(made);
                return;
            }
        } else {
            // Too large to be made ahead: should the buffer hold this nonce's first blocks, they are used now.
            KeyStreamAhead ahead = aheads.getIfExists();
            if (ahead != null) {
                ahead.passed(this);
            }
        }
        long[] ks = KEY_STREAM.get();
        keyStream = ks;
        keyStreamAhead = false;
        salsa.start(nonce);
        salsa.next(ks, blocks);
        ksEnd = 8 * blocks;
        threadStream = ks;
        threadEnd = ksEnd;
        mac.init(ks[0], ks[1], ks[2], ks[3]);
        ksAt = 4;
    }

    /**
     * The box of {@code nonce}'s blocks in {@code ahead}: taken if they were made, else made now with the next boxes'
     * unless recent fills went unused; the index of its first long, or -1 for the ordinary path (the box alone).
     *
     * <p>How much: the first fill of a stream is {@link #MIN_FILL_LANES} blocks (worth it if a few of its boxes are
     * used), each fill used up doubles it up to {@link #MAX_FILL_LANES}, and blocks per box are the most any
     * box needed since the last fill, so a stream whose sizes vary is covered by its larger boxes. When a fill ends
     * less than half used (another connection on this thread took the buffer, or the peer skipped nonces), the next
     * is halved and the boxer makes none for its next {@code backoff} boxes, doubling up to {@link #MAX_BACKOFF}: a
     * connection interleaved box by box with another one on its thread wastes at most one fill per that many boxes.
     */
    private int ahead(KeyStreamAhead ahead, long nonce, int blocks) {
        if (blocks > recentBlocks) {
            recentBlocks = blocks;
        }
        int at = ahead.take(this, nonce);
        if (at >= 0) {
            fillUsed++;
            if (ahead.usedUp() && fillBoxes > 0) {
                fillBoxes = 0;
                backoff = MIN_BACKOFF;
                fillLanes = Math.min(2 * fillLanes, MAX_FILL_LANES);
            }
            return at;
        }
        if (fillBoxes > 0) {
            // The last fill was not used up: its buffer was taken, or the nonces skipped.
            if (2 * fillUsed < fillBoxes) {
                fillLanes = Math.max(fillLanes / 2, MIN_FILL_LANES);
                cooldown = backoff;
                backoff = Math.min(2 * backoff, MAX_BACKOFF);
            }
            fillBoxes = 0;
        }
        if (cooldown > 0) {
            cooldown--;
            return -1;
        }
        int perBox = recentBlocks;
        int boxes = Math.max(2, fillLanes / perBox);
        ahead.fill(this, salsa, nonce, boxes, perBox);
        fillBoxes = boxes;
        fillUsed = 1;
        recentBlocks = 0;
        return ahead.take(this, nonce);
    }

    /**
     * The box is done: every block of key stream it was given, made ahead or in the thread's array, is zeroed now
     * (XORed with the recorded ciphertext it would be the clear text): one fill over each region the box used, about
     * as many bytes as its stream and still in the cache. In a {@code finally}: a box that throws midway is done too.
     */
    private void finish() {
        keyStream = null;
        if (aheadTaken != null) {
            aheadTaken.used(aheadAt);
            aheadTaken = null;
        }
        if (threadStream != null) {
            Arrays.fill(threadStream, 0, threadEnd, 0L);
            threadStream = null;
            threadEnd = 0;
        }
    }

    /**
     * The connection is gone: lets go of this thread's key stream made ahead if it is this boxer's (zeroed, and the
     * reference to this boxer dropped) and zeroes the key; nothing may be boxed after this. On the thread that boxed
     * (the connection's event loop), as the buffers are per thread.
     */
    void close() {
        KeyStreamAhead sealing = SEAL_AHEAD.getIfExists();
        if (sealing != null) {
            sealing.release(this);
        }
        KeyStreamAhead opening = OPEN_AHEAD.getIfExists();
        if (opening != null) {
            opening.release(this);
        }
        salsa.destroy();
    }

    private static FastThreadLocal<KeyStreamAhead> aheads() {
        return new FastThreadLocal<KeyStreamAhead>() {
            @Override
            protected KeyStreamAhead initialValue() {
                return new KeyStreamAhead();
            }
        };
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
        begin(nonce, n, SEAL_AHEAD);
        try {
            long[] ks = keyStream;
            int k = ksAt;
            if (length >= 15) {
                // The first block: the flags byte and the frame's first 15 bytes.
                long y0 = ((flags & 0xFF) | (content.getLongLE(index) << 8)) ^ ks[k];
                long y1 = content.getLongLE(index + 7) ^ ks[k + 1];
                out.setLongLE(at, y0);
                out.setLongLE(at + 8, y1);
                mac.block(y0, y1);
                ksAt = k + 2;
                crypt(content, index + 15, out, at + 16, length - 15, true);
            } else {
                long x0 = (flags & 0xFF) | (gather(content, index, Math.min(length, 7)) << 8);
                long x1 = length > 7 ? gather(content, index + 7, length - 7) : 0;
                lastBlock(x0, x1, n, out, at, true);
            }
        } finally {
            finish();
        }
        mac.finish();
        out.setLongLE(tagAt, mac.tag0());
        out.setLongLE(tagAt + 8, mac.tag1());
        out.writerIndex(at + n);
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
        begin(nonce, n, OPEN_AHEAD);
        int flags;
        try {
            long[] ks = keyStream;
            int k = ksAt;
            if (n >= 16) {
                long x0 = in.getLongLE(s);
                long x1 = in.getLongLE(s + 8);
                mac.block(x0, x1);
                long y0 = x0 ^ ks[k];
                long y1 = x1 ^ ks[k + 1];
                flags = (int) y0 & 0xFF;
                // The block's other 15 bytes are the frame's first.
                out.setLongLE(w, (y0 >>> 8) | (y1 << 56));
                scatter(out, w + 8, y1 >>> 8, 7);
                ksAt = k + 2;
                crypt(in, s + 16, out, w + 15, n - 16, false);
            } else {
                long x0 = gather(in, s, Math.min(n, 8));
                long x1 = n > 8 ? gather(in, s + 8, n - 8) : 0;
                mac.lastBlock(x0, x1, n);
                long y0 = x0 ^ ks[k];
                long y1 = x1 ^ ks[k + 1];
                flags = (int) y0 & 0xFF;
                scatter(out, w, y0 >>> 8, Math.min(n - 1, 7));
                if (n > 8) {
                    scatter(out, w + 7, y1, n - 8);
                }
            }
        } finally {
            finish();
        }
        in.readerIndex(r + length);
        out.writerIndex(w + n - 1);
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
        if (n >= REGION_MIN_BYTES && BufferMemory.check(src, s, n) && BufferMemory.check(dst, d, n)) {
            int whole = n & ~15;
            cryptMemory(BufferMemory.array(src), BufferMemory.base(src, s), BufferMemory.array(dst),
                    BufferMemory.base(dst, d), whole, sealing);
            s += whole;
            d += whole;
            n -= whole;
        }
        long[] ks = keyStream;
        int k = ksAt;
        Poly1305Mac m = mac;
        while (n >= 16) {
            if (k == ksEnd) {
                refill(n);
                ks = keyStream;
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

    /**
     * {@link #crypt}'s loop on the buffers' memory ({@link BufferMemory}): {@code n}, a multiple of 16, bytes from
     * {@code s} in {@code from} (an array, or memory if {@code null}) to {@code d} in {@code to}. The same steps as
     * {@link #crypt}'s loop on the {@code ByteBuf} methods, written twice on purpose: behind an accessor interface the
     * hot loop would call through a megamorphic site again, which is what this loop is for.
     */
    private void cryptMemory(byte[] from, long s, byte[] to, long d, int n, boolean sealing) {
        if (n >= MAC_LANES_MIN_BYTES && CurveVectors.MAC_LANES > 0) {
            Poly1305Lanes lanes = MAC_LANES.get();
            if (lanes.on()) {
                cryptMemoryLanes(from, s, to, d, n, sealing, lanes);
                return;
            }
        }
        long[] ks = keyStream;
        int k = ksAt;
        Poly1305Mac m = mac;
        long end = s + n;
        while (s < end) {
            if (k == ksEnd) {
                refill((int) (end - s));
                ks = keyStream;
                k = 0;
            }
            long x0 = BufferMemory.getLongLE(from, s);
            long x1 = BufferMemory.getLongLE(from, s + 8);
            long y0 = x0 ^ ks[k];
            long y1 = x1 ^ ks[k + 1];
            BufferMemory.setLongLE(to, d, y0);
            BufferMemory.setLongLE(to, d + 8, y1);
            if (sealing) {
                m.block(y0, y1);
            } else {
                m.block(x0, x1);
            }
            k += 2;
            s += 16;
            d += 16;
        }
        ksAt = k;
    }

    /**
     * {@link #cryptMemory} with the MAC in lanes: each block's ciphertext goes to {@code lanes}' buffer instead of
     * {@link Poly1305Mac#block}, and the lanes take it a few hundred blocks at a time. The blocks go in stretches that
     * neither run out of key stream nor fill the buffer, each a loop with nothing else in it, one for sealing and one
     * for opening (what the MAC takes differs); a copy of the loop, for the reason {@link #cryptMemory} gives.
     */
    private void cryptMemoryLanes(byte[] from, long s, byte[] to, long d, int n, boolean sealing,
            Poly1305Lanes lanes) {
        lanes.start(mac);
        long[] m0 = lanes.m0;
        long[] m1 = lanes.m1;
        int b = 0;
        int k = ksAt;
        int left = n >>> 4;
        while (left > 0) {
            if (k == ksEnd) {
                refill(16 * left);
                k = 0;
            }
            long[] ks = keyStream;
            int stretch = Math.min(left, Math.min((ksEnd - k) >>> 1, Poly1305Lanes.BUFFERED - b));
            int last = b + stretch;
            if (sealing) {
                for (; b < last; b++, k += 2, s += 16, d += 16) {
                    long y0 = BufferMemory.getLongLE(from, s) ^ ks[k];
                    long y1 = BufferMemory.getLongLE(from, s + 8) ^ ks[k + 1];
                    BufferMemory.setLongLE(to, d, y0);
                    BufferMemory.setLongLE(to, d + 8, y1);
                    m0[b] = y0;
                    m1[b] = y1;
                }
            } else {
                for (; b < last; b++, k += 2, s += 16, d += 16) {
                    long x0 = BufferMemory.getLongLE(from, s);
                    long x1 = BufferMemory.getLongLE(from, s + 8);
                    BufferMemory.setLongLE(to, d, x0 ^ ks[k]);
                    BufferMemory.setLongLE(to, d + 8, x1 ^ ks[k + 1]);
                    m0[b] = x0;
                    m1[b] = x1;
                }
            }
            left -= stretch;
            if (b == Poly1305Lanes.BUFFERED) {
                lanes.buffered = b;
                lanes.drain();
                b = lanes.buffered;
            }
        }
        ksAt = k;
        lanes.buffered = b;
        lanes.finish();
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
        if (keyStreamAhead) {
            // The stream started in key stream made ahead: go on in the thread's array, not over the next boxes'.
            keyStream = KEY_STREAM.get();
            keyStreamAhead = false;
            threadStream = keyStream;
        }
        salsa.next(keyStream, blocks);
        ksAt = 0;
        ksEnd = 8 * blocks;
        // Refills shrink as the box nears its end: what an earlier one wrote beyond this one is zeroed too.
        threadEnd = Math.max(threadEnd, ksEnd);
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
