package io.zmtp.codec;

import io.netty.handler.codec.DecoderException;

/**
 * A violation of the ZMTP protocol by the peer. The connection it happened on can't be re-synchronised and is closed.
 */
public class ZmtpCodecException extends DecoderException {
    private static final long serialVersionUID = 1L;

    public ZmtpCodecException(String message) {
        super(message);
    }

    public ZmtpCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
