package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageBatch;
import io.zmtp.codec.ZmtpMetadata;

/**
 * What a STREAM socket's connection has where the others have the ZMTP handshake: raw bytes both ways. The codec
 * knows nothing of raw streams, so this stands in for it: the connection is "handshaken" as soon as it is up (the
 * same {@link ZmtpHandshakeSuccessEvent} the codec fires, with no version and no metadata), each read becomes a
 * one-frame message, and each message written goes out as its frames' bytes, back to back, with no framing.
 * {@link #CLOSE}, written after the data queued before it, closes the connection once that data is flushed (a
 * STREAM socket sending an empty frame to a peer, libzmq's way to hang up).
 */
final class StreamConnectionHandler extends ChannelDuplexHandler {
    /** Queued for a connection to close it after what was queued before. */
    static final Object CLOSE = new Object() {
        @Override
        public String toString() {
            return "STREAM close";
        }
    };

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireUserEventTriggered(
                new ZmtpHandshakeSuccessEvent(null, "NULL", ZmtpMetadata.EMPTY, ctx.channel().remoteAddress()));
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf) {
            ctx.fireChannelRead(ZmtpMessage.wrap((ByteBuf) msg));
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ZmtpMessage) {
            ctx.write(bytes((ZmtpMessage) msg), promise);
        } else if (msg instanceof ZmtpMessageBatch) {
            ZmtpMessageBatch batch = (ZmtpMessageBatch) msg;
            try {
                for (int i = 0; i < batch.size(); i++) {
                    ctx.write(bytes(batch.take(i)), ctx.voidPromise());
                }
            } finally {
                batch.release();
            }
            promise.trySuccess();
        } else if (msg == CLOSE) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            promise.trySuccess();
        } else {
            ctx.write(msg, promise);
        }
    }

    /** The message's frames as one buffer; takes the message's references. */
    private static ByteBuf bytes(ZmtpMessage m) {
        try {
            int n = m.size();
            if (n == 1) {
                return m.removeFirst();
            }
            ByteBuf[] frames = new ByteBuf[n];
            for (int i = 0; i < n; i++) {
                frames[i] = m.removeFirst();
            }
            return Unpooled.wrappedBuffer(frames);
        } finally {
            m.release();
        }
    }
}
