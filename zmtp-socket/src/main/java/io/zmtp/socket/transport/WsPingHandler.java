package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;

/**
 * Answers a ws:// connection's WebSocket pings, in place of Netty's protocol handler, which writes a pong per ping
 * whether or not the peer reads them: a peer that floods pings and never reads made us hold every pong (and the read
 * buffer each one's payload was a slice of). As {@code ZmtpHeartbeatHandler} does for ZMTP's PING: at most one pong
 * is in flight (written and not yet handed to the socket); a ping that comes meanwhile is kept (a copy, 125 bytes at
 * most: a control frame's limit) and answered once that pong has gone out, and a later one replaces it. So a flood
 * costs one pong and one payload however long it runs. Sits right after the WebSocket frame decoder once the
 * upgrade is done; pings never go further.
 */
final class WsPingHandler extends ChannelInboundHandlerAdapter {
    /** A pong was written and has not reached the socket yet. */
    private boolean pongInFlight;
    /** The newest ping's payload, answered when the pong in flight is out; null if none waits. */
    private ByteBuf waiting;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof PingWebSocketFrame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        PingWebSocketFrame ping = (PingWebSocketFrame) msg;
        // A copy: a slice would pin the whole read buffer it came in.
        ByteBuf payload = ctx.alloc().buffer(ping.content().readableBytes()).writeBytes(ping.content());
        ping.release();
        if (pongInFlight) {
            if (waiting != null) {
                waiting.release();
            }
            waiting = payload;
        } else {
            pong(ctx, payload);
        }
    }

    private void pong(ChannelHandlerContext ctx, ByteBuf payload) {
        pongInFlight = true;
        ctx.writeAndFlush(new PongWebSocketFrame(payload)).addListener(f -> {
            pongInFlight = false;
            ByteBuf next = waiting;
            waiting = null;
            if (next != null) {
                if (f.isSuccess() && ctx.channel().isActive()) {
                    pong(ctx, next);
                } else {
                    next.release();
                }
            }
        });
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (waiting != null) {
            waiting.release();
            waiting = null;
        }
    }
}
