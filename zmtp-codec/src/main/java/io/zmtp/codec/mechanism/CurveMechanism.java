package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.CurveKeyPair;

import java.util.Objects;

/**
 * The CURVE mechanism (rfc 25 with rfc 26, CurveZMQ): the client proves it knows the server's public key, the
 * server learns the client's permanent public key (which its authenticator may check), and every frame after the
 * handshake is encrypted and authenticated with keys that are new for each connection (perfect forward secrecy).
 *
 * <pre>{@code
 * CurveKeyPair serverKeys = CurveKeyPair.generate();      // or CurveKeyPair.fromZ85(public, secret)
 * ZmtpConfig server = ZmtpConfig.builder(ZmtpSocketType.ROUTER)
 *         .mechanism(CurveMechanism.server(serverKeys)).build();
 * ZmtpConfig client = ZmtpConfig.builder(ZmtpSocketType.DEALER)
 *         .mechanism(CurveMechanism.client(CurveKeyPair.generate(), serverKeys.publicKey())).build();
 * }</pre>
 *
 * <p>Crypto is Bouncy Castle's X25519, Salsa20 and Poly1305 composed into NaCl's {@code crypto_box}; each connection
 * precomputes its shared key once. Interoperates with libzmq (libsodium) and JeroMQ, including libzmq's ways:
 * MESSAGE in plain frames, commands (PING, SUBSCRIBE) inside MESSAGE, as-server 0 in its greetings.
 *
 * <p>A server with no authenticator accepts any client key, as libzmq does without a ZAP handler: the connection is
 * encrypted but the client is anyone. Configure an authenticator to allow only known keys.
 *
 * @see <a href="https://rfc.zeromq.org/spec/25/">25/ZMTP-CURVE</a>
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ</a>
 */
public final class CurveMechanism {
    public static final String NAME = "CURVE";

    private CurveMechanism() {
    }

    /**
     * The client side.
     *
     * @param keys            this client's permanent key pair, which the server's authenticator sees
     * @param serverPublicKey the server's permanent public key (32 bytes)
     */
    public static ZmtpMechanismFactory client(CurveKeyPair keys, byte[] serverPublicKey) {
        Objects.requireNonNull(keys, "keys");
        byte[] serverKey = CurveKeyPair.checkKey(serverPublicKey, "server public key").clone();
        return new Factory("client " + keys.publicKeyZ85()) {
            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                return new CurveClientMechanism(keys, serverKey, localMetadata, CurveRandom.SECURE);
            }
        };
    }

    /** The client side, with the server's public key in Z85 (40 characters). */
    public static ZmtpMechanismFactory client(CurveKeyPair keys, String serverPublicKeyZ85) {
        return client(keys, CurveKeyPair.decodeKey(serverPublicKeyZ85, "server public key"));
    }

    /**
     * The server side. Each connection seals its cookie with a key of its own, zeroed once the cookie came back or
     * the handshake ended ({@link CurveCookieKey} says why), so the factory holds nothing but the key pair.
     *
     * @param keys the server's permanent key pair; clients must know its public key
     */
    public static ZmtpMechanismFactory server(CurveKeyPair keys) {
        Objects.requireNonNull(keys, "keys");
        return new Factory("server " + keys.publicKeyZ85()) {
            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                return new CurveServerMechanism(keys, System::nanoTime, localMetadata, CurveRandom.SECURE);
            }
        };
    }

    private abstract static class Factory implements ZmtpMechanismFactory {
        private final String role;

        Factory(String role) {
            this.role = role;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String toString() {
            return NAME + " " + role;
        }
    }
}
