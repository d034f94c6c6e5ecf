package io.zmtp.codec.mechanism;

import io.zmtp.codec.security.CurveKeyPair;

import java.security.SecureRandom;

/**
 * Where CURVE's per-connection secrets come from: transient key pairs and long nonces. A seam so a unit test can
 * replay a captured handshake byte for byte; everything else uses {@link #SECURE}.
 */
interface CurveRandom {
    CurveRandom SECURE = new CurveRandom() {
        private final SecureRandom random = new SecureRandom();

        @Override
        public CurveKeyPair transientKeyPair() {
            return CurveKeyPair.generate(random);
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

    /** A new transient key pair (C'/c' or S'/s'). */
    CurveKeyPair transientKeyPair();

    /** A new 16-byte long nonce (cookie, WELCOME, vouch). */
    byte[] longNonce();

    /** A new 32-byte cookie key. */
    byte[] cookieKey();
}
