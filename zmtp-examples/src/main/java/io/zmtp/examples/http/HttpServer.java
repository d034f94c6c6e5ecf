package io.zmtp.examples.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.zmtp.examples.NettyTransport;
import io.zmtp.socket.ZmtpWebSocketHandler;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The HTTP/1.1 server: TLS first if given one, Netty's codec, bodies up to 1 MiB (413 past that), the ZeroMQ
 * WebSocket endpoints (each a sharable {@link ZmtpWebSocketHandler}, which takes the upgrade requests for its path),
 * and {@link HttpHandler}'s routes for everything else: one port for the JSON API, the web page and ZeroMQ.
 */
final class HttpServer implements AutoCloseable {
    static final int MAX_BODY = 1 << 20;

    private final EventLoopGroup group;
    private final Channel channel;

    /** {@code tls} null for plain HTTP; {@code routes} makes each connection's {@link HttpHandler}. */
    HttpServer(int port, int ioThreads, SslContext tls, ZmtpWebSocketHandler[] zmq, Supplier<HttpHandler> routes)
            throws InterruptedException {
        group = NettyTransport.group(ioThreads, "http-io");
        channel = new ServerBootstrap().group(group).channel(NettyTransport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY));
                        ch.pipeline().addLast(zmq);
                        ch.pipeline().addLast(routes.get());
                    }
                })
                .bind(port).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Takes no new connections; open ones stay (close the ZeroMQ sockets, which close theirs, then {@link #close}). */
    void stopAccepting() throws InterruptedException {
        channel.close().sync();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
}
