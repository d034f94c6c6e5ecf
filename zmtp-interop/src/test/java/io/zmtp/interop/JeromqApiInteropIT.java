package io.zmtp.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpSocketType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JeroMQ-API program on zmtp-jeromq ({@link ZmtpJeromqPeer}: JeroMQ code run with zmtp-jeromq in JeroMQ's jar's
 * place) against real JeroMQ 0.6.0 (in this JVM) and libzmq (pyzmq): REQ/REP, PUB/SUB, DEALER/ROUTER and
 * PUSH/PULL, each with NULL, PLAIN and CURVE, with the zmtp-jeromq program as the server (it binds, and checks
 * credentials through a ZAP handler written against JeroMQ's API on its own context) and as the client.
 */
class JeromqApiInteropIT {
    private static final Logger LOG = LoggerFactory.getLogger(JeromqApiInteropIT.class);

    enum Mechanism { NULL, PLAIN, CURVE }

    /** Client type, server type; the server binds. */
    enum Pattern {
        REQ_REP(ZmtpSocketType.REQ, ZmtpSocketType.REP),
        SUB_PUB(ZmtpSocketType.SUB, ZmtpSocketType.PUB),
        DEALER_ROUTER(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER),
        PUSH_PULL(ZmtpSocketType.PUSH, ZmtpSocketType.PULL);

        final ZmtpSocketType client;
        final ZmtpSocketType server;

        Pattern(ZmtpSocketType client, ZmtpSocketType server) {
            this.client = client;
            this.server = server;
        }
    }

    record Case(SocketPeer.Kind foreign, Pattern pattern, Mechanism mechanism, boolean oursServer) {
        @Override
        public String toString() {
            return String.format("%-6s %s/%s: %s server, %s client", mechanism, pattern.server, pattern.client,
                    oursServer ? "zmtp-jeromq" : foreign, oursServer ? foreign : "zmtp-jeromq");
        }
    }

    /** All cases, or those whose name matches {@code -Dzmtp.interop.cases=REGEX} (to rerun some). */
    static Stream<Case> cases() {
        java.util.regex.Pattern only =
                java.util.regex.Pattern.compile(System.getProperty("zmtp.interop.cases", ".*"));
        List<Case> cases = new ArrayList<>();
        for (SocketPeer.Kind foreign : SocketPeer.Kind.values()) {
            for (Pattern p : Pattern.values()) {
                for (Mechanism m : Mechanism.values()) {
                    for (boolean oursServer : new boolean[] {true, false}) {
                        cases.add(new Case(foreign, p, m, oursServer));
                    }
                }
            }
        }
        return cases.stream().filter(c -> only.matcher(c.toString()).find());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void jeromqApiOnZmtpJeromqTalksToTheRealPeer(Case c) {
        long start = System.nanoTime();
        try (SocketPeer foreign = c.foreign().start();
             ZmtpJeromqPeer ours = new ZmtpJeromqPeer()) {
            SocketPeer serverPeer = c.oursServer() ? ours : foreign;
            SocketPeer clientPeer = c.oursServer() ? foreign : ours;

            List<String> serverOptions = new ArrayList<>();
            List<String> clientOptions = new ArrayList<>();
            if (c.mechanism() != Mechanism.NULL) {
                SecurityMatrix.Mechanism m = SecurityMatrix.Mechanism.valueOf(c.mechanism().name());
                serverPeer.ok(SecurityMatrix.theirZap(m));
                serverOptions.addAll(SecurityMatrix.theirServer(m));
                clientOptions.addAll(SecurityMatrix.theirClient(m, SecurityMatrix.PASSWORD,
                        SecurityMatrix.CLIENT_KEYS, SecurityMatrix.SERVER_KEYS));
            }
            if (c.pattern() == Pattern.DEALER_ROUTER || c.pattern() == Pattern.REQ_REP) {
                clientOptions.add("id=" + SocketPeer.hex(SocketPeer.bytes(SocketMatrix.CLIENT_ID)));
            }
            SocketEnd server = new SocketEnd.Theirs(serverPeer, "server", c.pattern().server,
                    serverOptions.toArray(new String[0]));
            SocketEnd client = new SocketEnd.Theirs(clientPeer, "client", c.pattern().client,
                    clientOptions.toArray(new String[0]));
            client.connect(server.bind("tcp://127.0.0.1:*"));

            try {
                switch (c.pattern()) {
                    case REQ_REP, DEALER_ROUTER -> SocketMatrix.requestReply(client, server);
                    case SUB_PUB -> SocketMatrix.publishSubscribe(server, client, server);
                    case PUSH_PULL -> SocketMatrix.oneWay(client, server, 10);
                    default -> throw new IllegalStateException(c.toString());
                }
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nthe zmtp-jeromq peer's stderr:\n" + ours.stderr(), e);
            }
            if (c.mechanism() != Mechanism.NULL) {
                String expectedUser = c.mechanism() == Mechanism.PLAIN ? SecurityMatrix.USER
                        : SecurityMatrix.CLIENT_KEYS.publicKeyZ85();
                assertThat(serverPeer.ok("zaplog")).as("the server's ZAP handler")
                        .contains(c.mechanism() + ":" + expectedUser + ":200");
            }
            LOG.info("{}: passed in {} ms", c, (System.nanoTime() - start) / 1_000_000);
        }
    }
}
