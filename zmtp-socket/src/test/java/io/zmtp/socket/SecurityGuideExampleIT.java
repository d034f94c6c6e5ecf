package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpAuthenticator;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples in docs/security.md, kept compiling and passing (between the "// guide:" markers). */
class SecurityGuideExampleIT {

    @Test
    void shouldRunTheCurveExample() {
        // guide: curve start
        // Once, offline: `zmtp keygen` prints a pair; the server keeps its secret key, clients get its public key.
        CurveKeyPair serverKeys = CurveKeyPair.generate();
        CurveKeyPair clientKeys = CurveKeyPair.generate();

        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket server = context.socket(ZmtpSocketType.ROUTER);
             ZmtpSocket client = context.socket(ZmtpSocketType.DEALER)) {
            server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
            server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
            // Without an authenticator any client key is accepted (encrypted, but anyone): allow known keys only.
            server.setOption(ZmtpSocketOption.AUTHENTICATOR, DefaultZmtpAuthenticator.builder()
                    .curveKey(clientKeys.publicKeyZ85())
                    .build());
            String endpoint = server.bind("tcp://127.0.0.1:*");

            client.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
            client.setOption(ZmtpSocketOption.CURVE_SECRETKEY, clientKeys.secretKey());
            client.connect(endpoint);

            client.send("hello");
            ZmtpMessage request = server.receive(Duration.ofSeconds(5));   // [client routing id, "hello"]
            try {
                assertThat(request.frameString(1)).isEqualTo("hello");
            } finally {
                request.release();
            }
        }
        // guide: curve end
    }

    @Test
    void shouldRunThePlainExample() {
        // guide: plain start
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket server = context.socket(ZmtpSocketType.PULL);
             ZmtpSocket client = context.socket(ZmtpSocketType.PUSH)) {
            server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
            server.setOption(ZmtpSocketOption.AUTHENTICATOR, DefaultZmtpAuthenticator.builder()
                    .plainUser("admin", "secret")
                    .allow("127.0.0.1")                  // and only from here
                    .build());
            String endpoint = server.bind("tcp://127.0.0.1:*");

            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
            client.connect(endpoint);
            client.send("in clear text, but from admin");
            assertThat(server.receiveString(Duration.ofSeconds(5))).isEqualTo("in clear text, but from admin");
        }
        // guide: plain end
    }

    @Test
    void shouldRunTheCustomAuthenticatorExample() {
        // guide: custom start
        // Any policy: here, a lookup that could take I/O, answered later from another thread.
        ZmtpAuthenticator lookup = request -> CompletableFuture.supplyAsync(() ->
                "admin".equals(request.username())
                        ? ZmtpAuthResult.allow("user-42")
                        : ZmtpAuthResult.deny("unknown user " + request.username()));
        // guide: custom end
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket server = context.socket(ZmtpSocketType.PULL);
             ZmtpSocket client = context.socket(ZmtpSocketType.PUSH)) {
            server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
            server.setOption(ZmtpSocketOption.AUTHENTICATOR, lookup);
            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.connect(server.bind("tcp://127.0.0.1:*"));
            client.send("ok");
            assertThat(server.receiveString(Duration.ofSeconds(5))).isEqualTo("ok");
        }
    }

    @Test
    void shouldRunTheZapHandlerExample() throws Exception {
        try (ZmtpContext context = new ZmtpContext()) {
            // guide: zap start
            // As with libzmq: a handler bound at inproc://zeromq.zap.01 in the same context answers every
            // security handshake of the context's sockets (rfc 27).
            ZmtpSocket handler = context.socket(ZmtpSocketType.REP);
            handler.bind("inproc://zeromq.zap.01");
            Thread zap = new Thread(() -> {
                ZmtpMessage request = handler.receive();   // 1.0, id, domain, address, identity, mechanism, ...
                try {
                    boolean ok = request.frameString(5).equals("PLAIN") && request.frameString(6).equals("admin")
                            && request.frameString(7).equals("secret");
                    handler.send("1.0", request.frameString(1), ok ? "200" : "400", ok ? "OK" : "denied",
                            ok ? "admin" : "", "");
                } finally {
                    request.release();
                }
            });
            zap.start();
            // guide: zap end
            try (ZmtpSocket server = context.socket(ZmtpSocketType.PULL);
                 ZmtpSocket client = context.socket(ZmtpSocketType.PUSH)) {
                server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
                client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
                client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
                client.connect(server.bind("tcp://127.0.0.1:*"));
                client.send("via ZAP");
                assertThat(server.receiveString(Duration.ofSeconds(5))).isEqualTo("via ZAP");
            }
            zap.join(5000);
        }
    }
}
