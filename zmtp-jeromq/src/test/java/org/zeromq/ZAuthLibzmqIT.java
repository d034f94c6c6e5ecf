package org.zeromq;

import io.zmtp.socket.ZmtpPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZAuth deciding for libzmq clients (pyzmq's bundled libzmq 4.3.5): PLAIN and CURVE servers of this module accept
 * the clients ZAuth allows, with the User-Id it established, and refuse the others. Fails, never skips, without the
 * venv the build makes (target/venv).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZAuthLibzmqIT {
    private final ZContext ctx = new ZContext();

    @TempDir
    Path dir;

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    @Test
    void shouldAcceptAndRefuseLibzmqPlainClients() throws Exception {
        Path passwords = dir.resolve("passwords");
        Files.writeString(passwords, "alice=wonderland\n", StandardCharsets.UTF_8);
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.configurePlain("*", passwords.toString());
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setPlainServer(true);
            int port = server.bindToRandomPort("tcp://127.0.0.1");

            assertThat(libzmqClient(port, "nope", "PLAIN", "alice", "rabbit hole")).isEqualTo("refused");
            assertThat(auth.nextReply().statusCode).isEqualTo(400);

            assertThat(libzmqClient(port, "from libzmq", "PLAIN", "alice", "wonderland")).isEqualTo("accepted");
            ZAuth.ZapReply yes = ZAuthIT.nextAllowed(auth);
            assertThat(yes.userId).isEqualTo("alice");
            assertThat(server.recvStr()).isEqualTo("from libzmq");
            assertThat(server.recvStr(ZMQ.DONTWAIT)).isNull(); // nothing from the refused client
        }
    }

    @Test
    void shouldAcceptAndRefuseLibzmqCurveClientsByTheCertificateStore() throws Exception {
        ZCert serverCert = new ZCert();
        ZCert known = new ZCert();
        Path certs = Files.createDirectory(dir.resolve("certs"));
        known.savePublic(certs.resolve("known.pub").toString());
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.configureCurve(certs.toString());
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setCurveServer(true);
            server.setCurveSecretKey(serverCert.getSecretKey());
            int port = server.bindToRandomPort("tcp://127.0.0.1");

            ZCert stranger = new ZCert();
            assertThat(libzmqClient(port, "intruder", "CURVE", stranger.getPublicKeyAsZ85(),
                    stranger.getSecretKeyAsZ85(), serverCert.getPublicKeyAsZ85())).isEqualTo("refused");
            assertThat(auth.nextReply().statusCode).isEqualTo(400);

            assertThat(libzmqClient(port, "known", "CURVE", known.getPublicKeyAsZ85(), known.getSecretKeyAsZ85(),
                    serverCert.getPublicKeyAsZ85())).isEqualTo("accepted");
            assertThat(ZAuthIT.nextAllowed(auth).userId).isEqualTo(known.getPublicKeyAsZ85());
            assertThat(server.recvStr()).isEqualTo("known");
            assertThat(server.recvStr(ZMQ.DONTWAIT)).isNull();
        }
    }

    @Test
    void shouldReportTheEstablishedUserIdForALibzmqPeerWhileItIsConnected() throws Exception {
        Path passwords = dir.resolve("passwords");
        Files.writeString(passwords, "bob=builder\n", StandardCharsets.UTF_8);
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.configurePlain("*", passwords.toString());
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setPlainServer(true);
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            Process client = start(true, port, "still here", "PLAIN", "bob", "builder");
            try {
                assertThat(server.recvStr()).isEqualTo("still here");
                // The client holds its connection: the server knows it by the User-Id ZAuth gave.
                List<ZmtpPeer> peers = server.zmtpSocket().peers();
                assertThat(peers).extracting(ZmtpPeer::userId).containsExactly("bob");
            } finally {
                client.getOutputStream().write('\n');
                client.getOutputStream().flush();
            }
            assertThat(finish(client)).isEqualTo("accepted");
        }
    }

    /** Runs the libzmq client to its end; its outcome ("accepted", "refused"). */
    private static String libzmqClient(int port, String message, String... mechanism) throws Exception {
        return finish(start(false, port, message, mechanism));
    }

    private static Process start(boolean hold, int port, String message, String... mechanism) throws IOException {
        List<String> command = new ArrayList<>(List.of(python().toString(), script().toString(),
                Integer.toString(port), message));
        command.addAll(List.of(mechanism));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        if (hold) {
            builder.environment().put("ZAP_CLIENT_HOLD", "1");
        }
        return builder.start();
    }

    private static String finish(Process client) throws Exception {
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(client.waitFor()).as("the libzmq client's exit status").isZero();
        return out;
    }

    private static Path python() {
        Path python = Path.of(System.getProperty("zmtp.jeromq.python", "target/venv/bin/python")).toAbsolutePath();
        if (!Files.isExecutable(python)) {
            throw new AssertionError("No Python with pyzmq at " + python + ". `./mvnw -pl zmtp-jeromq -am verify` makes"
                    + " it (zmtp-interop/src/test/python/setup-venv.sh zmtp-jeromq/target/venv), or pass"
                    + " -Dzmtp.jeromq.python=<venv>/bin/python");
        }
        return python;
    }

    private static Path script() {
        return Path.of(System.getProperty("zmtp.jeromq.scripts", "src/test/python"), "zap_client.py")
                .toAbsolutePath();
    }
}
