package io.zmtp.socket.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

/**
 * An inproc connection's handler, where tcp has the ZMTP handshake and codec. Each side sends one {@link Hello}: its
 * metadata and its end (what the socket layer put in {@link InprocTransport#LOCAL_END}). On the peer's, the socket
 * types are checked as the codec checks them, the peer's end is put in {@link InprocTransport#PEER_END}, and the same
 * {@link ZmtpHandshakeSuccessEvent} is fired (ZMTP 3.1, NULL), so the socket's handler treats it as any connection's.
 * Messages don't travel on the channel: the socket layer joins the two ends' queues. Anything written after the hello
 * still passes through untouched.
 */
final class InprocHandler extends ChannelInboundHandlerAdapter {
    /** What one side tells the other instead of a greeting. */
    static final class Hello {
        final ZmtpMetadata metadata;
        final Object end;

        Hello(ZmtpMetadata metadata, Object end) {
            this.metadata = metadata;
            this.end = end;
        }
    }

    private final ZmtpConfig config;
    private boolean helloSent;
    private boolean done;

    InprocHandler(ZmtpConfig config) {
        this.config = config;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            sendHello(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        sendHello(ctx);
        super.channelActive(ctx);
    }

    private void sendHello(ChannelHandlerContext ctx) {
        if (!helloSent) {
            helloSent = true;
            Object end = ctx.channel().hasAttr(InprocTransport.LOCAL_END)
                    ? ctx.channel().attr(InprocTransport.LOCAL_END).get() : null;
            ctx.writeAndFlush(new Hello(config.localMetadata(), end), ctx.voidPromise());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (done) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!(msg instanceof Hello)) {
            // Nothing else can come first from an inproc peer.
            ReferenceCountUtil.release(msg);
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "inproc peer sent " + msg.getClass().getSimpleName() + " before its hello"));
            return;
        }
        Hello hello = (Hello) msg;
        ZmtpSocketType peerType = hello.metadata.socketType();
        if (peerType == null || !config.socketType().isCompatibleWith(peerType)) {
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE,
                    "peer socket type " + (peerType == null ? "missing" : peerType.name()) + " can't talk to "
                            + config.socketType()));
            return;
        }
        done = true;
        if (hello.end != null) {
            ctx.channel().attr(InprocTransport.PEER_END).set(hello.end);
        }
        ctx.fireUserEventTriggered(new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL", hello.metadata,
                ctx.channel().remoteAddress()));
    }

    private void fail(ChannelHandlerContext ctx, ZmtpHandshakeException cause) {
        ctx.fireUserEventTriggered(new ZmtpHandshakeFailureEvent(cause, ctx.channel().remoteAddress()));
        ctx.close();
    }
}
