package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.transport.InprocTransport;

/**
 * The last handler of every connection's pipeline: hands messages to the {@link Pipe} and nothing else. It takes no
 * lock. SUBSCRIBE/CANCEL commands become {@code 0x01}/{@code 0x00}-prefixed messages when the socket wants
 * subscriptions (PUB, XPUB), so publishers see one form whatever the peer's version. A ZMTP 1.0 peer of a publisher
 * never subscribes (1.0 subscribers filter on their side), so, as libzmq does, it is subscribed to everything by a
 * {@code 0x01} message put in front of whatever it sends.
 */
final class PipeHandler extends ChannelInboundHandlerAdapter {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(PipeHandler.class);

    private final Pipe pipe;
    private final boolean readsMessages;
    private final InboundCommands commands;
    private final Runnable onHandshake;
    /** Over inproc, this connection's end; null until the handshake, and over tcp and ipc. */
    private InprocEnd own;

    PipeHandler(Pipe pipe, boolean readsMessages, InboundCommands commands, Runnable onHandshake) {
        this.pipe = pipe;
        this.readsMessages = readsMessages;
        this.commands = commands;
        this.onHandshake = onHandshake;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ZmtpHandshakeSuccessEvent) {
            if (onHandshake != null) {
                onHandshake.run();
            }
            ZmtpHandshakeSuccessEvent success = (ZmtpHandshakeSuccessEvent) evt;
            if (commands == InboundCommands.SUBSCRIPTIONS && success.version() == ZmtpVersion.ZMTP_10) {
                // Queued before the pipe turns active, so the socket sees it before it could publish to this peer.
                pipe.onInbound(ZmtpMessage.wrap(Unpooled.wrappedBuffer(new byte[] {1})));
                pipe.onReadComplete();
            }
            own = inprocEnd(ctx.channel(), InprocTransport.LOCAL_END);
            InprocEnd peer = inprocEnd(ctx.channel(), InprocTransport.PEER_END);
            pipe.onHandshake(ctx.channel(), success, own, peer);
            if (own == null || peer == null) {
                pipe.emit(ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED, ctx.channel(), null);
            }
            // Over inproc, HANDSHAKE_SUCCEEDED is told when both sockets have the connection, for both ends
            // (InprocLink.join).
        } else if (evt instanceof ZmtpHandshakeFailureEvent) {
            ZmtpHandshakeFailureEvent f = (ZmtpHandshakeFailureEvent) evt;
            pipe.emit(ZmtpSocketEvent.Type.HANDSHAKE_FAILED, ctx.channel(), f.reason() + ": " + f.message(),
                    f.reason(), f.cause());
        } else if (evt instanceof ZmtpProtocolErrorEvent) {
            String reason = ((ZmtpProtocolErrorEvent) evt).cause().getMessage();
            pipe.emit(ZmtpSocketEvent.Type.PROTOCOL_ERROR, ctx.channel(), reason);
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ZmtpMessage) {
            if (readsMessages) {
                pipe.onInbound((ZmtpMessage) msg);
            } else {
                ((ZmtpMessage) msg).release();
            }
        } else if (msg instanceof ZmtpCommand) {
            ZmtpMessage m = commands.toMessage((ZmtpCommand) msg);
            if (m != null) {
                pipe.onInbound(m);
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Over inproc, this connection's end or the peer's (its hello brought it); null over tcp and ipc. */
    private static InprocEnd inprocEnd(Channel ch, AttributeKey<Object> key) {
        if (!ch.hasAttr(key)) {
            return null;
        }
        Object end = ch.attr(key).get();
        return end instanceof InprocEnd ? (InprocEnd) end : null;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        pipe.onReadComplete();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        pipe.onWritable(ctx.channel());
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        // DISCONNECTED is reported by ConnectionMonitorHandler, for every connection.
        pipe.onInactive(ctx.channel());
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        logger.debug("{} closing after error", ctx.channel(), cause);
        ctx.close();
    }
}
