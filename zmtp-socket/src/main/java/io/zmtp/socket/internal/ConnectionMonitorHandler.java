package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.zmtp.socket.ZmtpSocketEvent;

/**
 * The first handler of every connection: reports CONNECTED (or ACCEPTED) when the connection is up, before any
 * handshake, and DISCONNECTED when it closes, whether or not its handshake completed, as libzmq's monitor does. It
 * handles nothing else, so Netty skips it for reads and writes.
 *
 * <p>DISCONNECTED is reported from the channel's close future, with a listener added when the handler is, so before
 * the connector's (added once the connect succeeds): a connecting socket reports DISCONNECTED before the
 * CONNECT_RETRIED that follows it. Only the event loop touches {@code active}.
 */
final class ConnectionMonitorHandler extends ChannelInboundHandlerAdapter {
    static final String NAME = "zmtp-monitor";

    private final Pipe pipe;
    private boolean active;

    ConnectionMonitorHandler(Pipe pipe) {
        this.pipe = pipe;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        Channel ch = ctx.channel();
        ch.closeFuture().addListener(f -> {
            if (active) {
                active = false;
                pipe.emitDisconnected(ch);
            }
        });
        // An accepted connection is up already. Told now, not at channelActive: the handshake handler added after this
        // one writes its greeting at once, and a peer that reset the connection makes that write close the channel
        // before Netty would tell it active, which left ACCEPTED and DISCONNECTED untold around HANDSHAKE_FAILED.
        if (ch.isActive()) {
            up(ch);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!active) {
            up(ctx.channel());
        }
        super.channelActive(ctx);
    }

    private void up(Channel ch) {
        active = true;
        pipe.emit(pipe.isConnecting() ? ZmtpSocketEvent.Type.CONNECTED : ZmtpSocketEvent.Type.ACCEPTED, ch, null);
    }
}
