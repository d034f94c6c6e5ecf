package io.zmtp.codec;

import io.zmtp.codec.mechanism.NullMechanism;

/**
 * A handshake failed for the given {@link #reason()}.
 */
public class ZmtpHandshakeException extends ZmtpCodecException {
    private static final long serialVersionUID = 1L;

    private final ZmtpHandshakeFailureReason reason;
    private final boolean silent;

    public ZmtpHandshakeException(ZmtpHandshakeFailureReason reason, String message) {
        this(reason, message, false);
    }

    /**
     * @param silent close without telling the peer why (no ERROR command): what CURVE does with a box that does not
     *               open, so a prober learns nothing
     */
    public ZmtpHandshakeException(ZmtpHandshakeFailureReason reason, String message, boolean silent) {
        super(message);
        this.reason = reason;
        this.silent = silent;
    }

    /** Whether the connection is closed without an ERROR command telling the peer why. */
    public boolean isSilent() {
        return silent;
    }

    /** With the exception that broke the handshake, where it was not the peer's fault alone (kept for diagnosis). */
    public ZmtpHandshakeException(ZmtpHandshakeFailureReason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.silent = false;
    }

    public ZmtpHandshakeFailureReason reason() {
        return reason;
    }

    /** The peer speaks {@code peerVersion}, which {@code config} doesn't accept. */
    static ZmtpHandshakeException versionRefused(ZmtpConfig config, ZmtpVersion peerVersion) {
        if (!NullMechanism.NAME.equals(config.mechanism().name())) {
            // rfc 23: downgrading would let an attacker strip the security mechanism.
            return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.VERSION_REFUSED, "peer speaks "
                    + peerVersion + ", which has no security mechanism; " + config.mechanism().name() + " required");
        }
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.VERSION_REFUSED,
                "peer speaks " + peerVersion + " (accepted: " + config.acceptedVersions() + ")");
    }

    /** The peer's socket type (a name, or what it sent instead; null if missing) can't talk to ours. */
    static ZmtpHandshakeException incompatible(ZmtpConfig config, String peerType) {
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE,
                "peer socket type " + (peerType == null ? "missing" : peerType) + " can't talk to "
                        + config.socketType());
    }
}
