package io.zmtp.codec.mechanism;

import org.bouncycastle.math.ec.rfc7748.X25519;

import java.security.SecureRandom;

/**
 * Where CURVE's per-connection secrets come from: transient secret keys, cookie keys and long nonces. A seam so a
 * unit test can replay a captured handshake byte for byte, or keep the arrays it hands out to check they were
 * zeroed; everything else uses {@link #SECURE}.
 *
 * <p>Secrets come as bare arrays that the caller owns, not as {@link io.zmtp.codec.security.CurveKeyPair}s: a key
 * pair is immutable and hands out copies, so a transient secret held in one could never be zeroed.
 */
interface CurveRandom {
    CurveRandom SECURE = new CurveRandom() {
        private final SecureRandom random = new SecureRandom();

        @Override
        public byte[] transientSecretKey() {
            byte[] k = new byte[32];
            X25519.generatePrivateKey(random, k);
            return k;
        }

        @Override
        public byte[] longNonce() {
            byte[] n = new byte[16];
            random.nextBytes(n);
            return n;
        }

        @Override
        public byte[] cookieKey() {
            byte[] k = new byte[32];
            random.nextBytes(k);
            return k;
        }
    };

    /** A new transient secret key (c' or s'), 32 bytes, owned by the caller. */
    byte[] transientSecretKey();

    /** A new 16-byte long nonce (cookie, WELCOME, vouch). */
    byte[] longNonce();

    /** A new 32-byte cookie key, owned by the caller. */
    byte[] cookieKey();
}
