package io.zmtp.socket;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.CharsetUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetSocketAddress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketEvents.await;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One port for HTTP and ZeroMQ: a Netty HTTP server of the test's, answering {@code GET /hello}, with
 * {@link ZmtpWebSocketHandler} for {@code /zmq} bound to a PULL; plain HTTP and a ws:// PUSH on the same port.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WsSharedPortIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private EventLoopGroup group;
    private Channel server;
    private ChannelGroup connections;

    @BeforeEach
    void startGroup() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    }

    @AfterEach
    void stopServer() {
        // The sockets first, while the server's event loop still runs the connections they close; then the
        // server's own connections and the loop, with a quiet period for their handlers' removal (which releases
        // what they hold).
        sockets.context().close();
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        connections.close().awaitUninterruptibly();
        group.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    /** The application's server: HTTP, the ZeroMQ handler, then its own handler. Returns the port. */
    private int startHttpServer(ZmtpWebSocketHandler zmq) {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536), zmq,
                                new Hello());
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** 200 "hi" for /hello, 404 otherwise; keeps the connection open. */
    private static final class Hello extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean hello = "/hello".equals(request.uri());
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    hello ? HttpResponseStatus.OK : HttpResponseStatus.NOT_FOUND,
                    Unpooled.copiedBuffer(hello ? "hi" : "not here", CharsetUtil.UTF_8));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
                    .set(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
            ctx.writeAndFlush(r).addListener(ChannelFutureListener.FIRE_EXCEPTION_ON_FAILURE);
        }
    }

    private record Response(int statusCode, String body) {
    }

    /** A plain HTTP/1.1 GET on a connection of its own (java.net.http isn't readable from this module). */
    private static Response get(int port, String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String status = in.readLine();
            int length = 0;
            for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
                if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            char[] body = new char[length];
            int n = 0;
            while (n < length) {
                n += in.read(body, n, length - n);
            }
            return new Response(Integer.parseInt(status.split(" ")[1]), new String(body));
        }
    }

    @Test
    void httpAndZeroMqShareThePort() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        int port = startHttpServer(ZmtpWebSocketHandler.of(pull, "/zmq"));

        Response hello = get(port, "/hello");
        assertThat(hello.statusCode()).isEqualTo(200);
        assertThat(hello.body()).isEqualTo("hi");

        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect("ws://127.0.0.1:" + port + "/zmq");
        push.send(ZmtpMessage.of("over", "the shared port"));
        assertThat(recv(pull)).isEqualTo("over|the shared port");
        for (int i = 0; i < 50; i++) {
            push.send(ZmtpMessage.of("m" + i));
        }
        for (int i = 0; i < 50; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }

        // HTTP still answers beside the ZeroMQ connection; the path without an upgrade is the application's.
        assertThat(get(port, "/hello").body()).isEqualTo("hi");
        Response plainZmq = get(port, "/zmq");
        assertThat(plainZmq.statusCode()).isEqualTo(404);
        assertThat(plainZmq.body()).isEqualTo("not here");

        // The socket owns the connection: its monitor tells it, its pipe is named after the port and path.
        ZmtpSocketEvent accepted = await(events, ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED);
        assertThat(accepted.endpoint()).isEqualTo("ws://127.0.0.1:" + port + "/zmq");
    }

    @Test
    void reqRepOverTheSharedPortInBothDirections() throws Exception {
        ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
        int port = startHttpServer(ZmtpWebSocketHandler.of(rep, "/rpc"));
        ZmtpSocket req = sockets.socket(ZmtpSocketType.REQ);
        req.connect("ws://127.0.0.1:" + port + "/rpc");
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("ping" + i));
            assertThat(recv(rep)).isEqualTo("ping" + i);
            rep.send(ZmtpMessage.of("pong" + i));
            assertThat(recv(req)).isEqualTo("pong" + i);
        }
    }

    /** Closing the socket closes the connections it took; the HTTP server goes on. */
    @Test
    void closingTheSocketClosesItsConnectionsButNotTheServer() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        int port = startHttpServer(ZmtpWebSocketHandler.of(pull, "/zmq"));
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        BlockingQueue<ZmtpSocketEvent> pushEvents = new LinkedBlockingQueue<>();
        push.monitor(pushEvents::add);
        push.connect("ws://127.0.0.1:" + port + "/zmq");
        push.send(ZmtpMessage.of("first"));
        assertThat(recv(pull)).isEqualTo("first");
        pull.close();
        await(pushEvents, ZmtpSocketEvent.Type.DISCONNECTED);
        assertThat(get(port, "/hello").body()).isEqualTo("hi");
    }

    @Test
    void refusesABadPathAndAStreamSocket() {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        assertThatThrownBy(() -> ZmtpWebSocketHandler.of(pull, "zmq"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZmtpWebSocketHandler.of(pull, "/a path"))
                .isInstanceOf(IllegalArgumentException.class);
        ZmtpSocket stream = sockets.socket(ZmtpSocketType.STREAM);
        assertThatThrownBy(() -> ZmtpWebSocketHandler.of(stream, "/zmq"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }
}
