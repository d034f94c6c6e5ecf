package io.zmtp.examples.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.zmtp.examples.NettyTransport;

/**
 * The reference the http example's {@code GET /} is measured against ({@code bench/http.sh}): a plain Netty server
 * answering the same JSON to every request, written as Netty's own HTTP hello-world example is (codec, no
 * aggregation, write on read, flush once per read). No ZeroMQ anywhere.
 *
 * <p>{@code java -cp ... io.zmtp.examples.http.PlainHttpServer [port [ioThreads]]}, port 9091 by default.
 */
public final class PlainHttpServer {
    private PlainHttpServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 9091;
        int ioThreads = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        byte[] json = AppInfo.json(AppInfo.DEFAULT_NAME);
        EventLoopGroup group = NettyTransport.group(ioThreads, "plain-http-io");
        try {
            new ServerBootstrap().group(group).channel(NettyTransport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpServerExpectContinueHandler(),
                                    new Handler(json));
                        }
                    })
                    .bind(port).sync();
            System.out.println("plain Netty http: listening on http://127.0.0.1:" + port + "/");
            Thread.currentThread().join();
        } finally {
            group.shutdownGracefully();
        }
    }

    private static final class Handler extends SimpleChannelInboundHandler<HttpObject> {
        private final byte[] json;

        Handler(byte[] json) {
            this.json = json;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof HttpRequest)) {
                return;
            }
            HttpRequest request = (HttpRequest) msg;
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(json));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.write(response, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
