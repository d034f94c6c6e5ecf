package io.zmtp.codec;

/**
 * A handshake failed for the given {@link #reason()}.
 */
public class ZmtpHandshakeException extends ZmtpCodecException {
    private static final long serialVersionUID = 1L;

    private final ZmtpHandshakeFailureReason reason;

    public ZmtpHandshakeException(ZmtpHandshakeFailureReason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public ZmtpHandshakeFailureReason reason() {
        return reason;
    }
}
