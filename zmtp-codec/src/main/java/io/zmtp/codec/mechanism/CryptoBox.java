package io.zmtp.codec.mechanism;

import org.bouncycastle.crypto.engines.Salsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.math.ec.rfc7748.X25519;

import java.security.MessageDigest;
import java.util.Arrays;

/**
 * NaCl's {@code crypto_box} and {@code crypto_secretbox} (XSalsa20-Poly1305, "easy" layout: the 16-byte tag first,
 * then the ciphertext), on Bouncy Castle's X25519, Salsa20 core and Poly1305: what CurveZMQ's boxes are. The JDK has
 * X25519 but neither XSalsa20 nor Poly1305, and Bouncy Castle has no NaCl box, so the composition is here:
 * <ul>
 *   <li>{@code crypto_box_beforenm(pk, sk)} = HSalsa20(X25519(sk, pk), 0): the key a box between two key pairs
 *       uses in either direction ({@link #beforenm});</li>
 *   <li>XSalsa20(k, n) = Salsa20(HSalsa20(k, n[0..16]), n[16..24]);</li>
 *   <li>secretbox: the first 32 bytes of the key stream are the Poly1305 key, the rest encrypt the message, the tag
 *       is over the ciphertext.</li>
 * </ul>
 * These are for the handshake (allocating, simple); {@link MessageBoxer} is the allocation-free form for messages.
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 * @see <a href="https://nacl.cr.yp.to/box.html">NaCl crypto_box</a>
 */
final class CryptoBox {
    static final int KEY_LENGTH = 32;
    static final int NONCE_LENGTH = 24;
    static final int TAG_LENGTH = 16;

    private static final int[] SIGMA = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

    private CryptoBox() {
    }

    /**
     * {@code crypto_box_beforenm}: the shared key of {@code publicKey} and {@code secretKey}.
     *
     * @throws CryptoException if the public key is a low-order point (the agreement is all zeros), as libsodium
     *                         refuses it
     */
    static byte[] beforenm(byte[] publicKey, byte[] secretKey) {
        byte[] shared = new byte[KEY_LENGTH];
        if (!X25519.calculateAgreement(secretKey, 0, publicKey, 0, shared, 0)) {
            throw new CryptoException("X25519 with a low-order public key");
        }
        byte[] k = hsalsa20(shared, new byte[16]);
        Arrays.fill(shared, (byte) 0);
        return k;
    }

    /** HSalsa20: the Salsa20 core without its final addition, words 0, 5, 10, 15, 6, 7, 8, 9 of the result. */
    static byte[] hsalsa20(byte[] key, byte[] input16) {
        int[] state = new int[16];
        state[0] = SIGMA[0];
        state[5] = SIGMA[1];
        state[10] = SIGMA[2];
        state[15] = SIGMA[3];
        for (int i = 0; i < 4; i++) {
            state[1 + i] = le32(key, 4 * i);
            state[11 + i] = le32(key, 16 + 4 * i);
            state[6 + i] = le32(input16, 4 * i);
        }
        int[] x = new int[16];
        Salsa20Engine.salsaCore(20, state, x);
        // salsaCore adds the input back; HSalsa20 wants the rounds' output alone.
        int[] words = {0, 5, 10, 15, 6, 7, 8, 9};
        byte[] out = new byte[32];
        for (int i = 0; i < 8; i++) {
            int w = words[i];
            putLe32(x[w] - state[w], out, 4 * i);
        }
        // Both hold the key's words (and x the result): the caller zeroes what it gets back, these are ours.
        Arrays.fill(state, 0);
        Arrays.fill(x, 0);
        return out;
    }

    /** The X25519 public key of {@code secretKey}. */
    static byte[] publicKey(byte[] secretKey) {
        byte[] pub = new byte[KEY_LENGTH];
        X25519.scalarMultBase(secretKey, 0, pub, 0);
        return pub;
    }

