package io.zmtp.codec;

import io.zmtp.codec.mechanism.PlainMechanism;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.codec.security.ZmtpAuthRequest;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpAuthenticator;
import io.zmtp.testkit.ZmtpVector.Direction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.zmtp.codec.VectorSupport.blocks;
import static io.zmtp.codec.VectorSupport.libzmq;
import static io.zmtp.codec.VectorSupport.raw;
import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.command;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.greeting;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.Wire.properties;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PLAIN (rfc 24) against libzmq's wire vectors c, c2 and c3, and our client against our server.
 */
class ZmtpPlainTest {
    private static final ZmtpAuthenticator ADMIN = DefaultZmtpAuthenticator.builder()
            .plainUser("admin", "secret").build();

    private static ZmtpConfig.Builder client(ZmtpSocketType type, String user, String password) {
        return ZmtpConfig.builder(type).mechanism(PlainMechanism.client(user, password));
    }

    private static ZmtpConfig.Builder server(ZmtpSocketType type) {
        return ZmtpConfig.builder(type).mechanism(PlainMechanism.server());
    }

    private static byte[] plainGreeting(long padding, boolean asServer) {
        return greeting(padding, 1, "PLAIN", asServer);
    }

    @Test
    void shouldWriteExactlyLibzmqsClientBytesAgainstVectorC() {
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "admin", "secret"))) {
            dealer.feed(raw("c_plain_client_hello"));
            // Everything libzmq's DEALER wrote: greeting (as-server 0), HELLO, INITIATE, then a message.
            dealer.write(ZmtpMessage.of("data"));
            assertThat(dealer.outbound()).isEqualTo(libzmq("c_plain_client_hello"));
            ZmtpHandshakeSuccessEvent s = dealer.success();
            assertThat(s.mechanism()).isEqualTo("PLAIN");
            assertThat(s.peerSocketType()).isEqualTo(ZmtpSocketType.ROUTER);
        }
    }

    @Test
    void shouldServeVectorC2sClientAndAskTheAuthenticatorWhatLibzmqAsksItsZapHandler() {
        List<ZmtpAuthRequest> requests = new ArrayList<>();
        ZmtpAuthenticator recording = request -> {
            requests.add(request);
            return CompletableFuture.completedFuture(ZmtpAuthResult.allow("joe"));
        };
        ZmtpConfig config = server(ZmtpSocketType.PULL).identity(ascii("srv-id")).zapDomain("test")
                .authenticator(recording).build();
        try (TestPeer pull = new TestPeer(config)) {
            pull.feed(plainGreeting(0, false), raw("c2_plain_server_zap"), message(ascii("pushed")));
            // libzmq writes as-server 0 even as the PLAIN server; we write 1, as rfc 24 says. The rest is libzmq's.
            byte[] expected = libzmq("c2_plain_server_zap");
            expected[32] = 1;
            assertThat(pull.outbound()).isEqualTo(expected);

            assertThat(requests).hasSize(1);
            ZmtpAuthRequest r = requests.get(0);
            assertThat(r.domain()).isEqualTo("test");
            assertThat(r.identity()).isEqualTo(ascii("srv-id"));
            assertThat(r.mechanism()).isEqualTo("PLAIN");
            assertThat(r.username()).isEqualTo("admin");
            assertThat(r.password()).isEqualTo(ascii("secret"));

            ZmtpHandshakeSuccessEvent s = pull.success();
            assertThat(s.userId()).isEqualTo("joe");
            assertThat(s.peerMetadata().string("X-Hello")).isEqualTo("world");
            assertThat(pull.log()).last().isEqualTo("msg[" + Wire.hex(ascii("pushed")) + "]");
        }
    }

    @Test
    void shouldRefuseAClientWithAnErrorCarryingTheStatusCodeAsVectorC3() {
        try (TestPeer pull = TestPeer.of(server(ZmtpSocketType.PULL).authenticator(ADMIN))) {
            // The raw client's first HELLO (admin / wrong); the vector's second one shows the no-handler case.
            byte[] hello = VectorSupport.load("c3_plain_server_reject_error").get(0).bytes();
            assertThat(hello).isEqualTo(command("HELLO", concat(hex("05"), ascii("admin"), hex("05"),
                    ascii("wrong"))));
            pull.feed(plainGreeting(0, false));
            pull.outbound();
            pull.feed(hello);
            // The correct ERROR, not libzmq's 5E "RROR".
            assertThat(pull.outbound()).isEqualTo(command("ERROR", concat(hex("03"), ascii("400"))));
            ZmtpHandshakeFailureEvent f = pull.failure();
            assertThat(f.reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(((ZmtpAuthenticationException) f.cause()).statusCode()).isEqualTo(400);
            assertThat(((ZmtpAuthenticationException) f.cause()).isByPeer()).isFalse();
            assertThat(pull.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldRefuseEveryClientWithoutAnAuthenticatorAsLibzmqWithoutAZapHandler() {
        try (TestPeer pull = TestPeer.of(server(ZmtpSocketType.PULL))) {
            pull.outbound();
            pull.feed(plainGreeting(0, false), command("HELLO", concat(hex("05"), ascii("admin"), hex("06"),
                    ascii("secret"))));
            assertThat(pull.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(pull.failure().message()).contains("no authenticator");
            assertThat(pull.log()).noneMatch(e -> e.startsWith("success") || e.startsWith("msg"));
        }
    }

    @Test
    void shouldReadLibzmqsMalformedPlainErrorAsARefusal() {
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "admin", "wrong"))) {
            byte[] libzmqError = blocks("c3_plain_server_reject_error", Direction.LIBZMQ, "frame, 11 bytes");
            assertThat(libzmqError).isEqualTo(hex("04 09 5e 52 52 4f 52 03 34 30 30"));
            dealer.feed(plainGreeting(7, false), libzmqError);
            ZmtpHandshakeFailureEvent f = dealer.failure();
            assertThat(f.reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(f.message()).endsWith("ERROR 400");
            // Our greeting and HELLO; no ERROR back.
            assertThat(dealer.outbound()).endsWith(command("HELLO", concat(hex("05"), ascii("admin"), hex("05"),
                    ascii("wrong"))));
        }
    }

    @Test
    void shouldConnectOurClientToOurServerAndCarryMessagesBothWays() {
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "admin", "secret"));
             TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(ADMIN))) {
            dealer.write(ZmtpMessage.of("hello"));
            TestPeer.pump(dealer, router);
            assertThat(router.success().userId()).isEqualTo("admin");
            assertThat(dealer.success().userId()).isEmpty();
            assertThat(router.log()).last().isEqualTo("msg[" + Wire.hex(ascii("hello")) + "]");
            router.write(ZmtpMessage.of("world"));
            TestPeer.pump(dealer, router);
            assertThat(dealer.log()).last().isEqualTo("msg[" + Wire.hex(ascii("world")) + "]");
        }
    }

    @Test
    void shouldRefuseAWrongPasswordAndDeliverNothingFromThatPeer() {
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "admin", "guess"));
             TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(ADMIN))) {
            dealer.write(ZmtpMessage.of("let me in"));
            TestPeer.pump(dealer, router);
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(dealer.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg") || e.startsWith("success"));
        }
    }

    @Test
    void shouldWaitForAnAuthenticatorThatAnswersLater() {
        CompletableFuture<ZmtpAuthResult> decision = new CompletableFuture<>();
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "admin", "secret"));
             TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(r -> decision))) {
            dealer.write(ZmtpMessage.of("early"));
            TestPeer.pump(dealer, router);
            assertThat(router.log()).isEmpty();
            decision.complete(ZmtpAuthResult.allow("later"));
            router.channel.runPendingTasks();
            TestPeer.pump(dealer, router);
            assertThat(router.success().userId()).isEqualTo("later");
            assertThat(router.log()).last().isEqualTo("msg[" + Wire.hex(ascii("early")) + "]");
        }
    }

    @Test
    void shouldRefuseWithStatus500WhenTheAuthenticatorFails() {
        CompletableFuture<ZmtpAuthResult> decision = new CompletableFuture<>();
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(r -> decision))) {
            router.feed(plainGreeting(1, false));
            router.outbound();
            router.feed(command("HELLO", concat(hex("01"), ascii("a"), hex("01"), ascii("b"))));
            decision.completeExceptionally(new IllegalStateException("database down"));
            router.channel.runPendingTasks();
            assertThat(router.outbound()).isEqualTo(command("ERROR", concat(hex("03"), ascii("500"))));
            assertThat(((ZmtpAuthenticationException) router.failure().cause()).statusCode()).isEqualTo(500);
        }
    }

    /**
     * libzmq and JeroMQ clients end their session for good on an ERROR during the handshake; a timeout while the
     * authenticator (a slow ZAP handler) is asked is ours, so the connection closes silently and the client retries.
     * The decision that arrives after the close changes nothing.
     */
    @Test
    void shouldCloseWithoutErrorWhenTheHandshakeTimesOutWhileTheAuthenticatorIsAsked() {
        CompletableFuture<ZmtpAuthResult> decision = new CompletableFuture<>();
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).handshakeTimeoutMillis(500)
                .authenticator(r -> decision))) {
            router.feed(plainGreeting(1, false));
            router.outbound();
            router.feed(command("HELLO", concat(hex("01"), ascii("a"), hex("01"), ascii("b"))));
            router.advance(500);
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.TIMEOUT);
            assertThat(router.channel.isOpen()).isFalse();
            assertThat(router.outbound()).isEmpty();
            decision.complete(ZmtpAuthResult.allow("late"));
            router.channel.runPendingTasks();
            assertThat(router.outbound()).isEmpty();
            assertThat(router.log()).noneMatch(e -> e.startsWith("success"));
        }
    }

    @Test
    void shouldCloseWithoutErrorOnATemporaryFailure() {
        ZmtpAuthenticator busy = r -> CompletableFuture.completedFuture(
                ZmtpAuthResult.of(ZmtpAuthResult.TEMPORARY_FAILURE, "busy", "", ZmtpMetadata.EMPTY));
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(busy))) {
            router.feed(plainGreeting(1, false));
            router.outbound();
            router.feed(command("HELLO", concat(hex("01"), ascii("a"), hex("01"), ascii("b"))));
            assertThat(router.outbound()).isEmpty();
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED);
            assertThat(router.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldCloseAPeerThatFloodsWhileItsCredentialsAreChecked() {
        CompletableFuture<ZmtpAuthResult> never = new CompletableFuture<>();
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(r -> never))) {
            router.feed(plainGreeting(1, false), command("HELLO", concat(hex("01"), ascii("a"), hex("01"),
                    ascii("b"))));
            for (int i = 0; i < 20 && router.channel.isOpen(); i++) {
                router.feed(new byte[4096]);
            }
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.PROTOCOL_ERROR);
            assertThat(router.failure().message()).contains("while its credentials were being checked");
        }
    }

    @Test
    void shouldRejectMalformedHelloBodies() {
        byte[][] bodies = {
            hex(""),                                   // no username length
            concat(hex("05"), ascii("adm")),           // username cut short
            concat(hex("01"), ascii("a")),             // no password length
            concat(hex("01"), ascii("a"), hex("03"), ascii("bc")),      // password cut short
            concat(hex("01"), ascii("a"), hex("01"), ascii("bc")),      // trailing byte
        };
        for (byte[] body : bodies) {
            try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(ADMIN))) {
                router.feed(plainGreeting(1, false), command("HELLO", body));
                assertThat(router.failure().reason()).as(Wire.hex(body))
                        .isEqualTo(ZmtpHandshakeFailureReason.PROTOCOL_ERROR);
                assertThat(router.failure().message()).startsWith("malformed HELLO");
            }
        }
    }

    @Test
    void shouldRefuseANullPeerAsAMechanismMismatch() {
        // A downgrade attempt: a peer greeting with NULL where PLAIN is configured.
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(ADMIN))) {
            router.feed(Wire.rawGreeting(1), Wire.ready("Socket-Type", "DEALER"), message(ascii("sneaky")));
            assertThat(router.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH);
            assertThat(router.log()).noneMatch(e -> e.startsWith("msg"));
        }
    }

    @Test
    void shouldRejectUnexpectedCommandsOnEitherSide() {
        try (TestPeer dealer = TestPeer.of(client(ZmtpSocketType.DEALER, "u", "p"))) {
            dealer.feed(plainGreeting(1, true), Wire.ready("Socket-Type", "ROUTER"));
            assertThat(dealer.failure().message()).contains("unexpected READY").contains("expected: WELCOME");
        }
        try (TestPeer router = TestPeer.of(server(ZmtpSocketType.ROUTER).authenticator(ADMIN))) {
            router.feed(plainGreeting(1, false), command("INITIATE", properties("Socket-Type", "DEALER")));
            assertThat(router.failure().message()).contains("unexpected INITIATE").contains("expected: HELLO");
        }
    }
}
