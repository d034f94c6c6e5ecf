package io.zmtp.codec.security;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a peer presented to prove who it is, as a mechanism's server side received it: the mechanism name and the
 * credential frames of a ZAP request (rfc 27): none for NULL, the username and password for PLAIN, the client's
 * 32-byte permanent public key for CURVE. Immutable.
 *
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP, "Request"</a>
 */
public final class ZmtpCredentials {
    private final String mechanism;
    private final List<byte[]> frames;

    /**
     * @param mechanism the mechanism name as in the greeting ("NULL", "PLAIN", "CURVE")
     * @param frames    the credential frames in ZAP order (copied)
     */
    public ZmtpCredentials(String mechanism, List<byte[]> frames) {
        this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
        List<byte[]> copy = new ArrayList<>(frames.size());
        for (byte[] f : frames) {
            copy.add(f.clone());
        }
        this.frames = Collections.unmodifiableList(copy);
    }

    /** The credentials of the NULL mechanism: none. */
    public static ZmtpCredentials none(String mechanism) {
        return new ZmtpCredentials(mechanism, Collections.emptyList());
    }

    public String mechanism() {
        return mechanism;
    }

    /** The credential frames in ZAP order; copies, so a caller can't change them. */
    public List<byte[]> frames() {
        List<byte[]> copy = new ArrayList<>(frames.size());
        for (byte[] f : frames) {
            copy.add(f.clone());
        }
        return copy;
    }

    /** Number of credential frames. */
    public int size() {
        return frames.size();
    }

    /** Frame {@code index}, copied. */
    public byte[] frame(int index) {
        return frames.get(index).clone();
    }

    @Override
    public String toString() {
        // Never the frames: a PLAIN password must not reach a log.
        return "ZmtpCredentials{" + mechanism + ", " + frames.size() + " frames}";
    }
}
