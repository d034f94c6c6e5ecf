package io.zmtp.socket;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
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
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketEvents.await;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PLAIN and CURVE over a port shared with HTTP ({@link ZmtpWebSocketHandler}), as {@link WsSharedPortIT} does NULL:
 * the socket's mechanism and authenticator apply to the connections the application's server hands it, a client
 * with the right credentials exchanges messages, one with wrong ones (or another mechanism) is refused with the
 * reason on the socket's monitor, and the HTTP side keeps answering throughout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WsSharedPortSecurityIT {
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
        sockets.context().close();
        if (server != null) {
            server.close().syncUninterruptibly();
        }
        connections.close().awaitUninterruptibly();
        group.shutdownGracefully(100, 2000, TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    /** The application's server: HTTP, the ZeroMQ handler, then "hi" for any other request. Returns the port. */
    private int startHttpServer(ZmtpWebSocketHandler zmq) {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536), zmq,
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK, Unpooled.copiedBuffer("hi", CharsetUtil.UTF_8));
                                        r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
                                        ctx.writeAndFlush(r);
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The status line of a plain GET on a connection of its own. */
    private static String get(int port, String path) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        }
    }

    @Test
    void plainOverTheSharedPortLetsTheRightUserInAndRefusesAWrongPassword() throws Exception {
        ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
        rep.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        rep.setOption(ZmtpSocketOption.AUTHENTICATOR,
                DefaultZmtpAuthenticator.builder().plainUser("admin", "secret").build());
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        rep.monitor(events::add);
        int port = startHttpServer(ZmtpWebSocketHandler.of(rep, "/rpc"));
        String endpoint = "ws://127.0.0.1:" + port + "/rpc";

        ZmtpSocket intruder = sockets.socket(ZmtpSocketType.REQ);
        intruder.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
        intruder.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "guess");
        intruder.connect(endpoint);
        ZmtpSocketEvent refused = await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(refused.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
        intruder.close();

        ZmtpSocket req = sockets.socket(ZmtpSocketType.REQ);
        req.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
        req.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
        req.connect(endpoint);
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("ping" + i));
            assertThat(recv(rep)).isEqualTo("ping" + i);
            rep.send(ZmtpMessage.of("pong" + i));
            assertThat(recv(req)).isEqualTo("pong" + i);
        }
        assertThat(get(port, "/hello")).isEqualTo("HTTP/1.1 200 OK");
    }

    @Test
    void curveOverTheSharedPortTakesAKnownClientKeyAndRefusesAnUnknownOne() throws Exception {
        CurveKeyPair serverKeys = CurveKeyPair.generate();
        CurveKeyPair clientKeys = CurveKeyPair.generate();
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        pull.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
        pull.setOption(ZmtpSocketOption.AUTHENTICATOR,
                DefaultZmtpAuthenticator.builder().curveKey(clientKeys.publicKeyZ85()).build());
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        int port = startHttpServer(ZmtpWebSocketHandler.of(pull, "/zmq"));
        String endpoint = "ws://127.0.0.1:" + port + "/zmq";

        ZmtpSocket stranger = sockets.socket(ZmtpSocketType.PUSH);
        stranger.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
        stranger.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        stranger.connect(endpoint);
        ZmtpSocketEvent refused = await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(refused.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
        stranger.close();

        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
        push.setOption(ZmtpSocketOption.CURVE_SECRETKEY, clientKeys.secretKey());
        push.connect(endpoint);
        // Over TLS-free ws, every frame a CURVE MESSAGE box: a large one too.
        String large = "z".repeat(100_000);
        push.send(ZmtpMessage.of("sealed", large));
        assertThat(recv(pull)).isEqualTo("sealed|" + large);
        for (int i = 0; i < 20; i++) {
            push.send(ZmtpMessage.of("m" + i));
        }
        for (int i = 0; i < 20; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
        assertThat(get(port, "/hello")).isEqualTo("HTTP/1.1 200 OK");
    }

    /** A NULL client at a CURVE socket's path: no subprotocol in common, refused, said on both monitors. */
    @Test
    void aClientOfAnotherMechanismIsRefusedOnTheSharedPort() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        pull.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        BlockingQueue<ZmtpSocketEvent> serverEvents = new LinkedBlockingQueue<>();
        pull.monitor(serverEvents::add);
        int port = startHttpServer(ZmtpWebSocketHandler.of(pull, "/zmq"));
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        BlockingQueue<ZmtpSocketEvent> clientEvents = new LinkedBlockingQueue<>();
        push.monitor(clientEvents::add);
        push.connect("ws://127.0.0.1:" + port + "/zmq");
        ZmtpSocketEvent s = await(serverEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(s.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
        assertThat(s.detail()).contains("ZWS2.0/CURVE");
        ZmtpSocketEvent c = await(clientEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(c.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
        assertThat(get(port, "/hello")).isEqualTo("HTTP/1.1 200 OK");
    }
}
