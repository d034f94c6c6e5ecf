package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.util.ReferenceCountUtil;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketEvents.await;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ws:// (ZWS 2.0) between our own sockets: the socket patterns over each mechanism, reconnection, and the refusals
 * (text messages, oversized frames, a client without a ZWS subprotocol), which must close only that connection and
 * leak nothing (the leak detector runs at paranoid). Interop with libzmq is zmtp-interop's WsInteropIT.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WsIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    /** Sets up {@code server} (binding) and {@code client} (connecting) for one mechanism. */
    private static void secure(String mechanism, ZmtpSocket server, ZmtpSocket client) {
        switch (mechanism) {
            case "PLAIN":
                server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
                server.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().plainUser("admin", "secret").build());
                client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
                client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
                break;
            case "CURVE":
                CurveKeyPair serverKeys = CurveKeyPair.generate();
                CurveKeyPair clientKeys = CurveKeyPair.generate();
                server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
                server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
                server.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().curveKey(clientKeys.publicKeyZ85()).build());
                client.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
                client.setOption(ZmtpSocketOption.CURVE_SECRETKEY, clientKeys.secretKey());
                break;
            default:
                break;
        }
    }

    private ZmtpSocket[] pair(ZmtpSocketType serverType, ZmtpSocketType clientType, String mechanism) {
        ZmtpSocket server = sockets.socket(serverType);
        ZmtpSocket client = sockets.socket(clientType);
        secure(mechanism, server, client);
        String endpoint = server.bind("ws://127.0.0.1:*/zmq");
        assertThat(endpoint).startsWith("ws://127.0.0.1:").endsWith("/zmq");
        client.connect(endpoint);
        return new ZmtpSocket[] {server, client};
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "PLAIN", "CURVE"})
    void pushPullCarriesMultipartAndLargeMessages(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.PULL, ZmtpSocketType.PUSH, mechanism);
        // Over 255 bytes: a long ZMTP frame header each way; and many at once, which the encoder batches.
        pushPull(s[0], s[1], 200);
    }

    /** A multipart message, a 70 KB one, then {@code count} small ones at once, each received whole and in order. */
    static void pushPull(ZmtpSocket pull, ZmtpSocket push, int count) {
        push.send(ZmtpMessage.of("one", "", "three"));
        assertThat(recv(pull)).isEqualTo("one||three");
        String big = "x".repeat(70_000);
        push.send(ZmtpMessage.of(big));
        for (int i = 0; i < count; i++) {
            push.send(ZmtpMessage.of("m" + i));
        }
        assertThat(recv(pull)).isEqualTo(big);
        for (int i = 0; i < count; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "PLAIN", "CURVE"})
    void reqRepRoundTrips(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.REP, ZmtpSocketType.REQ, mechanism);
        reqRep(s[0], s[1]);
    }

    /** Three requests and their replies. */
    static void reqRep(ZmtpSocket rep, ZmtpSocket req) {
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("ping" + i));
            assertThat(recv(rep)).isEqualTo("ping" + i);
            rep.send(ZmtpMessage.of("pong" + i));
            assertThat(recv(req)).isEqualTo("pong" + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "PLAIN", "CURVE"})
    void pubSubFiltersWithSubscriptionsSentOverWs(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.PUB, ZmtpSocketType.SUB, mechanism);
        s[1].setOption(ZmtpSocketOption.SUBSCRIBE, b("A"));
        assertThat(awaitFirst(s[0], s[1], "A-sync")).isEqualTo("A-sync");
        SocketTestSupport.drain(s[1]);
        s[0].send(ZmtpMessage.of("B1"));
        s[0].send(ZmtpMessage.of("A2"));
        assertThat(recv(s[1])).isEqualTo("A2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "PLAIN", "CURVE"})
    void dealerRouterRoutesByIdentity(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, mechanism);
        s[1].send(ZmtpMessage.of("hello"));
        ZmtpMessage m = s[0].receive(WAIT);
        assertThat(m).isNotNull();
        assertThat(m.size()).isEqualTo(2);
        assertThat(m.frameString(1)).isEqualTo("hello");
        s[0].send(ZmtpMessage.wrap(m.frame(0).retain(), io.netty.buffer.Unpooled.copiedBuffer(b("back"))));
        m.release();
        assertThat(recv(s[1])).isEqualTo("back");
    }

    @Test
    void reconnectsAfterTheBindingSideRestarts() {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.RECONNECT_IVL, 50);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("before"));
        assertThat(recv(pull)).isEqualTo("before");
        pull.close();
        ZmtpSocket again = sockets.socket(ZmtpSocketType.PULL);
        again.bind(endpoint);
        // As over tcp (PushPullIT): a message written just before the push notices the old connection died is lost
        // with it, as in libzmq, so send until the new connection delivers.
        String got = SocketTestSupport.retry(() -> {
            push.send(ZmtpMessage.of("after"));
            ZmtpMessage m = again.receive(Duration.ofMillis(50));
            return m == null ? null : SocketTestSupport.text(m);
        });
        assertThat(got).isEqualTo("after");
    }

    @Test
    void unbindNamesTheListenerByItsPath() {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = pull.bind("ws://127.0.0.1:*/a");
        pull.unbind(endpoint);
    }

    @ParameterizedTest
    @ValueSource(ints = {150, 100_000})
    void aMessageOverMaxMsgSizeClosesThatConnectionWithAProtocolError(int size) throws Exception {
        // 150: within Netty's frame limit, so our frame decoder refuses it as over tcp; 100000: Netty's refuses it.
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.MAXMSGSIZE, 100L);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("small"));
        assertThat(recv(pull)).isEqualTo("small");
        push.send(ZmtpMessage.of("y".repeat(size)));
        ZmtpSocketEvent e = await(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR);
        assertThat(e.detail()).isNotEmpty();
        await(events, ZmtpSocketEvent.Type.DISCONNECTED);
    }

    @Test
    void aTextMessageClosesThatConnectionWithAProtocolError() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        try (RawClient raw = new RawClient(endpoint, "ZWS2.0/NULL")) {
            raw.upgraded.get(scaledSeconds(5), TimeUnit.SECONDS);
            raw.channel.writeAndFlush(new TextWebSocketFrame("hello"));
            assertThat(await(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR).detail()).contains("text");
            assertThat(raw.closeStatus.get(scaledSeconds(5), TimeUnit.SECONDS)).isEqualTo(1003);
        }
        // The socket still takes other connections.
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("still"));
        assertThat(recv(pull)).isEqualTo("still");
    }

    /** libzmq refuses a message split into fragments, and an empty one (no flags byte): so do we. */
    @ParameterizedTest
    @ValueSource(strings = {"fragmented", "empty"})
    void aFragmentedOrEmptyMessageClosesThatConnectionWithAProtocolError(String kind) throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        try (RawClient raw = new RawClient(endpoint, "ZWS2.0/NULL")) {
            raw.upgraded.get(scaledSeconds(5), TimeUnit.SECONDS);
            if (kind.equals("empty")) {
                raw.channel.writeAndFlush(new BinaryWebSocketFrame(Unpooled.EMPTY_BUFFER));
            } else {
                raw.channel.write(new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(new byte[] {0, 'a'})));
                raw.channel.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(b("b"))));
            }
            assertThat(await(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR).detail()).contains(kind);
            assertThat(raw.closeStatus.get(scaledSeconds(5), TimeUnit.SECONDS)).isEqualTo(1002);
        }
    }

    @Test
    void anotherPathGetsNotFound() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = pull.bind("ws://127.0.0.1:*/zmq");
        int port = URI.create(endpoint).getPort();
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.getOutputStream().write(("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(
                    s.getInputStream(), java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(r.readLine()).isEqualTo("HTTP/1.1 404 Not Found");
        }
    }

    @Test
    void aClientOfferingNoZwsSubprotocolGetsAClose() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        // No subprotocol at all: one the server doesn't know, Netty's client would refuse itself when none comes back.
        try (RawClient raw = new RawClient(endpoint, null)) {
            assertThat(raw.closeStatus.get(scaledSeconds(5), TimeUnit.SECONDS)).isEqualTo(1002);
            assertThat(raw.closeReason).contains("ZWS2.0/NULL");
        }
        assertThat(await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED).detail()).contains("subprotocol");
    }

    /** A NULL client and a PLAIN server: each side tells HANDSHAKE_FAILED (MECHANISM_MISMATCH), as over tcp. */
    @Test
    void aMechanismMismatchFailsTheHandshakeOnBothSides() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.PULL);
        server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        BlockingQueue<ZmtpSocketEvent> serverEvents = new LinkedBlockingQueue<>();
        server.monitor(serverEvents::add);
        ZmtpSocket client = sockets.socket(ZmtpSocketType.PUSH);
        BlockingQueue<ZmtpSocketEvent> clientEvents = new LinkedBlockingQueue<>();
        client.monitor(clientEvents::add);
        client.connect(server.bind("ws://127.0.0.1:*/"));
        ZmtpSocketEvent s = await(serverEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(s.failureReason()).isEqualTo(io.zmtp.codec.ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
        assertThat(s.detail()).contains("ZWS2.0/PLAIN");
        ZmtpSocketEvent c = await(clientEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(c.failureReason()).isEqualTo(io.zmtp.codec.ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
        assertThat(c.detail()).contains("ZWS2.0/NULL");
    }

    @Test
    void aStreamSocketRefusesWs() {
        ZmtpSocket stream = sockets.socket(ZmtpSocketType.STREAM);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> stream.bind("ws://127.0.0.1:*/"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }

    /** A WebSocket client that breaks the rules (Netty's): records the close frame it gets. */
    private static final class RawClient implements AutoCloseable {
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final CompletableFuture<Void> upgraded = new CompletableFuture<>();
        final CompletableFuture<Integer> closeStatus = new CompletableFuture<>();
        volatile String closeReason;
        final Channel channel;

        RawClient(String endpoint, String subprotocol) {
            URI uri = URI.create(endpoint);
            WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder().webSocketUri(uri)
                    .subprotocol(subprotocol).handleCloseFrames(false).build();
            channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(8192),
                                    new WebSocketClientProtocolHandler(config), new ChannelInboundHandlerAdapter() {
                                        @Override
                                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                            if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent
                                                    .HANDSHAKE_COMPLETE) {
                                                upgraded.complete(null);
                                            }
                                        }

                                        @Override
                                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                            if (msg instanceof CloseWebSocketFrame) {
                                                closeReason = ((CloseWebSocketFrame) msg).reasonText();
                                                closeStatus.complete(((CloseWebSocketFrame) msg).statusCode());
                                            }
                                            ReferenceCountUtil.release(msg);
                                        }

                                        @Override
                                        public void channelInactive(ChannelHandlerContext ctx) {
                                            closeStatus.complete(-1);
                                        }
                                    });
                        }
                    }).connect(uri.getHost(), uri.getPort()).syncUninterruptibly().channel();
        }

        @Override
        public void close() {
            channel.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
