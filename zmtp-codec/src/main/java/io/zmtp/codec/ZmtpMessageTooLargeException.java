package io.zmtp.codec;

import io.netty.handler.codec.TooLongFrameException;

/**
 * A frame header announced more bytes than the configured maximum message size. Thrown before anything of that size
 * is allocated.
 */
public class ZmtpMessageTooLargeException extends TooLongFrameException {
    private static final long serialVersionUID = 1L;

    public ZmtpMessageTooLargeException(long size, long max) {
        super("message size: " + size + " (expected: <= " + max + ")");
    }
}
