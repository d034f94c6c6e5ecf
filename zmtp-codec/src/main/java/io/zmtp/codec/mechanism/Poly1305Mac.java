package io.zmtp.codec.mechanism;

/**
 * Poly1305 (RFC 8439 section 2.5; NaCl's {@code crypto_onetimeauth}) on two 64-bit limbs and a small third one,
 * incremental and allocation-free: {@link #init} with a one-time key, {@link #block} per 16 bytes, {@link #lastBlock}
 * for a final partial block, {@link #finish}, then {@link #tag0}/{@link #tag1} for the tag's two halves.
 *
 * <p>Why 2x64+2 and not 44/44/42-bit limbs: the accumulator {@code h = h0 + h1*2^64 + h2*2^128} times the clamped
 * key {@code r = r0 + r1*2^64} takes four 64x64->128 products per block (a multiply and {@link Math#multiplyHigh}
 * each, both intrinsics), against nine on 44-bit limbs; a message block also loads as two little-endian longs with
 * no re-splitting. The price is carries between limbs, which Java computes from the sign bits (no add-with-carry).
 * Clamping leaves {@code r0, r1 < 2^60} and {@code r1} a multiple of 4, so {@code 2^128 * r1 = 5/4 * r1 (mod p)}
 * with {@code s1 = r1 + r1/4} and every key-side factor is below 2^63: Java's signed {@code multiplyHigh} is then
 * made unsigned by one correction term for the accumulator side. {@code h2} stays below 8 between blocks (the partial
 * reduction leaves at most 3 plus carries), so {@code h2 * s1} fits a long. The same scheme as OpenSSL's 64-bit
 * {@code poly1305_blocks}; written here from the arithmetic.
 *
 * <p>Timing: no branch or table index depends on a secret. The final reduction picks {@code h} or {@code h - p}
 * with masks, and {@link #matches} compares a tag by XOR and OR of both halves, with no early exit.
 *
 * <p>Checked against Bouncy Castle's {@code Poly1305} on random keys and lengths ({@code Poly1305MacTest}) and
 * through the secretbox vectors. Confined to one thread, like the connection it belongs to.
 *
 * @see <a href="https://www.rfc-editor.org/rfc/rfc8439#section-2.5">RFC 8439, 2.5 The Poly1305 Algorithm</a>
 */
final class Poly1305Mac {
    private long r0;
    private long r1;
    /** {@code r1 + r1 / 4}: what {@code r1} is worth at 2^128 (mod 2^130 - 5). */
    private long s1;
    /** The pad {@code s} added at the end. */
    private long pad0;
    private long pad1;
    private long h0;
    private long h1;
    private long h2;
    private long tag0;
    private long tag1;

    /**
     * Keys the MAC with 32 bytes given as four little-endian longs: {@code r} (clamped here), then the pad.
     */
    void init(long key0, long key1, long key2, long key3) {
        r0 = key0 & 0x0FFFFFFC0FFFFFFFL;
        r1 = key1 & 0x0FFFFFFC0FFFFFFCL;
        s1 = r1 + (r1 >>> 2);
        pad0 = key2;
        pad1 = key3;
        h0 = 0;
        h1 = 0;
        h2 = 0;
    }

    /** Absorbs a whole 16-byte block, given as two little-endian longs. */
    void block(long m0, long m1) {
        absorb(m0, m1, 1);
    }

    /**
     * Absorbs the final block of {@code length} (1 to 15) bytes, given as two little-endian longs whose bytes from
     * {@code length} on are zero: the 0x01 byte after the message is added here, and no 2^128 bit.
     */
    void lastBlock(long m0, long m1, int length) {
        if (length < 8) {
            m0 |= 1L << (8 * length);
        } else {
            m1 |= 1L << (8 * (length - 8));
        }
        absorb(m0, m1, 0);
    }

