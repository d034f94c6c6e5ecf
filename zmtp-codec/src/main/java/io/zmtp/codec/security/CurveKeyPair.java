package io.zmtp.codec.security;

import org.bouncycastle.math.ec.rfc7748.X25519;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * A CURVE key pair: an X25519 secret key and its public key, 32 bytes each, written as 40 Z85 characters where
 * people see them ({@link #publicKeyZ85()}, {@link #fromZ85}), as libzmq's {@code zmq_curve_keypair} and
 * {@code curve_keygen} write them. Keys from libzmq, pyzmq, CZMQ and JeroMQ are interchangeable with these.
 *
 * <p>Immutable; accessors return copies. {@link #toString()} shows only the public key.
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 * @see <a href="https://rfc.zeromq.org/spec/32/">32/Z85</a>
 */
public final class CurveKeyPair {
    /** Length of a CURVE public or secret key in bytes. */
    public static final int KEY_LENGTH = 32;
    /** Length of a CURVE key in Z85 characters. */
    public static final int Z85_KEY_LENGTH = 40;

    private static final class Random {
        static final SecureRandom INSTANCE = new SecureRandom();
    }

    private final byte[] publicKey;
    private final byte[] secretKey;

    private CurveKeyPair(byte[] publicKey, byte[] secretKey) {
        this.publicKey = publicKey;
        this.secretKey = secretKey;
    }

    /** A new random key pair. */
    public static CurveKeyPair generate() {
        return generate(Random.INSTANCE);
    }

    /** A new key pair from {@code random}, which must be a cryptographically strong source. */
    public static CurveKeyPair generate(SecureRandom random) {
        byte[] secret = new byte[KEY_LENGTH];
        X25519.generatePrivateKey(random, secret);
        return fromSecretKey(secret);
    }

    /** The pair of {@code secretKey} (32 bytes): its public key is derived from it. */
    public static CurveKeyPair fromSecretKey(byte[] secretKey) {
        byte[] secret = checkKey(secretKey, "secret key").clone();
        byte[] pub = new byte[KEY_LENGTH];
        X25519.scalarMultBase(secret, 0, pub, 0);
        return new CurveKeyPair(pub, secret);
    }

    /** The pair of a Z85 secret key (40 characters). */
    public static CurveKeyPair fromSecretKeyZ85(String secretKey) {
        return fromSecretKey(decodeKey(secretKey, "secret key"));
    }

    /**
     * A pair from both keys in Z85, as configuration files usually hold them.
     *
     * @throws IllegalArgumentException if either is not a 40-character Z85 key, or the public key is not the
     *                                  secret key's
     */
    public static CurveKeyPair fromZ85(String publicKey, String secretKey) {
        CurveKeyPair pair = fromSecretKeyZ85(secretKey);
        if (!Arrays.equals(pair.publicKey, decodeKey(publicKey, "public key"))) {
            throw new IllegalArgumentException("CURVE public key " + publicKey + " is not the secret key's");
        }
        return pair;
    }

    /**
     * Decodes a 40-character Z85 key into its 32 bytes.
     *
     * @param what what the key is, for the error message ("server key")
     * @throws IllegalArgumentException if {@code z85} is not a 40-character Z85 string
     */
    public static byte[] decodeKey(String z85, String what) {
        Objects.requireNonNull(z85, what);
        if (z85.length() != Z85_KEY_LENGTH) {
            throw new IllegalArgumentException("CURVE " + what + ": " + z85.length()
                    + " characters (expected: " + Z85_KEY_LENGTH + " Z85 characters)");
        }
        try {
            return Z85.decode(z85);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("CURVE " + what + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks that {@code key} is a 32-byte key and returns it.
     *
     * @throws IllegalArgumentException if it is not 32 bytes long
     */
    public static byte[] checkKey(byte[] key, String what) {
        Objects.requireNonNull(key, what);
        if (key.length != KEY_LENGTH) {
            throw new IllegalArgumentException("CURVE " + what + " length: " + key.length + " (expected: "
                    + KEY_LENGTH + ")");
        }
        return key;
    }

    /** The public key, 32 bytes. */
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The secret key, 32 bytes. */
    public byte[] secretKey() {
        return secretKey.clone();
    }

    /** The public key in Z85, 40 characters. */
    public String publicKeyZ85() {
        return Z85.encode(publicKey);
    }

    /** The secret key in Z85, 40 characters. */
    public String secretKeyZ85() {
        return Z85.encode(secretKey);
    }

    @Override
    public boolean equals(Object o) {
        // Constant time on the secret: equals() must not become a way to guess it byte by byte.
        return o instanceof CurveKeyPair && Arrays.equals(publicKey, ((CurveKeyPair) o).publicKey)
                && MessageDigest.isEqual(secretKey, ((CurveKeyPair) o).secretKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(publicKey);
    }

    /** The public key only: a key pair in a log line must not leak its secret. */
    @Override
    public String toString() {
        return "CurveKeyPair{public=" + publicKeyZ85() + '}';
    }
}
