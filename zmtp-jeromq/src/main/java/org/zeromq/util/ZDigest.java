package org.zeromq.util;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A SHA-1 digest of data given in pieces, as JeroMQ 0.6.0's {@code ZDigest} (CZMQ's {@code zdigest}). SHA-1 is
 * used for fingerprints (what changed in a certificate store), not for security.
 *
 * <p>{@link #data()} finishes the digest; asking again returns the same digest (JeroMQ's returns the digest of
 * nothing the second time). Data given after that starts a new digest. {@link #size()} does not finish it.
 *
 * <p>Not thread-safe.
 */
public class ZDigest {
    private final byte[] buffer;
    private final MessageDigest sha1;
    /** The finished digest, until more data comes. */
    private byte[] digest;

    /** A digest that reads streams 8 KiB at a time. */
    public ZDigest() {
        this(new byte[8192]);
    }

    /**
     * A digest that reads streams through {@code buffer}.
     *
     * @param buffer the buffer {@link #update(InputStream)} reads into; not empty
     */
    public ZDigest(byte[] buffer) {
        if (buffer.length == 0) {
            throw new IllegalArgumentException("digest buffer length: 0 (expected: > 0)");
        }
        this.buffer = buffer;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must have SHA-1 (MessageDigest's javadoc).
            throw new IllegalStateException("no SHA-1 in this JDK", e);
        }
    }

    /**
     * Adds everything left in {@code input}, which stays open.
     *
     * @throws IOException if reading fails
     */
    public ZDigest update(InputStream input) throws IOException {
        digest = null;
        for (int read = input.read(buffer); read != -1; read = input.read(buffer)) {
            sha1.update(buffer, 0, read);
        }
        return this;
    }

    /** Adds {@code input}. */
    public ZDigest update(byte[] input) {
        return update(input, 0, input.length);
    }

    /** Adds {@code length} bytes of {@code input} from {@code offset}. */
    public ZDigest update(byte[] input, int offset, int length) {
        digest = null;
        sha1.update(input, offset, length);
        return this;
    }

    /** The digest of the data given so far, 20 bytes (a copy). */
    public byte[] data() {
        if (digest == null) {
            digest = sha1.digest();
        }
        return digest.clone();
    }

    /** The digest's length in bytes: 20. */
    public int size() {
        return sha1.getDigestLength();
    }

    /**
     * The digest as {@link ZData#toString(byte[])} shows it: upper-case hex, unless all 20 bytes happen to be
     * printable ASCII, as in JeroMQ.
     */
    public String string() {
        return ZData.toString(data());
    }
}
