package io.zmtp.socket;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.socket.transport.WsTransport;

import java.util.List;

/**
 * One port for HTTP and ZeroMQ: added to an application's own Netty HTTP server pipeline, after its
 * {@code HttpServerCodec} and {@code HttpObjectAggregator}, this turns WebSocket upgrade requests for one path into
 * ZWS 2.0 connections of a {@link ZmtpSocket}, as if the socket had bound {@code ws://host:port/path}; every other
 * request (another path, or the path without an upgrade) goes on down the pipeline untouched.
 * <pre>{@code
 * ZmtpSocket pull = context.socket(ZmtpSocketType.PULL);
 * ZmtpWebSocketHandler zmq = ZmtpWebSocketHandler.of(pull, "/zmq");
 * ... ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536), zmq, new MyHttpHandler());
 * }</pre>
 *
 * <p>The socket owns each upgraded connection as it owns those a ws:// listener accepts: a pipe per connection
 * (named {@code ws://<local address><path>}), the monitor's ACCEPTED, HANDSHAKE_* and DISCONNECTED events, the
 * socket's mechanism (the subprotocol {@code ZWS2.0/NULL}, {@code /PLAIN} or {@code /CURVE}; with NULL also the
 * bare {@code ZWS2.0}, the only one a browser can offer) and limits; closing the
 * socket closes them. The socket's options are read when {@link #of} is called, as bind reads them. On the upgrade,
 * the handlers after this one are removed from that connection's pipeline: it carries ZeroMQ from then on. After
 * the socket is closed, an upgrade request for the path closes its connection. The connections run on the server's
 * event loops: close the socket before shutting them down, so that it can close its connections there (what they
 * hold is released as their handlers are removed).
 *
 * <p>Sharable: one instance may go into every connection's pipeline. TLS (wss) is the application's: an
 * {@code SslHandler} of its own first in its pipeline.
 */
@ChannelHandler.Sharable
public final class ZmtpWebSocketHandler extends ChannelInboundHandlerAdapter {
    private final String path;
    private final ChannelInitializer<Channel> acceptor;

    private ZmtpWebSocketHandler(String path, ChannelInitializer<Channel> acceptor) {
        this.path = path;
        this.acceptor = acceptor;
    }

    /**
     * A handler that upgrades requests for {@code path} (exactly: no query string) to connections of
     * {@code socket}, which must not be a STREAM.
     *
     * @throws IllegalArgumentException if {@code path} doesn't start with {@code /}, or has spaces, {@code #} or
     *         characters outside printable ASCII
     * @throws ZmtpSocketException.EndpointFailed if {@code socket} is a STREAM
     * @throws ZmtpSocketException.Closed if {@code socket} is closed
     */
    public static ZmtpWebSocketHandler of(ZmtpSocket socket, String path) {
        WsTransport.checkPath(path);
        if (socket.type() == io.zmtp.codec.ZmtpSocketType.STREAM) {
            throw new ZmtpSocketException.EndpointFailed("STREAM talks to raw tcp or ipc peers, not over ws://");
        }
        return new ZmtpWebSocketHandler(path, socket.impl().webSocketAcceptor(path));
    }

    /** The path whose upgrade requests this takes. */
    public String path() {
        return path;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest) || !isUpgradeFor((FullHttpRequest) msg)) {
            ctx.fireChannelRead(msg);
            return;
        }
        Channel ch = ctx.channel();
        ChannelPipeline p = ctx.pipeline();
        // The application's handlers after this one: HTTP's, with nothing more to do on this connection.
        List<String> names = p.names();
        for (int i = names.indexOf(ctx.name()) + 1; i < names.size(); i++) {
            if (p.context(names.get(i)) != null) {
                p.remove(names.get(i));
            }
        }
        WsTransport.markSharedPort(ch, path);
        // Runs at once (the channel is registered), adding the socket's handlers after this one.
        p.addLast(acceptor);
        if (!ch.isOpen()) {
            // The socket is closed.
            ReferenceCountUtil.release(msg);
            return;
        }
        // To the socket's WebSocket handshake, which answers it and takes the HTTP codec out.
        ctx.fireChannelRead(msg);
        if (p.context(this) != null) {
            p.remove(this);
        }
    }

    private boolean isUpgradeFor(FullHttpRequest r) {
        return path.equals(r.uri())
                && r.headers().containsValue(HttpHeaderNames.UPGRADE, HttpHeaderValues.WEBSOCKET, true);
    }
}
