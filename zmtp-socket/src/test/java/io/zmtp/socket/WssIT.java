package io.zmtp.socket;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.KeyManagerFactory;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketEvents.await;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * wss:// between our own sockets, with a self-signed certificate made by the JDK's keytool (Netty's
 * SelfSignedCertificate needs Bouncy Castle's bcpkix, which we don't have): the patterns over NULL and CURVE, and
 * the refusals (a client that doesn't trust the certificate, a ws:// client, a bind without a server context), which
 * must tell the monitor why and leak nothing (the leak detector runs at paranoid).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WssIT {
    private static final char[] PASSWORD = "changeit".toCharArray();

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    /** Valid for 127.0.0.1 and localhost. */
    private static SslContext serverContext;
    /** Trusts serverContext's certificate only. */
    private static SslContext trustingClient;

    @BeforeAll
    static void makeCertificate(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertThat(keytool.waitFor()).as("keytool: " + output).isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        serverContext = SslContextBuilder.forServer(kmf).build();
        trustingClient = SslContextBuilder.forClient()
                .trustManager((X509Certificate) ks.getCertificate("server")).build();
    }

    private static void secure(String mechanism, ZmtpSocket server, ZmtpSocket client) {
        server.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        client.setOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT, trustingClient);
        if ("CURVE".equals(mechanism)) {
            CurveKeyPair serverKeys = CurveKeyPair.generate();
            CurveKeyPair clientKeys = CurveKeyPair.generate();
            server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
            server.setOption(ZmtpSocketOption.AUTHENTICATOR,
                    DefaultZmtpAuthenticator.builder().curveKey(clientKeys.publicKeyZ85()).build());
            client.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
            client.setOption(ZmtpSocketOption.CURVE_SECRETKEY, clientKeys.secretKey());
        }
    }

    private ZmtpSocket[] pair(ZmtpSocketType serverType, ZmtpSocketType clientType, String mechanism) {
        ZmtpSocket server = sockets.socket(serverType);
        ZmtpSocket client = sockets.socket(clientType);
        secure(mechanism, server, client);
        String endpoint = server.bind("wss://127.0.0.1:*/zmq");
        assertThat(endpoint).startsWith("wss://127.0.0.1:").endsWith("/zmq");
        client.connect(endpoint);
        return new ZmtpSocket[] {server, client};
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "CURVE"})
    void pushPullCarriesMultipartAndLargeMessages(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.PULL, ZmtpSocketType.PUSH, mechanism);
        // Over TLS's 16 KiB record: one ZWS message in several records.
        WsIT.pushPull(s[0], s[1], 100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"NULL", "CURVE"})
    void reqRepRoundTrips(String mechanism) {
        ZmtpSocket[] s = pair(ZmtpSocketType.REP, ZmtpSocketType.REQ, mechanism);
        WsIT.reqRep(s[0], s[1]);
    }

    /** By name too: the certificate names localhost, and the client checks the name it connected to. */
    @Test
    void connectsByAHostNameTheCertificateNames() {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        secure("NULL", pull, push);
        String endpoint = pull.bind("wss://127.0.0.1:*/");
        push.connect(endpoint.replace("127.0.0.1", "localhost"));
        push.send(ZmtpMessage.of("by name"));
        assertThat(recv(pull)).isEqualTo("by name");
    }

    /**
     * The default client context trusts the JDK's CA certificates, not a self-signed one: the TLS handshake fails,
     * each side tells HANDSHAKE_FAILED with the JDK's reason, and nothing gets through.
     */
    @Test
    void aClientThatDoesNotTrustTheCertificateFailsTheHandshake() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        BlockingQueue<ZmtpSocketEvent> serverEvents = new LinkedBlockingQueue<>();
        pull.monitor(serverEvents::add);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        BlockingQueue<ZmtpSocketEvent> clientEvents = new LinkedBlockingQueue<>();
        push.monitor(clientEvents::add);
        push.connect(pull.bind("wss://127.0.0.1:*/"));
        ZmtpSocketEvent c = await(clientEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(c.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.PROTOCOL_ERROR);
        assertThat(c.detail()).contains("TLS handshake failed").contains("SSLHandshakeException");
        ZmtpSocketEvent s = await(serverEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(s.detail()).contains("TLS handshake failed");
        push.send(ZmtpMessage.of("never"));
        assertThat(pull.receive(java.time.Duration.ofMillis(300))).isNull();
    }

    /** A name the certificate doesn't have: trusted, but not for that host. */
    @Test
    void aClientRefusesACertificateForAnotherHost() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        secure("NULL", pull, push);
        BlockingQueue<ZmtpSocketEvent> clientEvents = new LinkedBlockingQueue<>();
        push.monitor(clientEvents::add);
        String endpoint = pull.bind("wss://0.0.0.0:*/");
        String port = endpoint.replaceAll(".*:(\\d+)/$", "$1");
        // 127.0.0.2 is loopback on Linux, but not in the certificate.
        push.connect("wss://127.0.0.2:" + port + "/");
        ZmtpSocketEvent c = await(clientEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(c.detail()).contains("TLS handshake failed").contains("127.0.0.2");
    }

    /** A ws:// client on a wss:// port: the server sees no TLS record, and says so. */
    @Test
    void aPlainWsClientOnAWssPortFailsTheHandshake() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        BlockingQueue<ZmtpSocketEvent> serverEvents = new LinkedBlockingQueue<>();
        pull.monitor(serverEvents::add);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(pull.bind("wss://127.0.0.1:*/").replace("wss://", "ws://"));
        ZmtpSocketEvent s = await(serverEvents, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
        assertThat(s.detail()).contains("TLS handshake failed").contains("did not speak TLS");
    }

    /** A peer that connects and says nothing: HANDSHAKE_IVL bounds the TLS handshake too. */
    @Test
    void aSilentPeerTimesOutInTheTlsHandshake() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        pull.setOption(ZmtpSocketOption.HANDSHAKE_IVL, 300);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        String endpoint = pull.bind("wss://127.0.0.1:*/");
        int port = Integer.parseInt(endpoint.replaceAll(".*:(\\d+)/$", "$1"));
        try (java.net.Socket silent = new java.net.Socket("127.0.0.1", port)) {
            ZmtpSocketEvent e = await(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
            assertThat(e.failureReason()).isEqualTo(ZmtpHandshakeFailureReason.TIMEOUT);
            assertThat(e.detail()).contains("TLS handshake failed");
        }
    }

    @Test
    void bindingWithoutAServerContextFails() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        pull.monitor(events::add);
        assertThatThrownBy(() -> pull.bind("wss://127.0.0.1:*/"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class)
                .hasMessageContaining("WSS_SERVER_CONTEXT");
        assertThat(events.poll(scaledSeconds(5), TimeUnit.SECONDS)).extracting(ZmtpSocketEvent::type)
                .isEqualTo(ZmtpSocketEvent.Type.BIND_FAILED);
    }

    @Test
    void theOptionsTakeOnlyTheirSideOfContext() {
        ZmtpSocket s = sockets.socket(ZmtpSocketType.PULL);
        assertThatThrownBy(() -> s.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, trustingClient))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.setOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT, serverContext))
                .isInstanceOf(IllegalArgumentException.class);
        s.setOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT, trustingClient);
        assertThat(s.getOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT)).isSameAs(trustingClient);
        s.setOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT, null);
        assertThat(s.getOption(ZmtpSocketOption.WSS_CLIENT_CONTEXT)).isNull();
    }

    @Test
    void aStreamSocketRefusesWss() {
        ZmtpSocket stream = sockets.socket(ZmtpSocketType.STREAM);
        stream.setOption(ZmtpSocketOption.WSS_SERVER_CONTEXT, serverContext);
        assertThatThrownBy(() -> stream.bind("wss://127.0.0.1:*/"))
                .isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }
}
