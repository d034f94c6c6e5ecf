package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;

/**
 * The default {@link ZmtpMessageReader}: builds a {@link ZmtpMessage} whose frames are retained slices of the read
 * buffer (no payload copy).
 */
public final class DefaultZmtpMessageReader implements ZmtpMessageReader {
    private ZmtpMessage message;

    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
        // An empty slice would still pin the whole read buffer, and empty frames are a flooding peer's cheapest.
        ByteBuf frame = length == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(length);
        if (message == null) {
            if (!more) {
                out.add(ZmtpMessage.wrap(frame));
                return;
            }
            message = ZmtpMessage.create();
        }
        message.add(frame);
        if (!more) {
            out.add(message);
            message = null;
        }
    }

    @Override
    public void discard() {
        if (message != null) {
            message.release();
            message = null;
        }
    }
}
