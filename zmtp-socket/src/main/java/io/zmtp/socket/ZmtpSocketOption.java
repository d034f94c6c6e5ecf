package io.zmtp.socket;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A typed socket option with libzmq's name and default. Set options before {@code bind}/{@code connect}: like
 * libzmq, most take effect for connections made afterwards ({@link #SUBSCRIBE} and {@link #UNSUBSCRIBE} act at once).
 *
 * @param <T> the value type
 */
public final class ZmtpSocketOption<T> {
    /** ZMQ_SNDHWM: messages queued per peer for sending; 0 = unlimited. */
    public static final ZmtpSocketOption<Integer> SNDHWM = intOption("SNDHWM", 1000, 0);
    /** ZMQ_RCVHWM: messages queued per peer for receiving before the socket stops reading it; 0 = unlimited. */
    public static final ZmtpSocketOption<Integer> RCVHWM = intOption("RCVHWM", 1000, 0);
    /**
     * ZMQ_LINGER in ms: how long {@code close()} waits for queued messages to be written to connected peers. -1 (the
     * libzmq 4.3 default) waits until they are, but never longer than the context's linger cap; 0 discards them.
     */
    public static final ZmtpSocketOption<Integer> LINGER = intOption("LINGER", -1, -1);
    /** ZMQ_RECONNECT_IVL in ms: first delay before reconnecting (plus jitter of up to the same again). */
    public static final ZmtpSocketOption<Integer> RECONNECT_IVL = intOption("RECONNECT_IVL", 100, 1);
    /** ZMQ_RECONNECT_IVL_MAX in ms: cap of the exponential back-off; 0 = no back-off (always RECONNECT_IVL). */
    public static final ZmtpSocketOption<Integer> RECONNECT_IVL_MAX = intOption("RECONNECT_IVL_MAX", 0, 0);
    /** ZMQ_ROUTING_ID: the identity this socket announces (0..255 bytes). */
    public static final ZmtpSocketOption<byte[]> ROUTING_ID =
            new ZmtpSocketOption<>("ROUTING_ID", byte[].class, new byte[0], v -> v.length <= 255);
    /** ZMQ_SUBSCRIBE (SUB, XSUB is by message): add a prefix subscription. Write-only; reads give an empty array. */
    public static final ZmtpSocketOption<byte[]> SUBSCRIBE =
            new ZmtpSocketOption<>("SUBSCRIBE", byte[].class, new byte[0], v -> true);
    /** ZMQ_UNSUBSCRIBE (SUB): remove one count of a prefix subscription. Write-only. */
    public static final ZmtpSocketOption<byte[]> UNSUBSCRIBE =
            new ZmtpSocketOption<>("UNSUBSCRIBE", byte[].class, new byte[0], v -> true);
    /** ZMQ_ROUTER_MANDATORY: unroutable messages throw instead of being dropped; a full peer blocks. */
    public static final ZmtpSocketOption<Boolean> ROUTER_MANDATORY = boolOption("ROUTER_MANDATORY");
    /** ZMQ_ROUTER_HANDOVER: a new peer with a routing id in use takes it over (the old one is disconnected). */
    public static final ZmtpSocketOption<Boolean> ROUTER_HANDOVER = boolOption("ROUTER_HANDOVER");
    /** ZMQ_XPUB_VERBOSE: pass every subscription to the application, not only the first for a topic. */
    public static final ZmtpSocketOption<Boolean> XPUB_VERBOSE = boolOption("XPUB_VERBOSE");
    /** ZMQ_XPUB_NODROP: a PUB/XPUB send waits (or {@code trySend} fails) while a matching subscriber is at HWM. */
    public static final ZmtpSocketOption<Boolean> XPUB_NODROP = boolOption("XPUB_NODROP");
    /** ZMQ_IMMEDIATE: queue messages only to connected peers (no queue for a peer that is not up yet). */
    public static final ZmtpSocketOption<Boolean> IMMEDIATE = boolOption("IMMEDIATE");
    /** ZMQ_HEARTBEAT_IVL in ms; 0 = no PINGs. */
    public static final ZmtpSocketOption<Integer> HEARTBEAT_IVL = intOption("HEARTBEAT_IVL", 0, 0);
    /** ZMQ_HEARTBEAT_TTL in ms (sent in deciseconds). */
    public static final ZmtpSocketOption<Integer> HEARTBEAT_TTL = intOption("HEARTBEAT_TTL", 0, 0);
    /** ZMQ_HEARTBEAT_TIMEOUT in ms; -1 = the heartbeat interval. */
    public static final ZmtpSocketOption<Integer> HEARTBEAT_TIMEOUT = intOption("HEARTBEAT_TIMEOUT", -1, -1);
    /**
     * ZMQ_MAXMSGSIZE in bytes; a peer sending a larger message is disconnected. -1 (libzmq's default, "no limit")
     * means the codec's default cap of 64 MiB, so that a hostile size field can't exhaust memory.
     */
    public static final ZmtpSocketOption<Long> MAXMSGSIZE = new ZmtpSocketOption<>("MAXMSGSIZE", Long.class, -1L,
            v -> v == -1 || (v > 0 && v <= Integer.MAX_VALUE - 16));
    /** ZMQ_HANDSHAKE_IVL in ms: time allowed for a connection's handshake; 0 = no limit. */
    public static final ZmtpSocketOption<Integer> HANDSHAKE_IVL = intOption("HANDSHAKE_IVL", 30_000, 0);

    /**
     * What a send does when a peer's queue is at SNDHWM: wait, fail, drop the new message or the oldest queued one
     * ({@link ZmtpOverflowPolicy}). Not in libzmq, whose behaviour per type is the default
     * ({@link ZmtpOverflowPolicy#DEFAULT}). Read at each send, so it may change while the socket runs.
     */
    public static final ZmtpSocketOption<ZmtpOverflowPolicy> OVERFLOW = new ZmtpSocketOption<>("OVERFLOW",
            ZmtpOverflowPolicy.class, ZmtpOverflowPolicy.DEFAULT, v -> true);

    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final Predicate<T> validator;

    private ZmtpSocketOption(String name, Class<T> type, T defaultValue, Predicate<T> validator) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.validator = validator;
    }

    private static ZmtpSocketOption<Integer> intOption(String name, int defaultValue, int min) {
        return new ZmtpSocketOption<>(name, Integer.class, defaultValue, v -> v >= min);
    }

    private static ZmtpSocketOption<Boolean> boolOption(String name) {
        return new ZmtpSocketOption<>(name, Boolean.class, false, v -> true);
    }

    public String name() {
        return name;
    }

    public Class<T> type() {
        return type;
    }

    /** libzmq's default. */
    public T defaultValue() {
        return defaultValue instanceof byte[] ? type.cast(((byte[]) defaultValue).clone()) : defaultValue;
    }

    /** Checks {@code value}; throws {@link IllegalArgumentException} naming the value and the option. */
    public T validate(T value) {
        Objects.requireNonNull(value, name);
        if (!validator.test(value)) {
            throw new IllegalArgumentException(name + ": " + describe(value) + " is out of range");
        }
        return value instanceof byte[] ? type.cast(((byte[]) value).clone()) : value;
    }

    private static String describe(Object value) {
        return value instanceof byte[]
                ? new String((byte[]) value, StandardCharsets.ISO_8859_1)
                : String.valueOf(value);
    }

    @Override
    public String toString() {
        return "ZMQ_" + name;
    }
}
