package io.zmtp.codec;

import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The codec example in docs/security.md, kept compiling and passing (between the "// guide:" markers). */
class SecurityCodecExampleTest {

    @Test
    void shouldRunTheCodecExample() {
        CurveKeyPair serverKeys = CurveKeyPair.generate();
        CurveKeyPair clientKeys = CurveKeyPair.generate();
        // guide: codec start
        ZmtpConfig serverConfig = ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                .mechanism(CurveMechanism.server(serverKeys))          // any number of connections, each its own keys
                .authenticator(DefaultZmtpAuthenticator.builder().curveKey(clientKeys.publicKey()).build())
                .build();
        ZmtpConfig clientConfig = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                .mechanism(CurveMechanism.client(clientKeys, serverKeys.publicKeyZ85()))
                .build();
        // pipeline.addLast(new ZmtpHandshakeHandler(serverConfig)) as for NULL; then, in a handler after it:
        //   ZmtpHandshakeSuccessEvent hs = ...;  hs.mechanism() is "CURVE", hs.userId() the client key in Z85
        // guide: codec end
        try (TestPeer server = new TestPeer(serverConfig); TestPeer client = new TestPeer(clientConfig)) {
            TestPeer.pump(client, server);
            assertThat(server.success().userId()).isEqualTo(clientKeys.publicKeyZ85());
            assertThat(client.success().mechanism()).isEqualTo("CURVE");
        }
    }
}
