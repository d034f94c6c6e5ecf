package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;

/**
 * Turns message frames into application objects, one frame at a time: a plug-in of {@link ZmtpFrameDecoder}, not a
 * channel handler (as Netty's {@code Http2FrameReader} is to its connection decoder). {@link DefaultZmtpMessageReader}
 * builds a {@link ZmtpMessage}; an application can supply its own, through
 * {@link ZmtpConfig.Builder#messageReader}, to read frames straight into its own types, skipping the message object.
 * One instance serves one connection (it may keep state between frames of a message) and is called on its event loop.
 *
 * <p>Commands never reach a message reader; sizes are already checked against the maximum message size.
 */
public interface ZmtpMessageReader {

    /**
     * Reads one frame's body: exactly {@code length} readable bytes of {@code in}, which the reader consumes
     * (reading them, skipping them, or taking {@link ByteBuf#readRetainedSlice} to keep them without a copy).
     * Objects added to {@code out} travel down the pipeline.
     *
     * @param more whether further frames of the same message follow
     */
    void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out);

    /** The connection is closing mid-message: release whatever a partial message holds. */
    void discard();
}