    /** {@code crypto_box_easy_afternm} / {@code crypto_secretbox_easy}: tag and ciphertext of {@code message}. */
    static byte[] seal(byte[] key, byte[] nonce, byte[] message) {
        byte[] out = new byte[TAG_LENGTH + message.length];
        System.arraycopy(message, 0, out, TAG_LENGTH, message.length);
        Salsa20Engine salsa = xsalsa20(key, nonce);
        Poly1305 mac = macFor(salsa);
        salsa.processBytes(out, TAG_LENGTH, message.length, out, TAG_LENGTH);
        mac.update(out, TAG_LENGTH, message.length);
        mac.doFinal(out, 0);
        return out;
    }

    /**
     * {@code crypto_box_open_easy_afternm} / {@code crypto_secretbox_open_easy}: the message in {@code box}
     * ({@code length} bytes from {@code offset}: tag, then ciphertext).
     *
     * @throws CryptoException if the box is shorter than a tag, or its tag is wrong
     */
    static byte[] open(byte[] key, byte[] nonce, byte[] box, int offset, int length) {
        if (length < TAG_LENGTH) {
            throw new CryptoException("box of " + length + " bytes (expected: >= " + TAG_LENGTH + ")");
        }
        Salsa20Engine salsa = xsalsa20(key, nonce);
        Poly1305 mac = macFor(salsa);
        int textLength = length - TAG_LENGTH;
        mac.update(box, offset + TAG_LENGTH, textLength);
        byte[] tag = new byte[TAG_LENGTH];
        mac.doFinal(tag, 0);
        if (!MessageDigest.isEqual(tag, Arrays.copyOfRange(box, offset, offset + TAG_LENGTH))) {
            throw new CryptoException("box does not open: wrong key, nonce or tag, or tampered with");
        }
        byte[] message = new byte[textLength];
        salsa.processBytes(box, offset + TAG_LENGTH, textLength, message, 0);
        return message;
    }

    /** A nonce: {@code prefix} (ASCII) followed by {@code suffix}, 24 bytes together. */
    static byte[] nonce(String prefix, byte[] suffix) {
        byte[] n = new byte[NONCE_LENGTH];
        for (int i = 0; i < prefix.length(); i++) {
            n[i] = (byte) prefix.charAt(i);
        }
        if (prefix.length() + suffix.length != NONCE_LENGTH) {
            throw new IllegalArgumentException("nonce " + prefix + " + " + suffix.length + " bytes");
        }
        System.arraycopy(suffix, 0, n, prefix.length(), suffix.length);
        return n;
    }

    /** A nonce with a short (8-byte, big-endian) suffix. */
    static byte[] nonce(String prefix, long shortNonce) {
        byte[] suffix = new byte[8];
        for (int i = 0; i < 8; i++) {
            suffix[i] = (byte) (shortNonce >>> (56 - 8 * i));
        }
        return nonce(prefix, suffix);
    }

    private static Salsa20Engine xsalsa20(byte[] key, byte[] nonce) {
        Salsa20Engine salsa = new Salsa20Engine();
        byte[] subkey = hsalsa20(key, Arrays.copyOf(nonce, 16));
        salsa.init(true, new ParametersWithIV(new KeyParameter(subkey), Arrays.copyOfRange(nonce, 16, 24)));
        return salsa;
    }

    /** The Poly1305 keyed with the stream's first 32 bytes, which leaves the stream at the message's start. */
    private static Poly1305 macFor(Salsa20Engine salsa) {
        byte[] macKey = new byte[32];
        salsa.processBytes(macKey, 0, 32, macKey, 0);
        Poly1305 mac = new Poly1305();
        mac.init(new KeyParameter(macKey));
        return mac;
    }

    static int le32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    private static void putLe32(int v, byte[] b, int off) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    /** A box that does not open, or a key that can't be used. */
    static final class CryptoException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CryptoException(String message) {
            super(message);
        }
    }
}
