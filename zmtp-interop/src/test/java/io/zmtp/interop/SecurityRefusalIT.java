package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.interop.SecurityMatrix.Mechanism;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SecurityRefusals} against libzmq (pyzmq) and JeroMQ. What the foreign side does on its end (ERROR or
 * silence) is its own business; what is asserted is ours: a HANDSHAKE_FAILED event with the reason, and nothing
 * delivered from a refused peer.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecurityRefusalIT {

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldBeRefusedByTheirPlainServerWithAWrongPassword(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            String endpoint = r.theirServer(Mechanism.PLAIN, ROUTER);
            ZmtpSocket client = r.ours(DEALER);
            SecurityMatrix.ourClient(client, Mechanism.PLAIN, SecurityRefusals.wrongPassword(), null, null);
            client.connect(endpoint);
            client.send("smuggled");
            String failure = r.handshakeFailure();
            if (kind == SocketPeer.Kind.LIBZMQ) {
                // libzmq's malformed PLAIN ERROR ("5E RROR 400"), read as the refusal it is.
                assertThat(failure).startsWith("AUTHENTICATION_FAILED").endsWith("ERROR 400");
            }
            r.assertTheirServerReceivedNothing();
            assertThat(r.peer.ok("zaplog")).contains("PLAIN:admin:400");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldRefuseTheirPlainClientWithAWrongPassword(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            ZmtpSocket server = r.ourServer(Mechanism.PLAIN, ROUTER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            r.theirClient(endpoint, DEALER, SecurityMatrix.theirClient(Mechanism.PLAIN,
                    SecurityRefusals.wrongPassword(), null, null));
            assertThat(r.refusalOfTheirClient()).startsWith("AUTHENTICATION_FAILED")
                    .contains("unknown user or wrong password");
            SecurityRefusals.assertReceivedNothing(server);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldBeRefusedByTheirCurveServerWithAnUnknownClientKey(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            String endpoint = r.theirServer(Mechanism.CURVE, ROUTER);
            ZmtpSocket client = r.ours(DEALER);
            CurveKeyPair stranger = SecurityRefusals.stranger();
            SecurityMatrix.ourClient(client, Mechanism.CURVE, null, stranger, SecurityRefusals.serverKey());
            client.connect(endpoint);
            client.send("smuggled");
            String failure = r.handshakeFailure();
            if (kind == SocketPeer.Kind.LIBZMQ) {
                assertThat(failure).startsWith("AUTHENTICATION_FAILED").endsWith("ERROR 400");
            }
            r.assertTheirServerReceivedNothing();
            assertThat(r.peer.ok("zaplog")).contains("CURVE:" + stranger.publicKeyZ85() + ":400");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldRefuseTheirCurveClientWithAnUnknownKey(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            ZmtpSocket server = r.ourServer(Mechanism.CURVE, ROUTER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            CurveKeyPair stranger = SecurityRefusals.stranger();
            r.theirClient(endpoint, DEALER, SecurityMatrix.theirClient(Mechanism.CURVE, null, stranger,
                    SecurityMatrix.SERVER_KEYS));
            assertThat(r.refusalOfTheirClient()).startsWith("AUTHENTICATION_FAILED")
                    .contains(stranger.publicKeyZ85() + " is not allowed");
            SecurityRefusals.assertReceivedNothing(server);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldFailAgainstTheirCurveServerWithTheWrongServerKey(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            String endpoint = r.theirServer(Mechanism.CURVE, ROUTER);
            ZmtpSocket client = r.ours(DEALER);
            SecurityMatrix.ourClient(client, Mechanism.CURVE, null, SecurityRefusals.clientKeys(),
                    SecurityRefusals.stranger().publicKey());
            client.connect(endpoint);
            client.send("smuggled");
            // The server can't open our HELLO: libzmq closes without a word, JeroMQ sends an empty ERROR.
            assertThat(r.handshakeFailure()).startsWith(kind == SocketPeer.Kind.LIBZMQ ? "CONNECTION_CLOSED"
                    : "PEER_ERROR");
            r.assertTheirServerReceivedNothing();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldRefuseTheirCurveClientWithTheWrongServerKey(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            ZmtpSocket server = r.ourServer(Mechanism.CURVE, ROUTER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            r.theirClient(endpoint, DEALER, SecurityMatrix.theirClient(Mechanism.CURVE, null,
                    SecurityRefusals.clientKeys(), SecurityRefusals.stranger()));
            assertThat(r.refusalOfTheirClient()).startsWith("AUTHENTICATION_FAILED").contains("HELLO does not open");
            SecurityRefusals.assertReceivedNothing(server);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldRefuseTheirNullClientAtOurCurveServer(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            ZmtpSocket server = r.ourServer(Mechanism.CURVE, ROUTER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            r.theirClient(endpoint, DEALER, List.of());
            // The peer may read our greeting and close first; ZmtpCurveTest shows the refusal on its own.
            assertThat(r.handshakeFailure()).matches("MECHANISM_MISMATCH.*\"NULL\".*|CONNECTION_CLOSED.*");
            SecurityRefusals.assertReceivedNothing(server);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SocketPeer.Kind.class)
    void shouldNotTalkNullToTheirCurveServer(SocketPeer.Kind kind) throws Exception {
        try (SecurityRefusals r = new SecurityRefusals(kind)) {
            String endpoint = r.theirServer(Mechanism.CURVE, ROUTER);
            ZmtpSocket client = r.ours(DEALER);
            client.connect(endpoint);
            client.send("smuggled");
            // Whichever side reads the other's greeting first ends it: we see the mismatch, or libzmq's close.
            assertThat(r.handshakeFailure()).matches("MECHANISM_MISMATCH.*\"CURVE\".*|CONNECTION_CLOSED.*");
            r.assertTheirServerReceivedNothing();
            assertThat(client.getOption(ZmtpSocketOption.CURVE_SERVERKEY)).isEmpty();
        }
    }
}
