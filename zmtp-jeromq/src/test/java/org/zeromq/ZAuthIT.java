package org.zeromq;

import io.zmtp.socket.ZmtpPeer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ZAuth deciding for real PLAIN, CURVE and NULL handshakes over tcp between sockets of this module. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZAuthIT {
    private final ZContext ctx = new ZContext();

    @TempDir
    Path dir;

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    @Test
    void shouldLetInPlainUsersWithTheRightPasswordAndReportTheUserIdItEstablished() throws Exception {
        Path passwords = dir.resolve("passwords");
        Files.writeString(passwords, "admin=secret\nguest=guest\n", StandardCharsets.UTF_8);
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.configurePlain("*", passwords.toString());
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setPlainServer(true);
            server.setZapDomain("test");
            int port = server.bindToRandomPort("tcp://127.0.0.1");

            ZMQ.Socket refused = plainClient(port, "admin", "wrong");
            ZAuth.ZapReply no = auth.nextReply();
            assertThat(no.statusCode).isEqualTo(400);
            assertThat(no.userId).isEmpty();
            assertThat(no.address).isEqualTo("127.0.0.1");

            ZMQ.Socket client = plainClient(port, "admin", "secret");
            ZAuth.ZapReply yes = nextAllowed(auth);
            assertThat(yes.statusCode).isEqualTo(200);
            assertThat(yes.statusText).isEqualTo("OK");
            assertThat(yes.userId).isEqualTo("admin");
            assertThat(client.send("from admin")).isTrue();
            assertThat(server.recvStr()).isEqualTo("from admin");
            // The server knows the peer by what ZAuth established.
            assertThat(server.zmtpSocket().peers()).extracting(ZmtpPeer::userId).containsExactly("admin");
            // The refused client's message never arrives.
            assertThat(refused.send("from nobody", ZMQ.DONTWAIT)).isTrue();
            assertThat(auth.nextReply().statusCode).isEqualTo(400); // its reconnection, refused again
            assertThat(server.recvStr(ZMQ.DONTWAIT)).isNull();
        }
    }

    private ZMQ.Socket plainClient(int port, String user, String password) {
        ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
        client.setPlainUsername(user);
        client.setPlainPassword(password);
        client.connect("tcp://127.0.0.1:" + port);
        return client;
    }

    @Test
    void shouldLetInCurveClientsWhoseCertificateIsInTheStoreWithItsMetadata() throws Exception {
        ZCert serverCert = new ZCert();
        ZCert known = new ZCert();
        known.setMeta("name", "known client");
        Path certs = Files.createDirectory(dir.resolve("certs"));
        known.savePublic(certs.resolve("known.pub").toString());
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.configureCurve(certs.toString());
            ZMQ.Socket server = curveServer(serverCert);
            int port = server.bindToRandomPort("tcp://127.0.0.1");

            ZMQ.Socket stranger = curveClient(new ZCert(), serverCert, port);
            assertThat(auth.nextReply().statusCode).isEqualTo(400);

            ZMQ.Socket client = curveClient(known, serverCert, port);
            ZAuth.ZapReply yes = nextAllowed(auth);
            assertThat(yes.statusCode).isEqualTo(200);
            assertThat(yes.userId).isEqualTo(known.getPublicKeyAsZ85());
            assertThat(yes.metadata.get("name")).isEqualTo("known client");
            client.send("hello");
            assertThat(server.recvStr()).isEqualTo("hello");
            assertThat(server.zmtpSocket().peers()).extracting(ZmtpPeer::userId)
                    .containsExactly(known.getPublicKeyAsZ85());
            stranger.send("intruder", ZMQ.DONTWAIT);
            assertThat(auth.nextReply().statusCode).isEqualTo(400);
            assertThat(server.recvStr(ZMQ.DONTWAIT)).isNull();
        }
    }

    /**
     * A certificate with nested metadata (ZPL names with a slash, as JeroMQ's ZAuthTest writes): ZMTP metadata can't
     * carry those names, so they are left out of the reply, and the client gets in with the rest.
     */
    @Test
    void shouldLetInACurveClientWhoseCertificateHasNestedMetadata() throws Exception {
        ZCert serverCert = new ZCert();
        ZCert known = new ZCert();
        known.setMeta("name", "nested");
        known.setMeta("meta1/meta2/meta3", "third level");
        Path certs = Files.createDirectory(dir.resolve("certs"));
        known.savePublic(certs.resolve("known.pub").toString());
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.configureCurve(certs.toString());
            ZMQ.Socket server = curveServer(serverCert);
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            ZMQ.Socket client = curveClient(known, serverCert, port);
            ZAuth.ZapReply yes = nextAllowed(auth);
            assertThat(yes.metadata.get("name")).isEqualTo("nested");
            assertThat(yes.metadata.containsKey("meta1/meta2/meta3")).isFalse();
            client.send("hello");
            assertThat(server.recvStr()).isEqualTo("hello");
        }
    }

    @Test
    void shouldLetInAnyCurveClientWhenAskedTo() {
        ZCert serverCert = new ZCert();
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.configureCurve(ZAuth.CURVE_ALLOW_ANY);
            ZMQ.Socket server = curveServer(serverCert);
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            ZMQ.Socket client = curveClient(new ZCert(), serverCert, port);
            client.send("anyone");
            assertThat(server.recvStr()).isEqualTo("anyone");
        }
    }

    private ZMQ.Socket curveServer(ZCert cert) {
        ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
        server.setCurveServer(true);
        server.setCurveSecretKey(cert.getSecretKey());
        return server;
    }

    private ZMQ.Socket curveClient(ZCert own, ZCert server, int port) {
        ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
        client.setCurvePublicKey(own.getPublicKey());
        client.setCurveSecretKey(own.getSecretKey());
        client.setCurveServerKey(server.getPublicKey());
        client.connect("tcp://127.0.0.1:" + port);
        return client;
    }

    @Test
    void shouldAllowAndDenyNullPeersByAddressOnSocketsWithADomain() {
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setZapDomain("global");
            int port = server.bindToRandomPort("tcp://127.0.0.1");

            auth.deny("127.0.0.1");
            ZMQ.Socket denied = nullClient(port);
            assertThat(auth.nextReply().statusCode).isEqualTo(400);
            denied.close();

            auth.allow("127.0.0.1"); // the allow list now decides alone
            ZMQ.Socket allowed = nullClient(port);
            assertThat(nextAllowed(auth).address).isEqualTo("127.0.0.1");
            allowed.send("allowed");
            assertThat(server.recvStr()).isEqualTo("allowed");
        }
        try (ZAuth auth = new ZAuth(ctx)) {
            auth.replies(true);
            auth.allow("10.1.2.3");
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setZapDomain("global");
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            nullClient(port);
            ZAuth.ZapReply reply = auth.nextReply();
            assertThat(reply.statusCode).isEqualTo(400);
            assertThat(reply.address).isEqualTo("127.0.0.1");
        }
    }

    private ZMQ.Socket nullClient(int port) {
        ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
        client.connect("tcp://127.0.0.1:" + port);
        return client;
    }

    @Test
    void shouldRefuseASecondHandlerInTheSameContext() throws Exception {
        try (ZAuth auth = new ZAuth(ctx)) {
            assertThatThrownBy(() -> new ZAuth(ctx, "second")).isInstanceOfSatisfying(ZMQException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EADDRINUSE.getCode()));
            // Its actor was stopped before the exception: the thread ends (it may still be leaving run()).
            for (Thread t : actorThreads("second")) {
                t.join();
            }
        }
    }

    @Test
    void shouldEndItsThreadOnCloseAndWhenTheContextIsClosedUnderIt() throws Exception {
        ZAuth auth = new ZAuth(ctx, "zauth-closed");
        auth.verbose(false);
        List<Thread> threads = actorThreads("zauth-closed");
        assertThat(threads).hasSize(1);
        auth.close();
        threads.get(0).join();
        // The endpoint is free: another handler can start.
        ZContext other = new ZContext();
        ZAuth late = new ZAuth(other, "zauth-abandoned");
        List<Thread> abandoned = actorThreads("zauth-abandoned");
        assertThat(abandoned).hasSize(1);
        other.close();
        abandoned.get(0).join();
        late.close(); // after its context: returns, nothing left to stop
    }

    private static List<Thread> actorThreads(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).toList();
    }

    /**
     * The next reply that allows a peer: refused clients reconnect and are refused again meanwhile, so 400s may come
     * first, and nothing else may.
     */
    static ZAuth.ZapReply nextAllowed(ZAuth auth) {
        for (;;) {
            ZAuth.ZapReply reply = auth.nextReply();
            if (reply.statusCode == 200) {
                return reply;
            }
            assertThat(reply.statusCode).as("a reply before the allowed one").isEqualTo(400);
        }
    }
}
