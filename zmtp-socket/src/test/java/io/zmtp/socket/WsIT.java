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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
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
        s[1].send(ZmtpMessage.of("one", "", "three"));
        assertThat(recv(s[0])).isEqualTo("one||three");
        // Over 255 bytes: a long ZMTP frame header each way; and many at once, which the encoder batches.
        String big = "x".repeat(70_000);
        s[1].send(ZmtpMessage.of(big));
        for (int i = 0; i < 200; i++) {
            s[1].send(ZmtpMessage.of("m" + i));
        }
        assertThat(recv(s[0])).isEqualTo(big);
        for (int i = 0; i < 200; i++) {
            assertThat(recv(s[0])).isEqualTo("m" + i);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "PLAIN", "CURVE"})
    void reqRepRoundTrips(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.REP, ZmtpSocketType.REQ, mechanism);
        for (int i = 0; i < 3; i++) {
            s[1].send(ZmtpMessage.of("ping" + i));
            assertThat(recv(s[0])).isEqualTo("ping" + i);
            s[0].send(ZmtpMessage.of("pong" + i));
            assertThat(recv(s[1])).isEqualTo("pong" + i);
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
        push.send(ZmtpMessage.of("after"));
        assertThat(recv(again)).isEqualTo("after");
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
        Closes closes = new Closes();
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("ZWS2.0/NULL")
                .buildAsync(URI.create(endpoint), closes).get(5, TimeUnit.SECONDS);
        assertThat(ws.getSubprotocol()).isEqualTo("ZWS2.0/NULL");
        ws.sendText("hello", true);
        assertThat(await(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR).detail()).contains("text");
        assertThat(closes.status.get(5, TimeUnit.SECONDS)).isEqualTo(1003);
        // The socket still takes other connections.
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("still"));
        assertThat(recv(pull)).isEqualTo("still");
    }

    @Test
    void aClientOfferingNoZwsSubprotocolGetsAClose() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("ws://127.0.0.1:*/");
        Closes closes = new Closes();
        HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("chat")
                .buildAsync(URI.create(endpoint), closes).get(5, TimeUnit.SECONDS);
        assertThat(closes.status.get(5, TimeUnit.SECONDS)).isEqualTo(1002);
        assertThat(closes.reason).contains("ZWS2.0/NULL");
        assertThat(await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED).detail()).contains("subprotocol");
    }

    @Test
    void aStreamSocketRefusesWs() {
        ZmtpSocket stream = sockets.socket(ZmtpSocketType.STREAM);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> stream.bind("ws://127.0.0.1:*/"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }

    private static ZmtpSocketEvent await(BlockingQueue<ZmtpSocketEvent> events, ZmtpSocketEvent.Type type)
            throws InterruptedException {
        for (;;) {
            ZmtpSocketEvent e = events.poll(10, TimeUnit.SECONDS);
            assertThat(e).as("waiting for " + type).isNotNull();
            if (e.type() == type) {
                return e;
            }
        }
    }

    /** The JDK's WebSocket client, as a peer that breaks the rules: records the close it gets. */
    private static final class Closes implements WebSocket.Listener {
        final CompletableFuture<Integer> status = new CompletableFuture<>();
        volatile String reason;

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            this.reason = reason;
            status.complete(statusCode);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            status.completeExceptionally(error);
        }
    }
}
