package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpAuthenticationException;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.ZmtpAuthResult;

/** What the mechanisms share: their errors and metadata reading. */
final class MechanismSupport {
    private MechanismSupport() {
    }

    /**
     * The peer sent ERROR. A reason that is a ZAP status code (how libzmq, and we, refuse credentials) means our
     * credentials were refused; anything else is the peer's own failure.
     */
    static ZmtpHandshakeException peerError(String mechanism, ZmtpCommand error) {
        String reason = error.errorReason();
        if (reason.length() == 3 && reason.endsWith("00") && reason.charAt(0) >= '3' && reason.charAt(0) <= '5') {
            return new ZmtpAuthenticationException(Integer.parseInt(reason),
                    mechanism + " peer refused this side: ERROR " + reason, true);
        }
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PEER_ERROR, "peer sent ERROR: " + reason);
    }

    static ZmtpHandshakeException unexpected(String mechanism, ZmtpCommand command, String expected) {
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                "unexpected " + command.name() + " command in " + mechanism + " handshake (expected: " + expected
                        + ")");
    }

    static ZmtpHandshakeException malformed(String what, String detail) {
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "malformed " + what + ": "
                + detail);
    }

    /**
     * A CURVE box from the peer did not open: it doesn't hold the key we expected, or tampered. Closed without an
     * ERROR, as libzmq does, so a prober learns nothing.
     */
    static ZmtpHandshakeException authFailed(String detail) {
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED, detail, true);
    }

    /** Reads the metadata that makes up the rest of {@code body}; the buffer's reader index is left alone. */
    static ZmtpMetadata metadata(ByteBuf body, String what) {
        try {
            return ZmtpMetadata.decode(body.duplicate());
        } catch (ZmtpCodecException e) {
            throw malformed(what, e.getMessage());
        }
    }

    /** Throws the refusal of {@code result}, if it is one. */
    static void checkAllowed(String mechanism, ZmtpAuthResult result) {
        if (!result.isAllowed()) {
            throw new ZmtpAuthenticationException(result.statusCode(), mechanism
                    + " peer refused by the authenticator: " + result.statusCode() + " " + result.statusText(), false);
        }
    }
}
