package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A socket's option values, and the codec configuration they make for each new connection. Thread-safe: options may
 * be set from any thread; a change applies to connections made (bind, connect) after it, as in libzmq.
 */
final class SocketOptions {
    private final Map<ZmtpSocketOption<?>, Object> values = new ConcurrentHashMap<>();

    /** Stores a value already validated by {@link ZmtpSocketOption#validate}. */
    <T> void set(ZmtpSocketOption<T> option, T value) {
        values.put(option, value);
    }

    /** The value for the application: byte arrays are copied, so the caller can't change the socket's. */
    @SuppressWarnings("unchecked")
    <T> T get(ZmtpSocketOption<T> option) {
        T v = value(option);
        return v instanceof byte[] ? (T) ((byte[]) v).clone() : v;
    }

    /** The value for the socket itself (not copied). */
    @SuppressWarnings("unchecked")
    <T> T value(ZmtpSocketOption<T> option) {
        Object v = values.get(option);
        return v == null ? option.defaultValue() : (T) v;
    }

    /** The codec configuration of a connection made now by a socket of {@code type}. */
    ZmtpConfig zmtpConfig(ZmtpSocketType type) {
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
        return b.build();
    }
}
