package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

/**
 * Writes {@link ZmtpMessage}s, {@link ZmtpCommand}s and, with a configured {@link ZmtpMessageEncoder}, the
 * application's own objects as frames of the negotiated version. Each message becomes one buffer (or one composite
 * for large frames) and one write. Other objects pass through untouched. Installed by {@link ZmtpHandler} once the
 * handshake is done.
 */
public final class ZmtpFrameEncoder extends ChannelOutboundHandlerAdapter {
    private final OutboundFrameWriter writer;
    private final ZmtpMessageEncoder<Object> messageEncoder;

    @SuppressWarnings("unchecked")
    public ZmtpFrameEncoder(ZmtpVersion version, ZmtpMessageEncoder<?> messageEncoder) {
        this.writer = new OutboundFrameWriter(version);
        this.messageEncoder = (ZmtpMessageEncoder<Object>) messageEncoder;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ByteBuf encoded;
        try {
            if (msg instanceof ZmtpMessage) {
                encodeMessage(ctx, (ZmtpMessage) msg);
            } else if (messageEncoder != null && messageEncoder.messageType().isInstance(msg)) {
                writer.start(ctx.alloc(), messageEncoder.estimateSize(msg));
                messageEncoder.encode(msg, writer);
            } else if (msg instanceof ZmtpCommand) {
                ZmtpCommand command = (ZmtpCommand) msg;
                writer.start(ctx.alloc(), writer.estimate(command));
                writer.writeCommand(command);
            } else {
                ctx.write(msg, promise);
                return;
            }
            encoded = writer.finish();
        } catch (Throwable t) {
            writer.abort();
            promise.tryFailure(t);
            return;
        } finally {
            ReferenceCountUtil.release(msg);
        }
        ctx.write(encoded, promise);
    }

    private void encodeMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
        int frames = message.size();
        if (frames == 0) {
            throw new IllegalArgumentException("a message has at least one frame");
        }
        writer.start(ctx.alloc(), writer.estimate(message));
        int last = frames - 1;
        for (int i = 0; i < last; i++) {
            writer.writeFrame(message.frame(i), true);
        }
        writer.writeFrame(message.frame(last), false);
    }
}
