package io.zmtp.codec;

/**
 * A handshake failed because this side's authenticator did not allow the peer: the reason is
 * {@link ZmtpHandshakeFailureReason#AUTHENTICATION_FAILED} and {@link #statusCode()} the ZAP status (300, 400 or
 * 500) that the peer is told in an ERROR command (after 300 the connection is closed without one, as libzmq does).
 *
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP, "Reply"</a>
 */
public class ZmtpAuthenticationException extends ZmtpHandshakeException {
    private static final long serialVersionUID = 1L;

    private final int statusCode;
    private final boolean byPeer;

    /**
     * @param statusCode the ZAP status code: 300, 400 or 500
     * @param byPeer     whether the peer refused this side (its ERROR said so), rather than this side the peer
     */
    public ZmtpAuthenticationException(int statusCode, String message, boolean byPeer) {
        super(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED, message);
        this.statusCode = statusCode;
        this.byPeer = byPeer;
    }

    /** Whether the peer refused this side's credentials (true), or this side's authenticator refused the peer's. */
    public boolean isByPeer() {
        return byPeer;
    }

    /** The ZAP status code: 300, 400 or 500. */
    public int statusCode() {
        return statusCode;
    }
}
