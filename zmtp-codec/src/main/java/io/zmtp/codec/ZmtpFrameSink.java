package io.zmtp.codec;

import io.netty.buffer.ByteBuf;

/**
 * Where a {@link ZmtpMessageWriter} puts the frames of one message. The sink frames them for the connection's
 * negotiated ZMTP version (headers as in rfc 23 section "Framing", or the 2.0 and 1.0 layouts); the last frame
 * written is the one with {@code more == false}.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0)</a>
 */
public interface ZmtpFrameSink {

    /**
     * Writes a frame with the readable bytes of {@code content}. The caller keeps its reference: small frames are
     * copied into the output buffer, large ones are retained and sent without a copy.
     */
    void writeFrame(ByteBuf content, boolean more);

    /** Writes a frame with the bytes of {@code content}. */
    void writeFrame(byte[] content, boolean more);

    /**
     * Starts a frame of exactly {@code length} bytes and returns the buffer to write them into; the caller must write
     * all {@code length} bytes before its next call on this sink. This is how a message writer puts its own fields
     * on the wire without an intermediate buffer.
     */
    ByteBuf beginFrame(int length, boolean more);
}
