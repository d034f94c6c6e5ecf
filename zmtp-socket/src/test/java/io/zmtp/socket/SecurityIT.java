package io.zmtp.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The security options over tcp, and ZAP over inproc as code written for libzmq uses it: a REP socket bound at
 * {@code inproc://zeromq.zap.01} in the same context answers the handshakes' requests.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SecurityIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(5));

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    /** A ZAP handler as a libzmq application writes one: REP, request frames in, 6 frames out. */
    private final class ZapHandler implements AutoCloseable {
        final ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
        final BlockingQueue<List<String>> requests = new LinkedBlockingQueue<>();
        final AtomicBoolean running = new AtomicBoolean(true);
        final Thread thread;

        ZapHandler(String allowedUser, String password) {
            rep.bind("inproc://zeromq.zap.01");
            thread = new Thread(() -> {
                while (running.get()) {
                    ZmtpMessage m;
                    try {
                        m = rep.receive(Duration.ofMillis(50));
                    } catch (ZmtpSocketException e) {
                        return;
                    }
                    if (m == null) {
                        continue;
                    }
                    List<String> frames = m.toStrings();
                    m.release();
                    requests.add(frames);
                    boolean ok = frames.get(5).equals("CURVE") || frames.get(5).equals("NULL")
                            || (frames.get(6).equals(allowedUser) && frames.get(7).equals(password));
                    ZmtpMetadata md = ZmtpMetadata.builder().property("X-Role", "admin").build();
                    ByteBuf encoded = Unpooled.buffer();
                    md.encode(encoded);
                    byte[] mdBytes = new byte[encoded.readableBytes()];
                    encoded.readBytes(mdBytes);
                    encoded.release();
                    String user = ok && frames.size() > 6 ? "user-" + frames.get(6) : "";
                    rep.send("1.0".getBytes(), frames.get(1).getBytes(), (ok ? "200" : "400").getBytes(),
                            (ok ? "OK" : "no").getBytes(), user.getBytes(), mdBytes);
                }
            }, "test-zap-handler");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join();
        }
    }

    /** The message's frames as text; releases it. */
    private static List<String> strings(ZmtpMessage m) {
        assertThat(m).as("message within " + WAIT).isNotNull();
        try {
            return m.toStrings();
        } finally {
            m.release();
        }
    }

    private BlockingQueue<ZmtpSocketEvent> monitor(ZmtpSocket s) {
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        s.monitor(events::add);
        return events;
    }

    @Test
    void shouldAskTheContextsInprocZapHandlerAsLibzmqDoes() throws Exception {
        try (ZapHandler zap = new ZapHandler("admin", "secret")) {
            ZmtpSocket server = sockets.socket(ZmtpSocketType.ROUTER);
            server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
            server.setOption(ZmtpSocketOption.ZAP_DOMAIN, "global");
            server.setOption(ZmtpSocketOption.ROUTING_ID, "srv".getBytes(StandardCharsets.US_ASCII));
            String endpoint = server.bind("tcp://127.0.0.1:*");
            ZmtpSocket client = sockets.socket(ZmtpSocketType.DEALER);
            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
            client.connect(endpoint);
            client.send("hello");
            assertThat(strings(server.receive(WAIT))).last().isEqualTo("hello");
            List<String> request = zap.requests.poll(scaledSeconds(1), TimeUnit.SECONDS);
            // REP strips the delimiter: version, id, domain, address, identity (the server's own), mechanism, creds.
            assertThat(request).hasSize(8);
            assertThat(request.get(0)).isEqualTo("1.0");
            assertThat(request.subList(2, 8)).containsExactly("global", "127.0.0.1", "srv", "PLAIN", "admin",
                    "secret");
        }
    }

    @Test
    void shouldRefuseWhatTheZapHandlerRefuses() throws Exception {
        try (ZapHandler zap = new ZapHandler("admin", "secret")) {
            ZmtpSocket server = sockets.socket(ZmtpSocketType.PULL);
            server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
            BlockingQueue<ZmtpSocketEvent> events = monitor(server);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            ZmtpSocket client = sockets.socket(ZmtpSocketType.PUSH);
            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "guess");
            BlockingQueue<ZmtpSocketEvent> clientEvents = monitor(client);
            client.connect(endpoint);
            client.send("smuggled");
            assertThat(SocketEvents.next(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED, WAIT).detail())
                    .startsWith("AUTHENTICATION_FAILED").contains("400");
            assertThat(SocketEvents.next(clientEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED, WAIT).detail())
                    .startsWith("AUTHENTICATION_FAILED").endsWith("ERROR 400");
            assertThat(server.receive(Duration.ofMillis(300))).isNull();
        }
    }

    @Test
    void shouldAskZapForNullOnlyWithADomain() throws Exception {
        try (ZapHandler zap = new ZapHandler("admin", "secret")) {
            ZmtpSocket plain = sockets.socket(ZmtpSocketType.PULL);
            String endpoint = plain.bind("tcp://127.0.0.1:*");
            ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
            push.connect(endpoint);
            push.send("no domain");
            assertThat(strings(plain.receive(WAIT))).containsExactly("no domain");
            assertThat(zap.requests).isEmpty();

            ZmtpSocket withDomain = sockets.socket(ZmtpSocketType.PULL);
            withDomain.setOption(ZmtpSocketOption.ZAP_DOMAIN, "d");
            String endpoint2 = withDomain.bind("tcp://127.0.0.1:*");
            ZmtpSocket push2 = sockets.socket(ZmtpSocketType.PUSH);
            push2.connect(endpoint2);
            push2.send("domain");
            assertThat(strings(withDomain.receive(WAIT))).containsExactly("domain");
            assertThat(zap.requests.poll(scaledSeconds(1), TimeUnit.SECONDS)).contains("d", "NULL");
        }
    }

    @Test
    void shouldRefusePlainAndAcceptAnyCurveKeyWithoutAZapHandlerAsLibzmqDoes() throws Exception {
        ZmtpSocket plainServer = sockets.socket(ZmtpSocketType.PULL);
        plainServer.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        BlockingQueue<ZmtpSocketEvent> events = monitor(plainServer);
        String endpoint = plainServer.bind("tcp://127.0.0.1:*");
        ZmtpSocket plainClient = sockets.socket(ZmtpSocketType.PUSH);
        plainClient.setOption(ZmtpSocketOption.PLAIN_USERNAME, "anyone");
        plainClient.connect(endpoint);
        assertThat(SocketEvents.next(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED, WAIT).detail()).contains("no authenticator");

        CurveKeyPair serverKeys = CurveKeyPair.generate();
        ZmtpSocket curveServer = sockets.socket(ZmtpSocketType.PULL);
        curveServer.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        curveServer.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
        String curveEndpoint = curveServer.bind("tcp://127.0.0.1:*");
        ZmtpSocket curveClient = sockets.socket(ZmtpSocketType.PUSH);
        curveClient.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
        curveClient.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        curveClient.connect(curveEndpoint);
        curveClient.send("encrypted");
        assertThat(strings(curveServer.receive(WAIT))).containsExactly("encrypted");
    }

    @Test
    void shouldPreferTheAuthenticatorOptionToZap() throws Exception {
        try (ZapHandler zap = new ZapHandler("admin", "secret")) {
            CurveKeyPair serverKeys = CurveKeyPair.generate();
            CurveKeyPair clientKeys = CurveKeyPair.generate();
            CompletableFuture<String> asked = new CompletableFuture<>();
            ZmtpSocket server = sockets.socket(ZmtpSocketType.ROUTER);
            server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
            server.setOption(ZmtpSocketOption.AUTHENTICATOR, request -> {
                asked.complete(request.mechanism());
                return DefaultZmtpAuthenticator.builder().curveKey(clientKeys.publicKey()).build()
                        .authenticate(request);
            });
            String endpoint = server.bind("tcp://127.0.0.1:*");
            ZmtpSocket client = sockets.socket(ZmtpSocketType.DEALER);
            client.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
            client.setOption(ZmtpSocketOption.CURVE_SECRETKEY, clientKeys.secretKey());
            client.connect(endpoint);
            client.send("hi");
            assertThat(strings(server.receive(WAIT))).last().isEqualTo("hi");
            assertThat(asked.get(scaledSeconds(1), TimeUnit.SECONDS)).isEqualTo("CURVE");
            assertThat(zap.requests).isEmpty();
        }
    }

    @Test
    void shouldRefuseCurveWithoutASecretKeyAtBindAndConnect() {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.ROUTER);
        server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        assertThatThrownBy(() -> server.bind("tcp://127.0.0.1:*")).isInstanceOf(ZmtpSocketException.class)
                .hasMessageContaining("CURVE_SECRETKEY is not");
        ZmtpSocket client = sockets.socket(ZmtpSocketType.DEALER);
        client.setOption(ZmtpSocketOption.CURVE_SERVERKEY, CurveKeyPair.generate().publicKey());
        assertThatThrownBy(() -> client.connect("tcp://127.0.0.1:5555")).isInstanceOf(ZmtpSocketException.class)
                .hasMessageContaining("CURVE_SECRETKEY is not");
    }

    @Test
    void shouldNeverReadBackASecretKeyOrShowItInAnError() {
        ZmtpSocket s = sockets.socket(ZmtpSocketType.DEALER);
        s.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        assertThat(s.getOption(ZmtpSocketOption.CURVE_SECRETKEY)).isEmpty();
        assertThatThrownBy(() -> s.setOption(ZmtpSocketOption.CURVE_SECRETKEY, "not-a-key".getBytes()))
                .hasMessageContaining("9 bytes").hasMessageNotContaining("not-a-key");
    }

    @Test
    void shouldCarryPubSubOverCurveWithSubscriptionsEncrypted() throws Exception {
        CurveKeyPair serverKeys = CurveKeyPair.generate();
        ZmtpSocket pub = sockets.socket(ZmtpSocketType.PUB);
        pub.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        pub.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
        String endpoint = pub.bind("tcp://127.0.0.1:*");
        ZmtpSocket sub = sockets.socket(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
        sub.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, "a".getBytes());
        sub.connect(endpoint);
        List<String> got = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (got.isEmpty() && System.nanoTime() < deadline) {
            pub.send("b", "filtered");
            pub.send("a", "through");
            ZmtpMessage m = sub.receive(Duration.ofMillis(50));
            if (m != null) {
                got.addAll(m.toStrings());
                m.release();
            }
        }
        assertThat(got).containsExactly("a", "through");
    }
}
