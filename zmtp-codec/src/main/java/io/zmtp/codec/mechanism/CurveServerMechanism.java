package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * CURVE, server side: opens HELLO (the client knows our public key), answers WELCOME with a transient key and a
 * cookie sealed with a cookie key of this connection's own, checks INITIATE (the cookie, the client's transient key,
 * the vouch binding its permanent key to it and to us), asks the authenticator about the client's permanent key, and
 * sends READY.
 *
 * <p>Every box that does not open closes the connection without an ERROR, as libzmq does; a refused client gets an
 * ERROR with the authenticator's status code.
 *
 * <h2>Secrets, and when they go</h2>
 * Forward secrecy is only as good as the forgetting: whoever later reads this server's memory must find nothing that
 * opens a recorded session. So each secret is zeroed as soon as it is done with, and every one of them when the
 * handshake fails or is abandoned ({@link #close}):
 * <ul>
 *   <li>the cookie key ({@link CurveCookieKey}, why per connection is there): made for WELCOME, zeroed once
 *       INITIATE's cookie was checked, opened or not;</li>
 *   <li>our transient secret s': made for WELCOME, zeroed once INITIATE is checked (the connection's key holds what
 *       is still needed of it);</li>
 *   <li>the connection's key (C' with s'): made from INITIATE, zeroed once READY is sealed and the
 *       {@link CurveFrameCipher} expanded from it (which keeps only its two directions' subkeys, until the connection
 *       closes);</li>
 *   <li>HELLO's and the vouch's keys, and the copy of our permanent secret each X25519 is given: at once.</li>
 * </ul>
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 */
final class CurveServerMechanism implements ZmtpMechanism {
    private enum State { EXPECT_HELLO, EXPECT_INITIATE, AUTHENTICATING, DONE }

    /** HELLO body after its name: version (2), padding (72), C' (32), short nonce (8), box (80). */
    private static final int HELLO_LENGTH = 2 + 72 + 32 + 8 + 80;
    /** INITIATE body after its name, at least: cookie (96), short nonce (8), box of C, vouch and no metadata. */
    private static final int MIN_INITIATE_LENGTH = 96 + 8 + CryptoBox.TAG_LENGTH + 32 + 96;
    private static final int COOKIE_LENGTH = 16 + CryptoBox.TAG_LENGTH + 64;

    private final CurveKeyPair permanent;
    private final LongSupplier nanoClock;
    private final ZmtpMetadata localMetadata;
    private final CurveRandom random;
    private State state = State.EXPECT_HELLO;
    private byte[] clientTransient;
    /** Our transient secret s', from WELCOME until INITIATE is checked. */
    private byte[] transientSecret;
    private CurveCookieKey cookieKey;
    /** The connection's key (C' with s'), from INITIATE until the cipher is made from it. */
    private byte[] key;
    /** Made with READY; handed over once by {@link #frameCipher}. */
    private CurveFrameCipher cipher;
    private long lastClientNonce;
    private ZmtpCredentials credentials;
    private ZmtpMetadata peerMetadata;

    /**
     * @param nanoClock the time a cookie's minute is counted on ({@code System::nanoTime} outside tests)
     */
    CurveServerMechanism(CurveKeyPair permanent, LongSupplier nanoClock, ZmtpMetadata localMetadata,
                         CurveRandom random) {
        this.permanent = permanent;
        this.nanoClock = nanoClock;
        this.localMetadata = localMetadata;
        this.random = random;
    }

    @Override
    public String name() {
        return CurveMechanism.NAME;
    }

    @Override
    public boolean isServer() {
        return true;
    }

    @Override
    public List<ZmtpCommand> start() {
        return Collections.emptyList();
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
        if (state == State.EXPECT_HELLO && command.is(ZmtpCommand.HELLO)) {
            return Collections.singletonList(welcome(command.content()));
        }
        if (state == State.EXPECT_INITIATE && command.is(ZmtpCommand.INITIATE)) {
            readInitiate(command.content());
            state = State.AUTHENTICATING;
            return Collections.emptyList();
        }
        throw MechanismSupport.unexpected(CurveMechanism.NAME, command,
                state == State.EXPECT_HELLO ? "HELLO" : "INITIATE");
    }

    private ZmtpCommand welcome(ByteBuf hello) {
        if (hello.readableBytes() != HELLO_LENGTH) {
            throw MechanismSupport.malformed("HELLO", hello.readableBytes() + " bytes after the name (expected: "
                    + HELLO_LENGTH + ")");
        }
        byte[] h = ByteBufUtil.getBytes(hello);
        if (h[0] != 1 || h[1] != 0) {
            throw MechanismSupport.malformed("HELLO", "CurveZMQ version " + h[0] + "." + h[1] + " (expected: 1.0)");
        }
        clientTransient = Arrays.copyOfRange(h, 74, 106);
        long nonce = readLong(h, 106);
        byte[] helloKey = openHello(h, nonce);
        lastClientNonce = nonce;
        transientSecret = random.transientSecretKey();
        cookieKey = new CurveCookieKey(random.cookieKey(), nanoClock);

        // The cookie carries what we need back in INITIATE (C' and s'), sealed so only we can read it.
        byte[] cookieNonce = random.longNonce();
        byte[] cookiePlain = new byte[64];
        System.arraycopy(clientTransient, 0, cookiePlain, 0, 32);
        System.arraycopy(transientSecret, 0, cookiePlain, 32, 32);
        byte[] cookieBox = cookieKey.seal(CryptoBox.nonce("COOKIE--", cookieNonce), cookiePlain);
        Arrays.fill(cookiePlain, (byte) 0);

        byte[] welcomeNonce = random.longNonce();
        byte[] welcomePlain = new byte[32 + COOKIE_LENGTH];
        System.arraycopy(CryptoBox.publicKey(transientSecret), 0, welcomePlain, 0, 32);
        System.arraycopy(cookieNonce, 0, welcomePlain, 32, 16);
        System.arraycopy(cookieBox, 0, welcomePlain, 48, cookieBox.length);
        byte[] box = CryptoBox.seal(helloKey, CryptoBox.nonce("WELCOME-", welcomeNonce), welcomePlain);
        Arrays.fill(helloKey, (byte) 0);
        state = State.EXPECT_INITIATE;
        return new ZmtpCommand(ZmtpCommand.WELCOME, Unpooled.wrappedBuffer(welcomeNonce, box));
    }

    /** HELLO's box must open with C' and our permanent key: returns that key, for WELCOME's box. */
    private byte[] openHello(byte[] h, long nonce) {
        byte[] permanentSecret = permanent.secretKey();
        byte[] helloKey = null;
        try {
            // Inside the try: a low-order C' (all zeros, say) fails the key agreement itself, and is refused like any
            // HELLO that does not open (found by CurveHandshakeFuzzTest; it escaped as an undeclared exception).
            helloKey = CryptoBox.beforenm(clientTransient, permanentSecret);
            CryptoBox.open(helloKey, CryptoBox.nonce("CurveZMQHELLO---", nonce), h, 114, 80);
            return helloKey;
        } catch (CryptoBox.CryptoException e) {
            if (helloKey != null) {
                Arrays.fill(helloKey, (byte) 0);
            }
            throw MechanismSupport.authFailed("HELLO does not open: the client does not have this server's public"
                    + " key (" + e.getMessage() + ")");
        } finally {
            Arrays.fill(permanentSecret, (byte) 0);
        }
    }

    private void readInitiate(ByteBuf initiate) {
        int length = initiate.readableBytes();
        if (length < MIN_INITIATE_LENGTH) {
            throw MechanismSupport.malformed("INITIATE", length + " bytes after the name (expected: >= "
                    + MIN_INITIATE_LENGTH + ")");
        }
        byte[] b = ByteBufUtil.getBytes(initiate);
        checkCookie(b);
        long nonce = readLong(b, COOKIE_LENGTH);
        if (Long.compareUnsigned(nonce, lastClientNonce) <= 0) {
            throw MechanismSupport.authFailed("INITIATE short nonce " + Long.toUnsignedString(nonce)
                    + " replayed (expected: > " + lastClientNonce + ")");
        }
        key = CryptoBox.beforenm(clientTransient, transientSecret);
        byte[] plain;
        try {
            plain = CryptoBox.open(key, CryptoBox.nonce("CurveZMQINITIATE", nonce), b, COOKIE_LENGTH + 8,
                    length - COOKIE_LENGTH - 8);
        } catch (CryptoBox.CryptoException e) {
            throw MechanismSupport.authFailed("INITIATE does not open: " + e.getMessage());
        }
        lastClientNonce = nonce;
        byte[] clientKey = Arrays.copyOf(plain, 32);
        checkVouch(clientKey, plain);
        // s' is done with: the connection's key holds all that is still needed of it.
        Arrays.fill(transientSecret, (byte) 0);
        transientSecret = null;
        peerMetadata = MechanismSupport.metadata(Unpooled.wrappedBuffer(plain, 128, plain.length - 128), "INITIATE");
        credentials = new ZmtpCredentials(CurveMechanism.NAME, Collections.singletonList(clientKey));
    }

    /**
     * The cookie must open with this connection's cookie key, within its minute, and hold the client transient key
     * and the transient secret of this connection. Opening zeroes the cookie key, whatever the outcome.
     */
    private void checkCookie(byte[] initiate) {
        byte[] nonce = CryptoBox.nonce("COOKIE--", Arrays.copyOf(initiate, 16));
        byte[] opened = cookieKey.open(nonce, initiate, 16, COOKIE_LENGTH - 16);
        if (opened == null) {
            throw MechanismSupport.authFailed("INITIATE cookie does not open (forged, or older than its minute)");
        }
        boolean ours = equalAt(opened, 0, clientTransient) & equalAt(opened, 32, transientSecret);
        Arrays.fill(opened, (byte) 0);
        if (!ours) {
            throw MechanismSupport.authFailed("INITIATE cookie is not this connection's");
        }
    }

    /** Whether {@code a} holds {@code b} at {@code offset}, in constant time and without a copy of either. */
    private static boolean equalAt(byte[] a, int offset, byte[] b) {
        int diff = 0;
        for (int i = 0; i < b.length; i++) {
            diff |= a[offset + i] ^ b[i];
        }
        return diff == 0;
    }

    /** The vouch: the client's permanent key vouches for its transient key, to this server (rfc 26). */
    private void checkVouch(byte[] clientKey, byte[] plain) {
        byte[] vouchNonce = CryptoBox.nonce("VOUCH---", Arrays.copyOfRange(plain, 32, 48));
        byte[] vouched;
        byte[] vouchKey = null;
        try {
            vouchKey = CryptoBox.beforenm(clientKey, transientSecret);
            vouched = CryptoBox.open(vouchKey, vouchNonce, plain, 48, 80);
        } catch (CryptoBox.CryptoException e) {
            throw MechanismSupport.authFailed("INITIATE vouch does not open: " + e.getMessage());
        } finally {
            if (vouchKey != null) {
                Arrays.fill(vouchKey, (byte) 0);
            }
        }
        if (!MessageDigest.isEqual(Arrays.copyOf(vouched, 32), clientTransient)) {
            throw MechanismSupport.authFailed("INITIATE vouch is for another transient key");
        }
        if (!MessageDigest.isEqual(Arrays.copyOfRange(vouched, 32, 64), permanent.publicKey())) {
            throw MechanismSupport.authFailed("INITIATE vouch is for another server");
        }
    }

    @Override
    public ZmtpCredentials pendingCredentials() {
        return state == State.AUTHENTICATING ? credentials : null;
    }

    @Override
    public List<ZmtpCommand> authenticated(ZmtpAuthResult result) {
        if (state != State.AUTHENTICATING) {
            throw new IllegalStateException("CURVE server is not authenticating (state " + state + ")");
        }
        try {
            MechanismSupport.checkAllowed(CurveMechanism.NAME, result);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        ByteBuf metadata = Unpooled.buffer(localMetadata.encodedLength());
        localMetadata.encode(metadata);
        byte[] box = CryptoBox.seal(key, CryptoBox.nonce("CurveZMQREADY---", 1), ByteBufUtil.getBytes(metadata));
        ByteBuf body = Unpooled.buffer(8 + box.length);
        body.writeLong(1).writeBytes(box);
        // READY was 1: our messages go on from 2. The key is done with once the cipher has expanded it.
        cipher = new CurveFrameCipher(key, true, 2, lastClientNonce);
        Arrays.fill(key, (byte) 0);
        key = null;
        state = State.DONE;
        return Collections.singletonList(new ZmtpCommand(ZmtpCommand.READY, body));
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
            throw new IllegalStateException("CURVE server has no cipher to hand over (state " + state + ")");
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
        if (cookieKey != null) {
            cookieKey.destroy();
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

    private static long readLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }
}
