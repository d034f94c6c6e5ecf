package io.zmtp.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PLAIN and CURVE against libzmq and JeroMQ: DEALER/ROUTER request/reply and PUB/SUB filtering (the scenarios of
 * {@link SocketMatrix}) with our socket as the server or as the client. The server binds. A foreign server checks
 * credentials through a ZAP handler in its context (libzmq's PLAIN refuses every client without one); ours through a
 * {@link DefaultZmtpAuthenticator}. Each run also checks that the foreign server's ZAP handler allowed our client.
 */
final class SecurityMatrix {
    private static final Logger LOG = LoggerFactory.getLogger(SecurityMatrix.class);
    static final String USER = "admin";
    static final String PASSWORD = "secret";
    static final CurveKeyPair SERVER_KEYS = CurveKeyPair.generate();
    static final CurveKeyPair CLIENT_KEYS = CurveKeyPair.generate();

    private SecurityMatrix() {}

    enum Mechanism { PLAIN, CURVE }

    /** Client type, server type. */
    enum Pair {
        DEALER_ROUTER(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER), SUB_PUB(ZmtpSocketType.SUB, ZmtpSocketType.PUB);

        final ZmtpSocketType client;
        final ZmtpSocketType server;

        Pair(ZmtpSocketType client, ZmtpSocketType server) {
            this.client = client;
            this.server = server;
        }
    }

    record Case(SocketPeer.Kind peer, Mechanism mechanism, Pair pair, boolean oursServer) {
        @Override
        public String toString() {
            return String.format("%s %-6s %s server (%s) <- %s client (%s)", mechanism, pair.server + "/" + pair.client,
                    oursServer ? "our" : peer.toString(), pair.server, oursServer ? peer.toString() : "our",
                    pair.client);
        }
    }

    static Stream<Case> cases(SocketPeer.Kind peer) {
        List<Case> cases = new ArrayList<>();
        for (Mechanism m : Mechanism.values()) {
            for (Pair p : Pair.values()) {
                for (boolean oursServer : new boolean[] {true, false}) {
                    cases.add(new Case(peer, m, p, oursServer));
                }
            }
        }
        return cases.stream();
    }

    /** Our socket configured as a server of {@code mechanism}, allowing the matrix's client. */
    static void ourServer(ZmtpSocket socket, Mechanism mechanism) {
        if (mechanism == Mechanism.PLAIN) {
            socket.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
            socket.setOption(ZmtpSocketOption.AUTHENTICATOR,
                    DefaultZmtpAuthenticator.builder().plainUser(USER, PASSWORD).build());
        } else {
            socket.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            socket.setOption(ZmtpSocketOption.CURVE_SECRETKEY, SERVER_KEYS.secretKey());
            socket.setOption(ZmtpSocketOption.AUTHENTICATOR,
                    DefaultZmtpAuthenticator.builder().curveKey(CLIENT_KEYS.publicKey()).build());
        }
    }

    /** Our socket configured as a client of {@code mechanism} with the given credentials. */
    static void ourClient(ZmtpSocket socket, Mechanism mechanism, String password, CurveKeyPair keys,
                          byte[] serverKey) {
        if (mechanism == Mechanism.PLAIN) {
            socket.setOption(ZmtpSocketOption.PLAIN_USERNAME, USER);
            socket.setOption(ZmtpSocketOption.PLAIN_PASSWORD, password);
        } else {
            socket.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKey);
            socket.setOption(ZmtpSocketOption.CURVE_SECRETKEY, keys.secretKey());
        }
    }

    /** socket_peer options for a foreign server; its ZAP handler must be started ({@link #theirZap}). */
    static List<String> theirServer(Mechanism mechanism) {
        return mechanism == Mechanism.PLAIN ? List.of("plain_server=1")
                : List.of("curve_server=1", "curve_publickey=" + SERVER_KEYS.publicKeyZ85(),
                        "curve_secretkey=" + SERVER_KEYS.secretKeyZ85());
    }

    static String theirZap(Mechanism mechanism) {
        return mechanism == Mechanism.PLAIN ? "zap plain=" + USER + ":" + PASSWORD
                : "zap curve=" + CLIENT_KEYS.publicKeyZ85();
    }

    static List<String> theirClient(Mechanism mechanism, String password, CurveKeyPair keys, CurveKeyPair server) {
        return mechanism == Mechanism.PLAIN
                ? List.of("plain_username=" + USER, "plain_password=" + password)
                : List.of("curve_serverkey=" + server.publicKeyZ85(), "curve_publickey=" + keys.publicKeyZ85(),
                        "curve_secretkey=" + keys.secretKeyZ85());
    }

    static void run(Case c) {
        long start = System.nanoTime();
        try (SocketPeer peer = c.peer().start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(2000).build()) {
            ZmtpSocket socket = ctx.socket(c.oursServer() ? c.pair().server : c.pair().client);
            socket.setOption(ZmtpSocketOption.LINGER, 1000);
            List<String> theirOptions = new ArrayList<>();
            if (c.oursServer()) {
                ourServer(socket, c.mechanism());
                theirOptions.addAll(theirClient(c.mechanism(), PASSWORD, CLIENT_KEYS, SERVER_KEYS));
            } else {
                peer.ok(theirZap(c.mechanism()));
                ourClient(socket, c.mechanism(), PASSWORD, CLIENT_KEYS, SERVER_KEYS.publicKey());
                theirOptions.addAll(theirServer(c.mechanism()));
            }
            if (c.pair() == Pair.DEALER_ROUTER) {
                if (c.oursServer()) {
                    theirOptions.add("id=" + SocketPeer.hex(SocketPeer.bytes(SocketMatrix.CLIENT_ID)));
                } else {
                    socket.setOption(ZmtpSocketOption.ROUTING_ID, SocketPeer.bytes(SocketMatrix.CLIENT_ID));
                }
            }
            SocketEnd ours = new SocketEnd.Ours(socket);
            SocketEnd theirs = new SocketEnd.Theirs(peer, "s", c.oursServer() ? c.pair().client : c.pair().server,
                    theirOptions.toArray(new String[0]));
            SocketEnd server = c.oursServer() ? ours : theirs;
            SocketEnd client = c.oursServer() ? theirs : ours;
            String endpoint = server.bind("tcp://127.0.0.1:*");
            client.connect(endpoint);
            if (c.pair() == Pair.DEALER_ROUTER) {
                SocketMatrix.requestReply(client, server);
            } else {
                SocketMatrix.publishSubscribe(server, client, server);
            }
            if (!c.oursServer()) {
                String expectedUser = c.mechanism() == Mechanism.PLAIN ? USER : CLIENT_KEYS.publicKeyZ85();
                assertThat(peer.ok("zaplog")).as("%s's ZAP handler", c.peer())
                        .contains(c.mechanism() + ":" + expectedUser + ":200");
            }
            LOG.info("{}: passed in {} ms", c, (System.nanoTime() - start) / 1_000_000);
        }
    }
}
