package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.CurveKeyPair;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * CURVE, client side: HELLO proves nothing yet but is sealed to the server's key; WELCOME brings the server's
 * transient key and a cookie; INITIATE returns the cookie with our permanent key, a vouch for our transient key and
 * our metadata; READY brings the server's metadata.
 *
 * <p>Secrets go as soon as they are done with, as on the server ({@link CurveServerMechanism} lists why): our
 * transient secret c' once INITIATE is sealed, the connection's key once READY opened and the cipher was expanded
 * from it, HELLO's, WELCOME's and the vouch's keys at once, and all of them when the handshake fails
 * ({@link #close}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 */
final class CurveClientMechanism implements ZmtpMechanism {
    private enum State { EXPECT_WELCOME, EXPECT_READY, DONE }

    private static final int WELCOME_LENGTH = 16 + 144;

    private final CurveKeyPair permanent;
    private final byte[] serverKey;
    private final ZmtpMetadata localMetadata;
    private final CurveRandom random;
    /** Our transient secret c', from HELLO until INITIATE is sealed. */
    private byte[] transientSecret;
    private byte[] transientPublic;
    private State state = State.EXPECT_WELCOME;
    /** The connection's key: our transient secret with the server's transient public key, until READY. */
    private byte[] key;
    /** Made once READY opened; handed over once by {@link #frameCipher}. */
    private CurveFrameCipher cipher;
    private long lastServerNonce;
    private ZmtpMetadata peerMetadata;

    CurveClientMechanism(CurveKeyPair permanent, byte[] serverKey, ZmtpMetadata localMetadata, CurveRandom random) {
        this.permanent = permanent;
        this.serverKey = serverKey;
        this.localMetadata = localMetadata;
        this.random = random;
    }

    @Override
    public String name() {
        return CurveMechanism.NAME;
    }

    @Override
    public boolean isServer() {
        return false;
    }

    @Override
    public List<ZmtpCommand> start() {
        transientSecret = random.transientSecretKey();
        transientPublic = CryptoBox.publicKey(transientSecret);
        byte[] helloKey = CryptoBox.beforenm(serverKey, transientSecret);
        byte[] box = CryptoBox.seal(helloKey, CryptoBox.nonce("CurveZMQHELLO---", 1), new byte[64]);
        Arrays.fill(helloKey, (byte) 0);
        ByteBuf body = Unpooled.buffer(2 + 72 + 32 + 8 + box.length);
        body.writeByte(1).writeByte(0).writeZero(72).writeBytes(transientPublic).writeLong(1).writeBytes(box);
        return Collections.singletonList(new ZmtpCommand(ZmtpCommand.HELLO, body));
    }

    @Override
    public List<ZmtpCommand> handle(ZmtpCommand command) {
        try {
            return handleCommand(command);
        } catch (RuntimeException e) {
            // Every failure here ends the handshake: its secrets go now, not when the connection's close gets here.
            close();
            throw e;
        }
    }

    private List<ZmtpCommand> handleCommand(ZmtpCommand command) {
        if (command.is(ZmtpCommand.ERROR)) {
            throw MechanismSupport.peerError(CurveMechanism.NAME, command);
        }
        if (state == State.EXPECT_WELCOME && command.is(ZmtpCommand.WELCOME)) {
            return Collections.singletonList(initiate(command.content()));
        }
        if (state == State.EXPECT_READY && command.is(ZmtpCommand.READY)) {
            readReady(command.content());
            state = State.DONE;
            return Collections.emptyList();
        }
        throw MechanismSupport.unexpected(CurveMechanism.NAME, command,
                state == State.EXPECT_WELCOME ? "WELCOME or ERROR" : "READY or ERROR");
    }

    private ZmtpCommand initiate(ByteBuf welcome) {
        if (welcome.readableBytes() != WELCOME_LENGTH) {
            throw MechanismSupport.malformed("WELCOME", welcome.readableBytes() + " bytes after the name (expected: "
                    + WELCOME_LENGTH + ")");
        }
        byte[] w = ByteBufUtil.getBytes(welcome);
        byte[] welcomeKey = CryptoBox.beforenm(serverKey, transientSecret);
        byte[] opened;
        try {
            opened = CryptoBox.open(welcomeKey, CryptoBox.nonce("WELCOME-", Arrays.copyOf(w, 16)), w, 16, 144);
        } catch (CryptoBox.CryptoException e) {
            // The server does not hold the secret key of the public key we were given.
            throw MechanismSupport.authFailed("WELCOME from a server that does not have the expected key: "
                    + e.getMessage());
        } finally {
            Arrays.fill(welcomeKey, (byte) 0);
        }
        byte[] serverTransient = Arrays.copyOf(opened, 32);
        byte[] cookie = Arrays.copyOfRange(opened, 32, 128);
        byte[] vouchKey;
        byte[] permanentSecret = permanent.secretKey();
        try {
            key = CryptoBox.beforenm(serverTransient, transientSecret);
            vouchKey = CryptoBox.beforenm(serverTransient, permanentSecret);
        } catch (CryptoBox.CryptoException e) {
            // A server (holding its key) that sends a low-order S' fails the agreement: refused, not an escape.
            throw MechanismSupport.authFailed("WELCOME with an unusable transient key: " + e.getMessage());
        } finally {
            Arrays.fill(permanentSecret, (byte) 0);
        }
        // c' is done with: the connection's key holds all that is still needed of it.
        Arrays.fill(transientSecret, (byte) 0);
        transientSecret = null;

        byte[] vouchNonce = random.longNonce();
        byte[] vouchPlain = new byte[64];
        System.arraycopy(transientPublic, 0, vouchPlain, 0, 32);
        System.arraycopy(serverKey, 0, vouchPlain, 32, 32);
        byte[] vouchBox = CryptoBox.seal(vouchKey, CryptoBox.nonce("VOUCH---", vouchNonce), vouchPlain);
        Arrays.fill(vouchKey, (byte) 0);

        ByteBuf plain = Unpooled.buffer(32 + 96 + localMetadata.encodedLength());
        plain.writeBytes(permanent.publicKey()).writeBytes(vouchNonce).writeBytes(vouchBox);
        localMetadata.encode(plain);
        byte[] box = CryptoBox.seal(key, CryptoBox.nonce("CurveZMQINITIATE", 2), ByteBufUtil.getBytes(plain));
        ByteBuf body = Unpooled.buffer(96 + 8 + box.length);
        body.writeBytes(cookie).writeLong(2).writeBytes(box);
        state = State.EXPECT_READY;
        return new ZmtpCommand(ZmtpCommand.INITIATE, body);
    }

    private void readReady(ByteBuf ready) {
        if (ready.readableBytes() < 8 + CryptoBox.TAG_LENGTH) {
            throw MechanismSupport.malformed("READY", ready.readableBytes() + " bytes after the name (expected: >= "
                    + (8 + CryptoBox.TAG_LENGTH) + ")");
        }
        long nonce = ready.getLong(ready.readerIndex());
        if (Long.compareUnsigned(nonce, lastServerNonce) <= 0) {
            throw MechanismSupport.malformed("READY", "short nonce " + Long.toUnsignedString(nonce)
                    + " (expected: > " + lastServerNonce + ")");
        }
        byte[] box = ByteBufUtil.getBytes(ready, ready.readerIndex() + 8, ready.readableBytes() - 8);
        byte[] metadata;
        try {
            metadata = CryptoBox.open(key, CryptoBox.nonce("CurveZMQREADY---", nonce), box, 0, box.length);
        } catch (CryptoBox.CryptoException e) {
            throw MechanismSupport.malformed("READY", e.getMessage());
        }
        lastServerNonce = nonce;
        peerMetadata = MechanismSupport.metadata(Unpooled.wrappedBuffer(metadata), "READY");
        // HELLO was 1 and INITIATE 2: our messages go on from 3. The key is done with once the cipher expanded it.
        cipher = new CurveFrameCipher(key, false, 3, lastServerNonce);
        Arrays.fill(key, (byte) 0);
        key = null;
    }

    @Override
    public boolean isComplete() {
        return state == State.DONE;
    }

    @Override
    public ZmtpMetadata peerMetadata() {
        return peerMetadata;
    }

    /** The connection's cipher, handed over once: from then on it is the connection's, which closes it. */
    @Override
    public ZmtpFrameCipher frameCipher() {
        if (cipher == null) {
            throw new IllegalStateException("CURVE client has no cipher to hand over (state " + state + ")");
        }
        CurveFrameCipher c = cipher;
        cipher = null;
        return c;
    }

    /** Zeroes every secret of the handshake still held, and closes a cipher never handed over. */
    @Override
    public void close() {
        if (transientSecret != null) {
            Arrays.fill(transientSecret, (byte) 0);
            transientSecret = null;
        }
        if (key != null) {
            Arrays.fill(key, (byte) 0);
            key = null;
        }
        if (cipher != null) {
            cipher.close();
            cipher = null;
        }
    }
}
