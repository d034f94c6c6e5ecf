package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmqOption;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A socket's option values, and the codec configuration they make for each new connection. Thread-safe: options may
 * be set from any thread; a change applies to connections made (bind, connect) after it, as in libzmq.
 */
final class SocketOptions {
    private final Map<ZmqOption<?>, Object> values = new ConcurrentHashMap<>();

    /** Stores a value already validated by {@link ZmqOption#validate}. */
    <T> void set(ZmqOption<T> option, T value) {
        values.put(option, value);
    }

    /** The value for the application: byte arrays are copied, so the caller can't change the socket's. */
    @SuppressWarnings("unchecked")
    <T> T get(ZmqOption<T> option) {
        T v = value(option);
        return v instanceof byte[] ? (T) ((byte[]) v).clone() : v;
    }

    /** The value for the socket itself (not copied). */
    @SuppressWarnings("unchecked")
    <T> T value(ZmqOption<T> option) {
        Object v = values.get(option);
        return v == null ? option.defaultValue() : (T) v;
    }

    /** The codec configuration of a connection made now by a socket of {@code type}. */
    ZmtpConfig zmtpConfig(ZmtpSocketType type) {
        ZmtpConfig.Builder b = ZmtpConfig.builder(type)
                .identity(value(ZmqOption.ROUTING_ID))
                .handshakeTimeoutMillis(value(ZmqOption.HANDSHAKE_IVL))
                .heartbeatIntervalMillis(value(ZmqOption.HEARTBEAT_IVL))
                // The TTL travels in deciseconds in a 16-bit field.
                .heartbeatTtlMillis(Math.min(6_553_500, value(ZmqOption.HEARTBEAT_TTL)));
        int hbTimeout = value(ZmqOption.HEARTBEAT_TIMEOUT);
        if (hbTimeout >= 0) {
            b.heartbeatTimeoutMillis(hbTimeout);
        }
        long max = value(ZmqOption.MAXMSGSIZE);
        b.maxMessageSize(max < 0 ? ZmtpConstants.DEFAULT_MAX_MESSAGE_SIZE : max);
        return b.build();
    }
}
