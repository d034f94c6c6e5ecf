package io.zmtp.interop;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The application handler after {@link io.zmtp.codec.ZmtpHandshakeHandler} in a test's pipeline: records the codec's
 * events, releases every message and command it reads (after {@link #onMessage}/{@link #onCommand} looked at it), and
 * completes {@link #done} when the subclass says so, or exceptionally on a failed handshake, a protocol error, an
 * exception or a connection closed early. Everything runs on the channel's event loop.
 */
class PeerHandler extends ChannelInboundHandlerAdapter {
    final CompletableFuture<ZmtpHandshakeSuccessEvent> handshake = new CompletableFuture<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** ZmtpHandshakeSuccessEvent, ZmtpHandshakeFailureEvent and ZmtpProtocolErrorEvent events, in order. */
    final List<Object> events = new CopyOnWriteArrayList<>();
    volatile Channel channel;
    volatile int messagesRead;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    public final void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ZmtpHandshakeSuccessEvent) {
            events.add(evt);
            handshake.complete((ZmtpHandshakeSuccessEvent) evt);
            try {
                onHandshake(ctx, (ZmtpHandshakeSuccessEvent) evt);
            } catch (Throwable t) {
                fail(ctx, t);
            }
        } else if (evt instanceof ZmtpHandshakeFailureEvent) {
            events.add(evt);
            ZmtpHandshakeFailureEvent failure = (ZmtpHandshakeFailureEvent) evt;
            handshake.completeExceptionally(failure.cause());
            done.completeExceptionally(failure.cause());
        } else if (evt instanceof ZmtpProtocolErrorEvent) {
            events.add(evt);
            done.completeExceptionally(new AssertionError("protocol error: " + evt,
                    ((ZmtpProtocolErrorEvent) evt).cause()));
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof ZmtpMessage) {
                messagesRead++;
                onMessage(ctx, (ZmtpMessage) msg);
            } else if (msg instanceof ZmtpCommand) {
                onCommand(ctx, (ZmtpCommand) msg);
            } else {
                throw new AssertionError("unexpected inbound object " + msg);
            }
        } catch (Throwable t) {
            fail(ctx, t);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && handshake.isDone() && !done.isDone()) {
            try {
                onWritable(ctx);
            } catch (Throwable t) {
                fail(ctx, t);
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        done.completeExceptionally(new AssertionError("connection closed before the test was done: " + progress()));
        handshake.completeExceptionally(new AssertionError("connection closed before the handshake"));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, cause);
    }

    /** Fails the test's outcome and closes the connection (the peer sees it and ends too). */
    protected final void fail(ChannelHandlerContext ctx, Throwable cause) {
        done.completeExceptionally(cause);
        ctx.close();
    }

    /** A write listener that fails the test (and closes) if the write failed. */
    static io.netty.channel.ChannelFutureListener failOnError(PeerHandler handler, ChannelHandlerContext ctx) {
        return f -> {
            if (!f.isSuccess()) {
                handler.fail(ctx, f.cause());
            }
        };
    }

    protected void onHandshake(ChannelHandlerContext ctx, ZmtpHandshakeSuccessEvent success) {
    }

    /** Looks at a message; it is released after this returns. */
    protected void onMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
        throw new AssertionError("unexpected message " + message);
    }

    /** Looks at a command (PING and PONG never get here); it is released after this returns. */
    protected void onCommand(ChannelHandlerContext ctx, ZmtpCommand command) {
        throw new AssertionError("unexpected command " + command);
    }

    protected void onWritable(ChannelHandlerContext ctx) {
    }

    protected String progress() {
        return messagesRead + " messages read";
    }
}
