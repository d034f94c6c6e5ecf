package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.PlainMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanismFactory;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.ZmtpAuthenticator;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.Arrays;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A socket's option values, and the codec configuration they make for each new connection. Thread-safe: options may
 * be set from any thread; a change applies to connections made (bind, connect) after it, as in libzmq.
 */
final class SocketOptions {
    private final Map<ZmtpSocketOption<?>, Object> values = new ConcurrentHashMap<>();

    /** Stores a value already validated by {@link ZmtpSocketOption#validate}; null (AUTHENTICATOR) unsets it. */
    <T> void set(ZmtpSocketOption<T> option, T value) {
        if (value == null) {
            values.remove(option);
        } else {
            values.put(option, value);
        }
    }

    /** The value for the application: byte arrays are copied, so the caller can't change the socket's. */
    @SuppressWarnings("unchecked")
    <T> T get(ZmtpSocketOption<T> option) {
        if (option == ZmtpSocketOption.CURVE_SECRETKEY) {
            // Write-only, so a secret can't be read back out of a socket handed around.
            return (T) new byte[0];
        }
        T v = value(option);
        return v instanceof byte[] ? (T) ((byte[]) v).clone() : v;
    }

    /** The value for the socket itself (not copied). */
    @SuppressWarnings("unchecked")
    <T> T value(ZmtpSocketOption<T> option) {
        Object v = values.get(option);
        return v == null ? option.defaultValue() : (T) v;
    }

    /**
     * The codec configuration of a connection made now by a socket of {@code type}; {@code zap} checks its peers
     * unless the AUTHENTICATOR option is set.
     */
    ZmtpConfig zmtpConfig(ZmtpSocketType type, ZmtpAuthenticator zap) {
        ZmtpConfig.Builder b = ZmtpConfig.builder(type)
                .identity(value(ZmtpSocketOption.ROUTING_ID))
                .handshakeTimeoutMillis(value(ZmtpSocketOption.HANDSHAKE_IVL))
                .heartbeatIntervalMillis(value(ZmtpSocketOption.HEARTBEAT_IVL))
                // The TTL travels in deciseconds in a 16-bit field.
                .heartbeatTtlMillis(Math.min(6_553_500, value(ZmtpSocketOption.HEARTBEAT_TTL)));
        int hbTimeout = value(ZmtpSocketOption.HEARTBEAT_TIMEOUT);
        if (hbTimeout >= 0) {
            b.heartbeatTimeoutMillis(hbTimeout);
        }
        long max = value(ZmtpSocketOption.MAXMSGSIZE);
        b.maxMessageSize(max < 0 ? ZmtpConstants.DEFAULT_MAX_MESSAGE_SIZE : max);
        b.mechanism(mechanism());
        b.zapDomain(value(ZmtpSocketOption.ZAP_DOMAIN));
        ZmtpAuthenticator authenticator = value(ZmtpSocketOption.AUTHENTICATOR);
        b.authenticator(authenticator != null ? authenticator : zap);
        return b.build();
    }

    /**
     * The mechanism the security options ask for: CURVE if CURVE_SERVER or CURVE_SERVERKEY is set, else PLAIN if
     * PLAIN_SERVER or PLAIN_USERNAME is, else NULL.
     *
     * @throws ZmtpSocketException.IllegalState if CURVE lacks a key
     */
    private ZmtpMechanismFactory mechanism() {
        byte[] serverKey = value(ZmtpSocketOption.CURVE_SERVERKEY);
        if (value(ZmtpSocketOption.CURVE_SERVER) || serverKey.length > 0) {
            CurveKeyPair keys = curveKeys(value(ZmtpSocketOption.CURVE_SERVER));
            return value(ZmtpSocketOption.CURVE_SERVER) ? CurveMechanism.server(keys)
                    : CurveMechanism.client(keys, serverKey);
        }
        if (value(ZmtpSocketOption.PLAIN_SERVER)) {
            return PlainMechanism.server();
        }
        if (!value(ZmtpSocketOption.PLAIN_USERNAME).isEmpty()) {
            return PlainMechanism.client(value(ZmtpSocketOption.PLAIN_USERNAME),
                    value(ZmtpSocketOption.PLAIN_PASSWORD));
        }
        return NullMechanism.factory();
    }

    private CurveKeyPair curveKeys(boolean server) {
        byte[] secret = value(ZmtpSocketOption.CURVE_SECRETKEY);
        if (secret.length == 0) {
            throw new ZmtpSocketException.IllegalState((server ? "CURVE_SERVER" : "CURVE_SERVERKEY")
                    + " is set but CURVE_SECRETKEY is not: a CURVE " + (server ? "server" : "client")
                    + " needs its own key pair (zmtp keygen makes one)");
        }
        CurveKeyPair keys = CurveKeyPair.fromSecretKey(secret);
        byte[] pub = value(ZmtpSocketOption.CURVE_PUBLICKEY);
        if (pub.length > 0 && !Arrays.equals(pub, keys.publicKey())) {
            throw new ZmtpSocketException.IllegalState("CURVE_PUBLICKEY is not CURVE_SECRETKEY's public key");
        }
        return keys;
    }
}
