package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.CurveTestKeys;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;
import io.zmtp.testkit.ZmtpVector;
import io.zmtp.testkit.ZmtpVectors;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CURVE handshake libzmq 4.3.5 (a DEALER client) had with a raw server of known keys
 * ({@code i_curve_handshake.txt}, keys from {@code curve_test_keys.txt}): every box in it is opened with our crypto
 * and sealed again from what it holds, which must give the captured bytes exactly; then our server mechanism, given
 * the raw server's transient key, cookie key and nonces, must answer libzmq's HELLO with the captured WELCOME, and our
 * MESSAGE cipher must open libzmq's messages and seal the raw server's.
 */
class CurveHandshakeVectorTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final List<ZmtpVector> BLOCKS = ZmtpVectors.load("i_curve_handshake");
    /** The raw server's transient secret s': bytes 01..20. */
    private static final byte[] SERVER_TRANSIENT_SECRET = range(0x01, 32);
    /** The raw server's cookie key: bytes 65..84. */
    private static final byte[] COOKIE_KEY = range(0x65, 32);
    private static final byte[] WELCOME_NONCE = fill('W', 16);
    private static final byte[] COOKIE_NONCE = fill('C', 16);

    private static byte[] range(int from, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }

    private static byte[] fill(char c, int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

    /** The block whose header starts with {@code header} ({@code index}-th such), its whole frame bytes. */
    private static byte[] frame(String header, int index) {
        String marker = header.substring(0, 2);
        String name = header.substring(3);
        return BLOCKS.stream().filter(b -> b.direction().marker().equals(marker) && b.header().contains(name))
                .skip(index).findFirst().orElseThrow(() -> new AssertionError("no block " + header + " in "
                        + BLOCKS)).bytes();
    }

    /** The body of a frame (after its 2- or 9-byte header). */
    private static byte[] body(byte[] frame) {
        int headerLength = (frame[0] & 0x02) != 0 ? 9 : 2;
        return Arrays.copyOfRange(frame, headerLength, frame.length);
    }

    private static byte[] clientTransientPublic() {
        return Arrays.copyOfRange(body(frame("L> HELLO", 0)), 80, 112);
    }

    private static byte[] messageKey() {
        return CryptoBox.beforenm(clientTransientPublic(), SERVER_TRANSIENT_SECRET);
    }

    /** Opens {@code box} (a slice of {@code source}) and checks that sealing what it holds gives it back. */
    private static byte[] openAndReseal(byte[] key, byte[] nonce, byte[] source, int from, int length) {
        byte[] plain = CryptoBox.open(key, nonce, source, from, length);
        assertThat(CryptoBox.seal(key, nonce, plain)).isEqualTo(Arrays.copyOfRange(source, from, from + length));
        return plain;
    }

    @Test
    void shouldKnowTheRawServersTransientPublicKey() {
        assertThat(HEX.formatHex(CurveKeyPair.fromSecretKey(SERVER_TRANSIENT_SECRET).publicKey()))
                .isEqualTo("07a37cbc142093c8b755dc1b10e86cb426374ad16aa853ed0bdfc0b2b86d1c7c");
    }

    @Test
    void shouldMatchLibsodiumsPrecomputedKeyAndHelloBoxForTheTestKeys() {
        byte[] k = CryptoBox.beforenm(CurveTestKeys.SERVER_PUBLIC, CurveTestKeys.CLIENT_SECRET);
        assertThat(k).isEqualTo(CurveTestKeys.derived("crypto_box_beforenm(server public, client secret)", 32));
        assertThat(CryptoBox.beforenm(CurveTestKeys.CLIENT_PUBLIC, CurveTestKeys.SERVER_SECRET)).isEqualTo(k);
        byte[] box = CryptoBox.seal(k, CryptoBox.nonce("CurveZMQHELLO---", 1), new byte[64]);
        assertThat(box).isEqualTo(CurveTestKeys.derived("from client secret)  -> 80 bytes", 80));
    }

    @Test
    void shouldOpenAndResealLibzmqsHelloBox() {
        byte[] hello = body(frame("L> HELLO", 0));
        assertThat(hello).hasSize(200);
        assertThat(Arrays.copyOfRange(hello, 0, 6)).isEqualTo("\u0005HELLO".getBytes(StandardCharsets.US_ASCII));
        assertThat(Arrays.copyOfRange(hello, 8, 80)).isEqualTo(new byte[72]);
        byte[] key = CryptoBox.beforenm(clientTransientPublic(), CurveTestKeys.SERVER_SECRET);
        byte[] plain = openAndReseal(key, CryptoBox.nonce("CurveZMQHELLO---", Arrays.copyOfRange(hello, 112, 120)),
                hello, 120, 80);
        assertThat(plain).isEqualTo(new byte[64]);
    }

    @Test
    void shouldOpenAndResealTheWelcomeBoxAndItsCookie() {
        byte[] welcome = body(frame("R> WELCOME", 0));
        assertThat(welcome).hasSize(168);
        byte[] key = CryptoBox.beforenm(clientTransientPublic(), CurveTestKeys.SERVER_SECRET);
        byte[] plain = openAndReseal(key, CryptoBox.nonce("WELCOME-", WELCOME_NONCE), welcome, 24, 144);
        assertThat(Arrays.copyOf(plain, 32))
                .isEqualTo(CurveKeyPair.fromSecretKey(SERVER_TRANSIENT_SECRET).publicKey());
        byte[] cookie = Arrays.copyOfRange(plain, 32, 128);
        assertThat(Arrays.copyOf(cookie, 16)).isEqualTo(COOKIE_NONCE);
        byte[] cookiePlain = openAndReseal(COOKIE_KEY, CryptoBox.nonce("COOKIE--", COOKIE_NONCE), cookie, 16, 80);
        assertThat(Arrays.copyOf(cookiePlain, 32)).isEqualTo(clientTransientPublic());
        assertThat(Arrays.copyOfRange(cookiePlain, 32, 64)).isEqualTo(SERVER_TRANSIENT_SECRET);
    }

    @Test
    void shouldOpenAndResealTheInitiateBoxAndItsVouch() {
        byte[] initiate = body(frame("L> INITIATE", 0));
        byte[] welcomeKey = CryptoBox.beforenm(clientTransientPublic(), CurveTestKeys.SERVER_SECRET);
        byte[] welcome = body(frame("R> WELCOME", 0));
        byte[] cookie = Arrays.copyOfRange(CryptoBox.open(welcomeKey, CryptoBox.nonce("WELCOME-", WELCOME_NONCE),
                welcome, 24, 144), 32, 128);
        assertThat(Arrays.copyOfRange(initiate, 9, 105)).as("cookie echoed").isEqualTo(cookie);
        byte[] nonce = Arrays.copyOfRange(initiate, 105, 113);
        assertThat(nonce).isEqualTo(HEX.parseHex("0000000000000002"));
        byte[] plain = openAndReseal(messageKey(), CryptoBox.nonce("CurveZMQINITIATE", nonce), initiate, 113,
                initiate.length - 113);
        assertThat(Arrays.copyOf(plain, 32)).isEqualTo(CurveTestKeys.CLIENT_PUBLIC);
        byte[] vouchKey = CryptoBox.beforenm(CurveTestKeys.CLIENT_PUBLIC, SERVER_TRANSIENT_SECRET);
        byte[] vouch = openAndReseal(vouchKey, CryptoBox.nonce("VOUCH---", Arrays.copyOfRange(plain, 32, 48)),
                plain, 48, 80);
        assertThat(Arrays.copyOf(vouch, 32)).isEqualTo(clientTransientPublic());
        assertThat(Arrays.copyOfRange(vouch, 32, 64)).isEqualTo(CurveTestKeys.SERVER_PUBLIC);
        ZmtpMetadata md = ZmtpMetadata.decode(Unpooled.wrappedBuffer(plain, 128, plain.length - 128));
        assertThat(md.socketType()).isEqualTo(ZmtpSocketType.DEALER);
        assertThat(md.identity()).isEmpty();
    }

    @Test
    void shouldOpenAndResealTheReadyBox() {
        byte[] ready = body(frame("R> READY", 0));
        byte[] plain = openAndReseal(messageKey(), CryptoBox.nonce("CurveZMQREADY---", 1), ready, 14,
                ready.length - 14);
        assertThat(ZmtpMetadata.decode(Unpooled.wrappedBuffer(plain)).socketType()).isEqualTo(ZmtpSocketType.ROUTER);
    }

    @Test
    void shouldOpenAndResealEveryMessageBox() {
        String[] expected = {"01" + HEX.formatHex("hi".getBytes()), "00" + HEX.formatHex("there".getBytes())};
        for (int i = 0; i < 2; i++) {
            byte[] message = body(frame("L> MESSAGE", i));
            long nonce = 3 + i;
            byte[] plain = openAndReseal(messageKey(), CryptoBox.nonce("CurveZMQMESSAGEC", nonce), message, 16,
                    message.length - 16);
            assertThat(HEX.formatHex(plain)).isEqualTo(expected[i]);
        }
        String[] sent = {"00" + HEX.formatHex("pong".getBytes()), "00" + HEX.formatHex("pong2".getBytes())};
        for (int i = 0; i < 2; i++) {
            byte[] message = body(frame("R> MESSAGE", i));
            byte[] plain = openAndReseal(messageKey(), CryptoBox.nonce("CurveZMQMESSAGES", 2 + i), message, 16,
                    message.length - 16);
            assertThat(HEX.formatHex(plain)).isEqualTo(sent[i]);
        }
    }

    @Test
    void shouldAnswerLibzmqsHelloWithTheCapturedWelcomeAndFinishTheHandshake() {
        Deque<byte[]> nonces = new ArrayDeque<>(List.of(COOKIE_NONCE, WELCOME_NONCE));
        CurveRandom replay = new CurveRandom() {
            @Override
            public byte[] transientSecretKey() {
                // A copy: the mechanism zeroes the one it is given.
                return SERVER_TRANSIENT_SECRET.clone();
            }

            @Override
            public byte[] longNonce() {
                return nonces.removeFirst();
            }

            @Override
            public byte[] cookieKey() {
                return COOKIE_KEY.clone();
            }
        };
        ZmtpMetadata routerMetadata = ZmtpMetadata.builder().socketType(ZmtpSocketType.ROUTER).build();
        CurveServerMechanism server = new CurveServerMechanism(
                CurveKeyPair.fromSecretKey(CurveTestKeys.SERVER_SECRET), () -> 0L, routerMetadata, replay);
        assertThat(server.start()).isEmpty();

        List<ZmtpCommand> welcome = server.handle(command(frame("L> HELLO", 0)));
        assertThat(wire(welcome)).isEqualTo(frame("R> WELCOME", 0));

        assertThat(server.handle(command(frame("L> INITIATE", 0)))).isEmpty();
        ZmtpCredentials credentials = server.pendingCredentials();
        assertThat(credentials.mechanism()).isEqualTo("CURVE");
        assertThat(credentials.frame(0)).isEqualTo(CurveTestKeys.CLIENT_PUBLIC);
        List<ZmtpCommand> ready = server.authenticated(ZmtpAuthResult.allow());
        // The raw server's READY carried Socket-Type=ROUTER alone, as ours does here: same box, same nonce.
        assertThat(wire(ready)).isEqualTo(frame("R> READY", 0));
        assertThat(server.isComplete()).isTrue();
        assertThat(server.peerMetadata().socketType()).isEqualTo(ZmtpSocketType.DEALER);

        ZmtpFrameCipher cipher = server.frameCipher();
        ByteBuf out = Unpooled.buffer();
        try {
            assertThat(open(cipher, frame("L> MESSAGE", 0), out)).isEqualTo(ZmtpFrameCipher.MORE);
            assertThat(open(cipher, frame("L> MESSAGE", 1), out)).isZero();
            assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("hithere");
            out.clear();
            ByteBuf pong = Unpooled.copiedBuffer("pong", StandardCharsets.US_ASCII);
            cipher.seal(pong, 0, 4, 0, out);
            assertThat(ByteBufUtil.getBytes(out)).isEqualTo(frame("R> MESSAGE", 0));
        } finally {
            out.release();
        }
    }

    private static int open(ZmtpFrameCipher cipher, byte[] frame, ByteBuf out) {
        byte[] body = body(frame);
        return cipher.open(Unpooled.wrappedBuffer(body), body.length, out);
    }

    private static ZmtpCommand command(byte[] frame) {
        byte[] body = body(frame);
        int nameLength = body[0];
        return new ZmtpCommand(new String(body, 1, nameLength, StandardCharsets.US_ASCII),
                Unpooled.wrappedBuffer(body, 1 + nameLength, body.length - 1 - nameLength));
    }

    private static byte[] wire(List<ZmtpCommand> commands) {
        assertThat(commands).hasSize(1);
        ZmtpCommand c = commands.get(0);
        try {
            byte[] content = ByteBufUtil.getBytes(c.content());
            int size = 1 + c.name().length() + content.length;
            ByteBuf out = Unpooled.buffer();
            if (size > 255) {
                out.writeByte(0x06).writeLong(size);
            } else {
                out.writeByte(0x04).writeByte(size);
            }
            out.writeByte(c.name().length()).writeCharSequence(c.name(), StandardCharsets.US_ASCII);
            out.writeBytes(content);
            return ByteBufUtil.getBytes(out);
        } finally {
            c.release();
        }
    }
}
