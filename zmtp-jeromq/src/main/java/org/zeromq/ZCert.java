package org.zeromq;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.Z85;
import org.zeromq.util.ZMetadata;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * A CURVE certificate, as JeroMQ 0.6.0's {@code ZCert} (CZMQ's {@code zcert}): a public key, optionally its secret
 * key, and metadata, kept in memory or saved as a ZPL file ({@link ZConfig}) in CZMQ's certificate format, line for
 * line as JeroMQ writes it:
 * <pre>
 * # ** Generated on 2026-01-31T12:00:00+0000 by ZCert **
 * #    ZeroMQ CURVE Public Certificate      (and three lines more; the secret file has its own)
 *
 * metadata
 *     name = "value"
 * curve
 *     secret-key = "40 Z85 characters"      (in the secret file only)
 *     public-key = "40 Z85 characters"
 * </pre>
 * The public file is what peers exchange (a {@link ZCertStore} directory of them says which clients a CURVE server
 * accepts); the secret file stays with its owner, and is created readable by its owner only (CZMQ does the same;
 * JeroMQ leaves it to the umask).
 *
 * <p>Keys are checked for length only; a public key is not checked against the secret key, as in JeroMQ.
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 * @see <a href="https://rfc.zeromq.org/spec/4/">4/ZPL</a>
 */
public class ZCert {
    private static final DateTimeFormatter GENERATED_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssZ");

    private final byte[] publicKey;
    private final byte[] secretKey;
    private final String publicTxt;
    private final String secretTxt;
    private final ZMetadata metadata = new ZMetadata();

    /** A certificate with a new random key pair. */
    public ZCert() {
        this(CurveKeyPair.generate());
    }

    private ZCert(CurveKeyPair pair) {
        this(pair.publicKey(), pair.secretKey());
    }

    /**
     * A certificate of a key pair made by {@link ZMQ.Curve#generateKeyPair()}.
     *
     * @throws IllegalArgumentException if the public key is null, or a key is not 40 Z85 characters
     */
    public ZCert(ZMQ.Curve.KeyPair keypair) {
        this(keypair.publicKey, keypair.secretKey);
    }

    /**
     * A public certificate, without a secret key.
     *
     * @param publicKey the public key in Z85, 40 characters
     * @throws IllegalArgumentException if it is not 40 Z85 characters
     */
    public ZCert(String publicKey) {
        this(publicKey, null);
    }

    /**
     * A certificate from binary keys (copied).
     *
     * @param publicKey the public key, 32 bytes
     * @param secretKey the secret key, 32 bytes, or null for a public certificate
     * @throws IllegalArgumentException if the public key is null, or a key is not 32 bytes
     */
    public ZCert(byte[] publicKey, byte[] secretKey) {
        checkArgument(publicKey != null, "Public key has to be provided for a ZCert");
        checkLength("Public", publicKey.length, CurveKeyPair.KEY_LENGTH);
        if (secretKey != null) {
            checkLength("Secret", secretKey.length, CurveKeyPair.KEY_LENGTH);
        }
        this.publicKey = publicKey.clone();
        this.publicTxt = Z85.encode(publicKey);
        this.secretKey = secretKey == null ? null : secretKey.clone();
        this.secretTxt = secretKey == null ? null : Z85.encode(secretKey);
    }

    /**
     * A certificate from Z85 keys.
     *
     * @param publicKey the public key in Z85, 40 characters
     * @param secretKey the secret key in Z85, 40 characters, or null for a public certificate
     * @throws IllegalArgumentException if the public key is null, or a key is not 40 Z85 characters
     */
    public ZCert(String publicKey, String secretKey) {
        checkArgument(publicKey != null, "Public key has to be provided for a ZCert");
        checkLength("Public", publicKey.length(), CurveKeyPair.Z85_KEY_LENGTH);
        if (secretKey != null) {
            checkLength("Secret", secretKey.length(), CurveKeyPair.Z85_KEY_LENGTH);
        }
        this.publicKey = CurveKeyPair.decodeKey(publicKey, "public key");
        this.publicTxt = publicKey;
        this.secretKey = secretKey == null ? null : CurveKeyPair.decodeKey(secretKey, "secret key");
        this.secretTxt = secretKey;
    }

