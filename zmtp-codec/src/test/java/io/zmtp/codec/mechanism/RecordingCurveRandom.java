package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.CurveKeyPair;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Real randomness that keeps every secret array it hands out (transient secrets, cookie keys), so a test can look at
 * them after the mechanism should have zeroed them; and mechanism factories that draw from it, for tests outside this
 * package that run the handshake through the handler. Public for those tests only (test scope).
 */
public final class RecordingCurveRandom implements CurveRandom {
    private final SecureRandom random = new SecureRandom();
    private final List<byte[]> transientSecrets = new ArrayList<>();
    private final List<byte[]> cookieKeys = new ArrayList<>();

    @Override
    public byte[] transientSecretKey() {
        byte[] k = SECURE.transientSecretKey();
        transientSecrets.add(k);
        return k;
    }

    @Override
    public byte[] longNonce() {
        byte[] n = new byte[16];
        random.nextBytes(n);
        return n;
    }

    @Override
    public byte[] cookieKey() {
        byte[] k = new byte[32];
        random.nextBytes(k);
        cookieKeys.add(k);
        return k;
    }

    /** Every transient secret handed out so far, as the mechanisms hold them. */
    public List<byte[]> transientSecrets() {
        return transientSecrets;
    }

    /** Every cookie key handed out so far, as the mechanisms hold them. */
    public List<byte[]> cookieKeys() {
        return cookieKeys;
    }

    /** Both lists together. */
    public List<byte[]> secrets() {
        List<byte[]> all = new ArrayList<>(transientSecrets);
        all.addAll(cookieKeys);
        return all;
    }

    /** A CURVE server drawing from this, on {@code nanoClock}. */
    public ZmtpMechanismFactory server(CurveKeyPair keys, LongSupplier nanoClock) {
        return new ZmtpMechanismFactory() {
            @Override
            public String name() {
                return CurveMechanism.NAME;
            }

            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                return new CurveServerMechanism(keys, nanoClock, localMetadata, RecordingCurveRandom.this);
            }
        };
    }

    /** A CURVE client drawing from this. */
    public ZmtpMechanismFactory client(CurveKeyPair keys, byte[] serverKey) {
        return new ZmtpMechanismFactory() {
            @Override
            public String name() {
                return CurveMechanism.NAME;
            }

            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                return new CurveClientMechanism(keys, serverKey, localMetadata, RecordingCurveRandom.this);
            }
        };
    }
}
