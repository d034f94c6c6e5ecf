package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;

/**
 * Turns message frames into application objects, one frame at a time. {@link DefaultZmtpMessageDecoder} builds a
 * {@link ZmtpMessage}; an application can supply its own to read frames straight into its own types, skipping
 * the message object. One instance serves one connection (it may keep state between frames of a message).
 *
 * <p>Commands never reach a message decoder; sizes are already checked against the maximum message size.
 */
public interface ZmtpMessageDecoder {

    /**
     * Reads one frame's body: exactly {@code length} readable bytes of {@code in}, which the decoder consumes
     * (reading them, skipping them, or taking {@link ByteBuf#readRetainedSlice} to keep them without a copy).
     * Objects added to {@code out} travel down the pipeline.
     *
     * @param more whether further frames of the same message follow
     */
    void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out);

    /** The connection is closing mid-message: release whatever a partial message holds. */
    void discard();
}
