package io.zmtp.examples.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.zmtp.examples.NettyTransport;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The HTTP/1.1 server: Netty's codec, bodies up to 1 MiB (413 past that), and {@link HttpHandler}'s routes. */
final class HttpServer implements AutoCloseable {
    static final int MAX_BODY = 1 << 20;

    private final EventLoopGroup group;
    private final Channel channel;

    HttpServer(int port, int ioThreads, byte[] appInfo, WorkClient work) throws InterruptedException {
        group = NettyTransport.group(ioThreads, "http-io");
        channel = new ServerBootstrap().group(group).channel(NettyTransport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY),
                                new HttpHandler(appInfo, work));
                    }
                })
                .bind(port).sync().channel();
    }

    int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
}
