package io.zmtp.codec.mechanism;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The key one CURVE server connection seals its cookie with (rfc 26: the cookie goes out in WELCOME and comes back in
 * INITIATE), made for that WELCOME and zeroed as soon as the cookie came back and was checked, or when the handshake
 * ends without it ({@link #destroy}). The cookie holds the connection's transient secret s' and travels in clear in
 * INITIATE, so whoever holds a cookie key can open every recorded cookie sealed with it and, with s', read the
 * recorded sessions: the key must not outlive the handshakes it served.
 *
 * <h2>Why one per connection, not one per server rotated every minute</h2>
 * rfc 26 suggests a server-wide key rotated every minute, which is what this class was until issue 35: rotated only
 * when a HELLO or INITIATE arrived and never zeroed, so an idle server kept one key for hours and anyone reading its
 * memory later could open cookies recorded hours before (reproduced). Rotating on time would fix that, but a shared
 * key still lives its whole minute (and the one before it, for cookies minted just before a rotation) whatever the
 * connections do, and dies on time only if something checks the clock: a timer, or a check on every use plus one when
 * idle. A key per connection lives exactly as long as the secret it protects, with nothing to schedule. The minute's
 * purpose in rfc 26, a server that keeps no state between WELCOME and INITIATE, does not apply to us: our server keeps
 * C' and s' in its mechanism between the two anyway, and checks that the cookie holds them, so only the connection
 * that made a cookie ever opens it. libzmq makes its cookie key per connection too. The cost is 32 random bytes per
 * handshake, next to the transient key pair drawn there already.
 *
 * <p>The minute still bounds a cookie: one opened more than {@link #LIFETIME_NANOS} after it was sealed is refused,
 * on the clock given (a seam for tests), whatever the handshake timeout is (it may be off). Whether or not it opens,
 * the first {@link #open} zeroes the key: a cookie comes back once.
 *
 * <p>Zeroing shortens how long the key is in memory; it cannot promise that no copy is left (a JVM moves objects as
 * its collector likes, see docs/security.md). Event-loop confined, like the connection's mechanism.
 *
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ, "The WELCOME Command"</a>
 */
final class CurveCookieKey {
    /** How long after WELCOME a cookie may come back: rfc 26's minute. */
    static final long LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final byte[] key;
    private final LongSupplier nanoClock;
    private long sealedAt;
    private boolean used;

    /**
     * @param key       a new random 32-byte key, which this object now owns (and zeroes)
     * @param nanoClock where the time comes from ({@code System::nanoTime} outside tests)
     */
    CurveCookieKey(byte[] key, LongSupplier nanoClock) {
        this.key = key;
        this.nanoClock = nanoClock;
    }

    /** Seals the cookie's clear text ({@code C'} and {@code s'}) with {@code nonce}; the minute starts now. */
    byte[] seal(byte[] nonce, byte[] plain) {
        if (used) {
            throw new IllegalStateException("cookie key already used");
        }
        sealedAt = nanoClock.getAsLong();
        return CryptoBox.seal(key, nonce, plain);
    }

    /**
     * Opens the cookie box of {@code length} bytes at {@code offset} in {@code box}, and zeroes the key whatever the
     * outcome. Returns the clear text, or null if the box does not open, is older than its minute, or a cookie was
     * opened (or tried) already.
     */
    byte[] open(byte[] nonce, byte[] box, int offset, int length) {
        if (used) {
            return null;
        }
        try {
            if (nanoClock.getAsLong() - sealedAt > LIFETIME_NANOS) {
                return null;
            }
            return CryptoBox.open(key, nonce, box, offset, length);
        } catch (CryptoBox.CryptoException e) {
            return null;
        } finally {
            destroy();
        }
    }

    /** Zeroes the key; the handshake is over, or about to be. Idempotent. */
    void destroy() {
        used = true;
        Arrays.fill(key, (byte) 0);
    }
}