    private void absorb(long m0, long m1, long hibit) {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        // h += m (+ 2^128 for a whole block)
        long t0 = a0 + m0;
        long c = carry(a0, m0, t0);
        long t1 = a1 + m1;
        long c1 = carry(a1, m1, t1);
        long t1c = t1 + c;
        c1 += (t1 & ~t1c) >>> 63;
        a2 += c1 + hibit;
        a0 = t0;
        a1 = t1c;

        // d0 = a0*r0 + a1*s1, d1 = a0*r1 + a1*r0 + a2*s1 (128 bits each, as lo/hi), a2 = a2*r0
        long rr0 = r0;
        long rr1 = r1;
        long ss1 = s1;
        long d0lo = a0 * rr0;
        long d0hi = mulHigh(a0, rr0);
        long p = a1 * ss1;
        long d0lo2 = d0lo + p;
        d0hi += mulHigh(a1, ss1) + carry(d0lo, p, d0lo2);

        long d1lo = a0 * rr1;
        long d1hi = mulHigh(a0, rr1);
        p = a1 * rr0;
        long sum = d1lo + p;
        d1hi += mulHigh(a1, rr0) + carry(d1lo, p, sum);
        p = a2 * ss1;
        d1lo = sum + p;
        d1hi += carry(sum, p, d1lo);
        long g2 = a2 * rr0;

        // h = d0 + d1*2^64 + g2*2^128, then fold what is above 2^130 back in times 5 (partial reduction)
        long n0 = d0lo2;
        long n1 = d1lo + d0hi;
        long n2 = g2 + d1hi + carry(d1lo, d0hi, n1);
        long fold = (n2 >>> 2) + (n2 & ~3L);
        n2 &= 3;
        long f0 = n0 + fold;
        long cf = carry(n0, fold, f0);
        long f1 = n1 + cf;
        n2 += (n1 & ~f1) >>> 63;
        h0 = f0;
        h1 = f1;
        h2 = n2;
    }

    /**
     * Writes {@code r^1} to {@code r^count} to {@code out}, three longs each ({@code v0 + v1 * 2^64 + v2 * 2^128},
     * {@code v2} at most 4, as the accumulator is kept): the powers {@link Poly1305Lanes} steps with. The
     * accumulator is left as it was.
     */
    void powers(long[] out, int count) {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        h0 = r0;
        h1 = r1;
        h2 = 0;
        out[0] = r0;
        out[1] = r1;
        out[2] = 0;
        for (int i = 1; i < count; i++) {
            absorb(0, 0, 0);
            out[3 * i] = h0;
            out[3 * i + 1] = h1;
            out[3 * i + 2] = h2;
        }
        h0 = a0;
        h1 = a1;
        h2 = a2;
    }

    /** The accumulator's limbs ({@code h0 + h1 * 2^64 + h2 * 2^128}, {@code h2} below 8). */
    long h0() {
        return h0;
    }

    long h1() {
        return h1;
    }

    long h2() {
        return h2;
    }

    /**
     * Replaces the accumulator with {@code a0 + a1 * 2^64 + a2 * 2^128}, {@code a2} at most 4: the sum of
     * {@link Poly1305Lanes}' lanes, which took over the blocks since the accumulator was read.
     */
    void accumulator(long a0, long a1, long a2) {
        h0 = a0;
        h1 = a1;
        h2 = a2;
    }

    /**
     * Computes the tag (read it with {@link #tag0()} and {@link #tag1()}): h fully reduced mod 2^130 - 5, plus the
     * pad, mod 2^128.
     */
    void finish() {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        // g = h + 5 - 2^130: if that does not go negative, h >= p and g is the reduced value.
        long g0 = a0 + 5;
        long c = carry(a0, 5, g0);
        long g1 = a1 + c;
        long g2 = a2 + ((a1 & ~g1) >>> 63);
        long mask = -(g2 >>> 2);
        a0 = (a0 & ~mask) | (g0 & mask);
        a1 = (a1 & ~mask) | (g1 & mask);
        long t0 = a0 + pad0;
        long t1 = a1 + pad1 + carry(a0, pad0, t0);
        tag0 = t0;
        tag1 = t1;
        h0 = 0;
        h1 = 0;
        h2 = 0;
    }

    /** The tag's first 8 bytes as a little-endian long, after {@link #finish}. */
    long tag0() {
        return tag0;
    }

    /** The tag's last 8 bytes as a little-endian long, after {@link #finish}. */
    long tag1() {
        return tag1;
    }

    /** Whether the tag equals {@code expected0, expected1}, in time that does not depend on where they differ. */
    boolean matches(long expected0, long expected1) {
        return ((tag0 ^ expected0) | (tag1 ^ expected1)) == 0;
    }

    /** The carry out of {@code a + b = sum} (mod 2^64), as 0 or 1, from the top bits. */
    private static long carry(long a, long b, long sum) {
        return ((a & b) | ((a | b) & ~sum)) >>> 63;
    }

    /** The high 64 bits of the unsigned product of {@code a} (any) and {@code b} (below 2^63). */
    private static long mulHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b);
    }
}
