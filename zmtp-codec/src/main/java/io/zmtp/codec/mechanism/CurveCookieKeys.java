package io.zmtp.codec.mechanism;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * The cookie key a CURVE server seals its cookies with (rfc 26: "the server SHOULD rotate its cookie key every
 * minute"), shared by the connections of one server configuration. A cookie is minted in WELCOME and checked in the
 * client's INITIATE, so the key before the current one is still accepted: a cookie lives one to two minutes.
 *
 * <p>Thread-safe without a lock: the keys are an immutable pair in an {@link AtomicReference}; whichever connection
 * finds the current key too old replaces the pair (a lost race just means another connection rotated it first).
 */
final class CurveCookieKeys {
    static final long ROTATION_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final CurveRandom random;
    private final LongSupplier nanoClock;
    private final long rotationNanos;
    private final AtomicReference<Keys> keys;

    CurveCookieKeys(CurveRandom random, LongSupplier nanoClock, long rotationNanos) {
        this.random = random;
        this.nanoClock = nanoClock;
        this.rotationNanos = rotationNanos;
        this.keys = new AtomicReference<>(new Keys(random.cookieKey(), null, nanoClock.getAsLong()));
    }

    CurveCookieKeys() {
        this(CurveRandom.SECURE, System::nanoTime, ROTATION_NANOS);
    }

    /** The key to seal a new cookie with, rotated first if it is due. */
    byte[] current() {
        Keys k = keys.get();
        long now = nanoClock.getAsLong();
        if (now - k.since >= rotationNanos) {
            Keys rotated = new Keys(random.cookieKey(), k.current, now);
            k = keys.compareAndSet(k, rotated) ? rotated : keys.get();
        }
        return k.current;
    }

    /** The key before the current one, for a cookie minted just before a rotation; null if there is none yet. */
    byte[] previous() {
        return keys.get().previous;
    }

    private static final class Keys {
        final byte[] current;
        final byte[] previous;
        final long since;

        Keys(byte[] current, byte[] previous, long since) {
            this.current = current;
            this.previous = previous;
            this.since = since;
        }
    }
}