    private static void checkArgument(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static void checkLength(String which, int length, int expected) {
        checkArgument(length == expected, which + " key length: " + length + " (expected: " + expected + ")");
    }

    /** The public key, 32 bytes (a copy). */
    public byte[] getPublicKey() {
        return publicKey.clone();
    }

    /** The secret key, 32 bytes (a copy), or null for a public certificate. */
    public byte[] getSecretKey() {
        return secretKey == null ? null : secretKey.clone();
    }

    /** The public key in Z85, 40 characters. */
    public String getPublicKeyAsZ85() {
        return publicTxt;
    }

    /** The secret key in Z85, 40 characters, or null for a public certificate. */
    public String getSecretKeyAsZ85() {
        return secretTxt;
    }

    /**
     * Sets this certificate's keys on {@code socket} as its own CURVE keys (CURVE_PUBLICKEY and, when there is one,
     * CURVE_SECRETKEY). A CURVE client also needs the server's public key (setCurveServerKey); a server,
     * setCurveServer(true).
     */
    public void apply(ZMQ.Socket socket) {
        socket.setCurvePublicKey(publicKey);
        if (secretKey != null) {
            socket.setCurveSecretKey(secretKey);
        }
    }

    /** The metadata, live: changes show in the files saved afterwards. */
    public ZMetadata getMetadata() {
        return metadata;
    }

    /**
     * Sets a metadata property.
     *
     * @param key a name without white space, {@code =}, {@code #} or quote, or saving fails
     */
    public void setMeta(String key, String value) {
        metadata.set(key, value);
    }

    /** Removes a metadata property. */
    public void unsetMeta(String key) {
        metadata.remove(key);
    }

    /** A metadata property's value, or null. */
    public String getMeta(String key) {
        return metadata.get(key);
    }

    /**
     * Saves the public certificate (no secret key) to a file, replacing it.
     *
     * @return the file, or null when {@code filename} is "-" (standard output)
     * @throws IOException              if the file cannot be written
     * @throws IllegalArgumentException if a metadata name has white space, {@code =}, {@code #} or a quote, or a value has a line break
     */
    public File savePublic(String filename) throws IOException {
        return publicConfig().save(filename);
    }

    /**
     * Writes the public certificate (no secret key).
     *
     * @throws IOException              if the writer fails
     * @throws IllegalArgumentException if a metadata name has white space, {@code =}, {@code #} or a quote, or a value has a line break
     */
    public void savePublic(Writer writer) throws IOException {
        publicConfig().save(writer);
    }

    /**
     * Saves the secret certificate (both keys) to a file, replacing it; the file is readable by its owner only.
     *
     * @return the file, or null when {@code filename} is "-" (standard output)
     * @throws IOException              if the file cannot be written
     * @throws IllegalArgumentException if a metadata name has white space, {@code =}, {@code #} or a quote, or a value has a line break
     */
    public File saveSecret(String filename) throws IOException {
        ZConfig config = secretConfig();
        if ("-".equals(filename)) {
            return config.save(filename);
        }
        Path file = Paths.get(filename);
        config.save(file, true);
        return file.toFile();
    }

    /**
     * Writes the secret certificate (both keys).
     *
     * @throws IOException              if the writer fails
     * @throws IllegalArgumentException if a metadata name has white space, {@code =}, {@code #} or a quote, or a value has a line break
     */
    public void saveSecret(Writer writer) throws IOException {
        secretConfig().save(writer);
    }

    private ZConfig publicConfig() {
        ZConfig root = header();
        root.addComment("   ZeroMQ CURVE Public Certificate");
        root.addComment("   Exchange securely, or use a secure mechanism to verify the contents");
        root.addComment("   of this file after exchange. Store public certificates in your home");
        root.addComment("   directory, in the .curve subdirectory.");
        metadata(root);
        root.putValue("curve/public-key", publicTxt);
        return root;
    }

    private ZConfig secretConfig() {
        ZConfig root = header();
        root.addComment("   ZeroMQ CURVE **Secret** Certificate");
        root.addComment("   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.");
        metadata(root);
        // The secret key first, as JeroMQ writes it.
        root.putValue("curve/secret-key", secretTxt);
        root.putValue("curve/public-key", publicTxt);
        return root;
    }

    /** A root with the first comment line, JeroMQ's and CZMQ's (the date is UTC). */
    private static ZConfig header() {
        ZConfig root = new ZConfig("root", null);
        String now = ZonedDateTime.now(ZoneOffset.UTC).format(GENERATED_AT);
        root.addComment("** Generated on " + now + " by ZCert **");
        return root;
    }

    /** The metadata section, present even when empty. */
    private void metadata(ZConfig root) {
        new ZConfig("metadata", root);
        for (Map.Entry<String, String> property : metadata.entrySet()) {
            root.putValue("metadata/" + property.getKey(), property.getValue());
        }
    }
}
