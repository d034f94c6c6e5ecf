package io.zmtp.socket;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketEvents.await;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bare {@code ZWS2.0} subprotocol (rfc 45; what a browser can offer, see docs/sockets.md): no mechanism, the
 * routing id first each way, then messages. Against a scripted WebSocket peer that speaks it byte for byte (ws
 * messages are {@code [flags][body]}), on both sides: our server taking it from a client that offers only it, and
 * our client speaking it to a server that chooses it. Its limits are the tcp decoder's (a routing id of at most 255
 * bytes and without MORE, MAXMSGSIZE), no command frames, and it is refused to PLAIN servers and thread-safe types.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WsBareIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void ourServerTakesTheBareFormAndSendsItsRoutingIdFirst() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.ROUTING_ID, "the-pull".getBytes(StandardCharsets.US_ASCII));
        try (BarePeer peer = BarePeer.client(pull.bind("ws://127.0.0.1:*/zmq"), "ZWS2.0")) {
            assertThat(peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo("ZWS2.0");
            assertThat(peer.next()).isEqualTo("00" + hex("the-pull"));
            peer.send(0x00, "");
            peer.send(0x00, "hello");
            assertThat(recv(pull)).isEqualTo("hello");
            ZmtpPeer p = pull.peers().get(0);
            assertThat(p.version()).isEqualTo(ZmtpVersion.ZMTP_20);
        }
    }

    /** A browser offering both gets the mechanism's (a client's order decides, as libzmq's server does). */
    @Test
    void aClientOfferingBothGetsTheMechanismsSubprotocol() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        try (BarePeer peer = BarePeer.client(pull.bind("ws://127.0.0.1:*/"), "ZWS2.0/NULL,ZWS2.0")) {
            assertThat(peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo("ZWS2.0/NULL");
        }
    }

    @Test
    void aRouterRoutesByTheBareClientsRoutingId() throws Exception {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        try (BarePeer peer = BarePeer.client(router.bind("ws://127.0.0.1:*/"), "ZWS2.0")) {
            peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS);
            assertThat(peer.next()).isEqualTo("00");
            peer.send(0x00, "browser-1");
            // REQ-style: the empty delimiter, then the body.
            peer.send(0x01, "");
            peer.send(0x00, "request");
            ZmtpMessage m = router.receive(SocketTestSupport.WAIT);
            assertThat(m).isNotNull();
            assertThat(m.frame(0).toString(StandardCharsets.US_ASCII)).isEqualTo("browser-1");
            assertThat(m.frame(1).readableBytes()).isZero();
            assertThat(m.frame(2).toString(StandardCharsets.US_ASCII)).isEqualTo("request");
            m.release();
            router.send(ZmtpMessage.of("browser-1", "", "reply"));
            assertThat(peer.next()).isEqualTo("01");
            assertThat(peer.next()).isEqualTo("00" + hex("reply"));
        }
    }

    @Test
    void aBareSubscriberGetsOnlyWhatItSubscribedTo() throws Exception {
        ZmtpSocket pub = sockets.socket(ZmtpSocketType.PUB);
        try (BarePeer peer = BarePeer.client(pub.bind("ws://127.0.0.1:*/"), "ZWS2.0")) {
            peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS);
            assertThat(peer.next()).isEqualTo("00");
            peer.send(0x00, "");
            peer.send(0x00, "\u0001a");
            // Until the subscription has arrived the PUB sends nothing; then only what starts with "a".
            String got = null;
            for (int i = 0; i < 200 && got == null; i++) {
                pub.send(ZmtpMessage.of("b-never"));
                pub.send(ZmtpMessage.of("a-" + i));
                got = peer.poll(Duration.ofMillis(25));
            }
            assertThat(got).startsWith("00" + hex("a-"));
            peer.send(0x00, "\u0000a");
            peer.send(0x00, "\u0001b");
            String next;
            do {
                pub.send(ZmtpMessage.of("a-late"));
                pub.send(ZmtpMessage.of("b-now"));
                next = peer.poll(Duration.ofMillis(25));
            } while (next == null || next.startsWith("00" + hex("a-")));
            assertThat(next).isEqualTo("00" + hex("b-now"));
        }
    }

    @Test
    void ourClientSpeaksTheBareFormToAServerThatChoosesIt() throws Exception {
        try (BarePeer server = BarePeer.server("ZWS2.0")) {
            ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.ROUTING_ID, "pusher".getBytes(StandardCharsets.US_ASCII));
            push.connect("ws://127.0.0.1:" + server.port() + "/");
            assertThat(server.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo("ZWS2.0");
            server.send(0x00, "");
            push.send(ZmtpMessage.of("one", "two"));
            assertThat(server.next()).isEqualTo("00" + hex("pusher"));
            assertThat(server.next()).isEqualTo("01" + hex("one"));
            assertThat(server.next()).isEqualTo("00" + hex("two"));
        }
    }

    @Test
    void aRoutingIdOver255BytesFailsTheHandshake() throws Exception {
        refusedAfterRoutingId(0x00, "x".repeat(256), "identity length");
    }

    @Test
    void aRoutingIdWithMoreFailsTheHandshake() throws Exception {
        refusedAfterRoutingId(0x01, "id", "flags");
    }

    @Test
    void aRoutingIdMarkedCommandFailsTheHandshake() throws Exception {
        refusedAfterRoutingId(0x02, "id", "flags");
    }

    private void refusedAfterRoutingId(int flags, String routingId, String why) throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        try (BarePeer peer = BarePeer.client(pull.bind("ws://127.0.0.1:*/"), "ZWS2.0")) {
            peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS);
            peer.send(flags, routingId);
            ZmtpSocketEvent e = await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
            assertThat(e.detail()).contains(why);
            assertThat(peer.closed.get(scaledSeconds(30), TimeUnit.SECONDS)).isTrue();
        }
    }

    /** After the routing id: a command frame (2.0 has none) and a message over MAXMSGSIZE close the connection. */
    @Test
    void aCommandFrameOrAnOversizedMessageIsAProtocolError() throws Exception {
        for (String kind : new String[] {"command", "oversized"}) {
            ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
            pull.setOption(ZmtpSocketOption.MAXMSGSIZE, 100L);
            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            pull.monitor(events::add);
            try (BarePeer peer = BarePeer.client(pull.bind("ws://127.0.0.1:*/"), "ZWS2.0")) {
                peer.upgraded.get(scaledSeconds(30), TimeUnit.SECONDS);
                peer.send(0x00, "");
                if (kind.equals("command")) {
                    peer.send(0x02, "\u0004PING\u0000\u0000");
                } else {
                    peer.send(0x00, "y".repeat(101));
                }
                await(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR);
                assertThat(peer.closed.get(scaledSeconds(30), TimeUnit.SECONDS)).as(kind).isTrue();
            }
        }
    }

    /**
     * The bare form has no handshake: a PLAIN server, a NULL socket that would ask about its peers (a ZAP domain, an
     * authenticator of its own) and a thread-safe type (ZMTP 3 only) don't take it.
     */
    @Test
    void socketsWithSecurityOrAThreadSafeTypeRefuseTheBareForm() throws Exception {
        ZmtpSocket plain = sockets.socket(ZmtpSocketType.PULL);
        plain.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        ZmtpSocket zap = sockets.socket(ZmtpSocketType.PULL);
        zap.setOption(ZmtpSocketOption.ZAP_DOMAIN, "global");
        ZmtpSocket authenticated = sockets.socket(ZmtpSocketType.PULL);
        authenticated.setOption(ZmtpSocketOption.AUTHENTICATOR,
                request -> CompletableFuture.completedFuture(io.zmtp.codec.security.ZmtpAuthResult.allow()));
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        for (ZmtpSocket s : new ZmtpSocket[] {plain, zap, authenticated, server}) {
            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            s.monitor(events::add);
            try (BarePeer peer = BarePeer.client(s.bind("ws://127.0.0.1:*/"), "ZWS2.0")) {
                // No subprotocol in the 101 (Netty's client refuses it there, before the server's close frame).
                assertThat(peer.closed.get(scaledSeconds(30), TimeUnit.SECONDS)).isTrue();
                assertThat(await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED).failureReason())
                        .isEqualTo(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
            }
        }
    }

    /** Our own client and server still agree on the mechanism's subprotocol (ZMTP 3.0 behind it). */
    @Test
    void ourClientAndServerPreferTheMechanism() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(pull.bind("ws://127.0.0.1:*/"));
        push.send(ZmtpMessage.of("hi"));
        assertThat(recv(pull)).isEqualTo("hi");
        assertThat(pull.peers().get(0).version()).isEqualTo(ZmtpVersion.ZMTP_30);
    }

    private static String hex(String s) {
        return ByteBufUtil.hexDump(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * A scripted ZWS peer on Netty's WebSocket handlers: a client offering, or a server accepting, the given
     * subprotocols; it records each binary message it receives as hex ({@code [flags][body]}).
     */
    private static final class BarePeer extends ChannelInboundHandlerAdapter implements AutoCloseable {
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        /** The subprotocol the upgrade chose. */
        final CompletableFuture<String> upgraded = new CompletableFuture<>();
        final CompletableFuture<Integer> closeStatus = new CompletableFuture<>();
        final CompletableFuture<Boolean> closed = new CompletableFuture<>();
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        volatile Channel channel;
        Channel listener;

        static BarePeer client(String endpoint, String subprotocols) {
            BarePeer p = new BarePeer();
            URI uri = URI.create(endpoint);
            WebSocketClientProtocolConfig config = WebSocketClientProtocolConfig.newBuilder().webSocketUri(uri)
                    .subprotocol(subprotocols).handleCloseFrames(false).build();
            WebSocketClientProtocolHandler ws = new WebSocketClientProtocolHandler(config);
            // Before connecting: the upgrade can complete before connect's future is seen done.
            p.chosen = () -> ws.handshaker().actualSubprotocol();
            p.channel = new Bootstrap().group(p.group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(8192), ws, p);
                        }
                    }).connect(uri.getHost(), uri.getPort()).syncUninterruptibly().channel();
            return p;
        }

        static BarePeer server(String subprotocols) {
            BarePeer p = new BarePeer();
            p.listener = new ServerBootstrap().group(p.group).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            p.channel = ch;
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(8192),
                                    new WebSocketServerProtocolHandler("/", subprotocols), p);
                        }
                    }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
            return p;
        }

        private volatile java.util.function.Supplier<String> chosen;

        int port() {
            return ((InetSocketAddress) listener.localAddress()).getPort();
        }

        void send(int flags, String body) {
            byte[] b = body.getBytes(StandardCharsets.ISO_8859_1);
            ByteBuf m = Unpooled.buffer(1 + b.length).writeByte(flags).writeBytes(b);
            channel.writeAndFlush(new BinaryWebSocketFrame(m)).syncUninterruptibly();
        }

        /** The next message, as hex. */
        String next() throws InterruptedException {
            String m = received.poll(scaledSeconds(10), TimeUnit.SECONDS);
            assertThat(m).as("a message from the socket").isNotNull();
            return m;
        }

        String poll(Duration wait) throws InterruptedException {
            return received.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt == WebSocketClientProtocolHandler.ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
                upgraded.complete(chosen.get());
            } else if (evt instanceof WebSocketServerProtocolHandler.HandshakeComplete) {
                upgraded.complete(((WebSocketServerProtocolHandler.HandshakeComplete) evt).selectedSubprotocol());
            }
            ReferenceCountUtil.release(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof BinaryWebSocketFrame) {
                received.add(ByteBufUtil.hexDump(((BinaryWebSocketFrame) msg).content()));
            } else if (msg instanceof CloseWebSocketFrame) {
                closeStatus.complete(((CloseWebSocketFrame) msg).statusCode());
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeStatus.complete(-1);
            closed.complete(true);
        }

        @Override
        public void close() {
            if (channel != null) {
                channel.close().syncUninterruptibly();
            }
            if (listener != null) {
                listener.close().syncUninterruptibly();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }

        @Override
        public String toString() {
            return "BarePeer" + Arrays.asList(channel, listener);
        }
    }
}
