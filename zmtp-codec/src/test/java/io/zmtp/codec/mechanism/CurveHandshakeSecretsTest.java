package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.ZmtpAuthResult;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CURVE's forward secrecy in the handshake (issue 35, item 5): the secrets that let someone who later reads a
 * process's memory open recorded cookies, and with them recorded sessions, are gone once no longer needed: the
 * cookie key once the cookie came back (or its minute is over), the transient secrets once INITIATE is done, all of
 * them when the handshake fails or is cut short. {@link RecordingCurveRandom} keeps the arrays it handed out; the
 * clock is a field the tests move, nothing sleeps. (Through the handler: {@code ZmtpCurveTest}.)
 */
class CurveHandshakeSecretsTest {
    private static final CurveKeyPair SERVER = CurveKeyPair.generate();
    private static final CurveKeyPair CLIENT = CurveKeyPair.generate();
    private static final ZmtpMetadata DEALER = ZmtpMetadata.builder().socketType(ZmtpSocketType.DEALER).build();
    private static final ZmtpMetadata ROUTER = ZmtpMetadata.builder().socketType(ZmtpSocketType.ROUTER).build();

    private long now = TimeUnit.HOURS.toNanos(5);
    private final RecordingCurveRandom random = new RecordingCurveRandom();
    private final CurveServerMechanism server = new CurveServerMechanism(SERVER, () -> now, ROUTER, random);
    private final CurveClientMechanism client = new CurveClientMechanism(CLIENT, SERVER.publicKey(), DEALER, random);

    @Test
    void shouldRefuseACookieOlderThanItsMinuteEvenWithNoHandshakeInBetween() {
        List<ZmtpCommand> initiate = deliver(client, deliver(server, client.start()));
        // Two minutes on, and no other connection came to move anything along.
        now += TimeUnit.MINUTES.toNanos(2);
        assertThatThrownBy(() -> deliver(server, initiate)).isInstanceOf(ZmtpHandshakeException.class)
                .hasMessageContaining("cookie");
        assertThat(random.cookieKeys()).hasSize(1);
        assertAllZero(random.secrets());
    }

    @Test
    void shouldZeroTheCookieKeyOnceTheCookieCameBack() {
        List<ZmtpCommand> initiate = deliver(client, deliver(server, client.start()));
        now += TimeUnit.SECONDS.toNanos(59);
        assertThat(deliver(server, initiate)).isEmpty();
        assertThat(server.pendingCredentials()).isNotNull();
        assertThat(random.cookieKeys()).hasSize(1);
        assertAllZero(random.cookieKeys());
        // And the transient secrets: each side's connection key holds what is still needed of them.
        assertAllZero(random.transientSecrets());
    }

    @Test
    void shouldZeroEveryHandshakeSecretOnceDoneAndStillCarryMessages() {
        assertThat(deliver(server, deliver(client, deliver(server, client.start())))).isEmpty();
        assertThat(deliver(client, server.authenticated(ZmtpAuthResult.allow()))).isEmpty();
        assertThat(server.isComplete()).isTrue();
        assertThat(client.isComplete()).isTrue();
        ZmtpFrameCipher serverCipher = server.frameCipher();
        ZmtpFrameCipher clientCipher = client.frameCipher();
        server.close();
        client.close();
        assertThat(random.secrets()).hasSize(3);
        assertAllZero(random.secrets());
        // Closing the mechanisms left the ciphers handed over alone.
        assertThat(roundTrip(clientCipher, serverCipher, "after the handshake")).isEqualTo("after the handshake");
        assertThat(roundTrip(serverCipher, clientCipher, "and back")).isEqualTo("and back");
        serverCipher.close();
        clientCipher.close();
        assertThatThrownBy(() -> roundTrip(clientCipher, serverCipher, "closed")).hasMessageContaining("closed");
    }

    @Test
    void shouldZeroTheServersSecretsWhenTheClientIsRefused() {
        assertThat(deliver(server, deliver(client, deliver(server, client.start())))).isEmpty();
        assertThatThrownBy(() -> server.authenticated(ZmtpAuthResult.deny("not you")))
                .isInstanceOf(ZmtpHandshakeException.class);
        assertAllZero(random.secrets());
    }

    @Test
    void shouldZeroTheServersSecretsWhenInitiateIsForged() {
        List<ZmtpCommand> initiate = deliver(client, deliver(server, client.start()));
        ByteBuf body = initiate.get(0).content();
        // A byte of the box after the cookie and the short nonce: the cookie opens, the box does not.
        int at = body.readerIndex() + 96 + 8 + 20;
        body.setByte(at, body.getByte(at) ^ 1);
        assertThatThrownBy(() -> deliver(server, initiate)).isInstanceOf(ZmtpHandshakeException.class)
                .hasMessageContaining("INITIATE does not open");
        assertAllZero(random.secrets());
    }

    @Test
    void shouldZeroTheSecretsOfAHandshakeCutShort() {
        // The server waits for INITIATE, the client has sent it: both hold secrets until told the handshake is over.
        only(deliver(client, deliver(server, client.start()))).release();
        assertThat(random.cookieKeys().get(0)).isNotEqualTo(new byte[32]);
        server.close();
        client.close();
        assertAllZero(random.secrets());
    }

    private static String roundTrip(ZmtpFrameCipher from, ZmtpFrameCipher to, String text) {
        ByteBuf clear = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        ByteBuf sealed = Unpooled.buffer();
        ByteBuf opened = Unpooled.buffer();
        try {
            from.seal(clear, 0, clear.readableBytes(), 0, sealed);
            // The sealed frame's header: flags and a one-byte size.
            sealed.skipBytes(2);
            to.open(sealed, sealed.readableBytes(), opened);
            return opened.toString(StandardCharsets.US_ASCII);
        } finally {
            clear.release();
            sealed.release();
            opened.release();
        }
    }

    private static void assertAllZero(List<byte[]> secrets) {
        assertThat(secrets).isNotEmpty().allSatisfy(k -> assertThat(k).containsOnly(0));
    }

    /** Hands {@code to} the one command of {@code commands}, released afterwards as the handler does. */
    private static List<ZmtpCommand> deliver(ZmtpMechanism to, List<ZmtpCommand> commands) {
        ZmtpCommand command = only(commands);
        try {
            return to.handle(command);
        } finally {
            command.release();
        }
    }

    private static ZmtpCommand only(List<ZmtpCommand> commands) {
        assertThat(commands).hasSize(1);
        return commands.get(0);
    }
}
