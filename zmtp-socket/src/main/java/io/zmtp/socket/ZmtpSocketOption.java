package io.zmtp.socket;

import io.netty.handler.ssl.SslContext;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.ZmtpAuthenticator;

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
     * ZMQ_SNDBUF in bytes: each connection's kernel send buffer (SO_SNDBUF); -1 = the OS default (Linux doubles what
     * it is given and caps it at {@code net.core.wmem_max}). Unix domain sockets (ipc) gain from a larger one.
     */
    public static final ZmtpSocketOption<Integer> SNDBUF = intOption("SNDBUF", -1, -1);
    /** ZMQ_RCVBUF in bytes: each connection's kernel receive buffer (SO_RCVBUF); -1 = the OS default. */
    public static final ZmtpSocketOption<Integer> RCVBUF = intOption("RCVBUF", -1, -1);
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

    // Security (docs/security.md). One mechanism per socket: CURVE if CURVE_SERVER or CURVE_SERVERKEY is set, else
    // PLAIN if PLAIN_SERVER or PLAIN_USERNAME is, else NULL. Over inproc:// there is no mechanism, as in libzmq.

    /** ZMQ_PLAIN_SERVER: this socket is a PLAIN server; clients are checked by {@link #AUTHENTICATOR} or ZAP. */
    public static final ZmtpSocketOption<Boolean> PLAIN_SERVER = boolOption("PLAIN_SERVER");
    /** ZMQ_PLAIN_USERNAME: this socket is a PLAIN client with this username (UTF-8, at most 255 bytes). */
    public static final ZmtpSocketOption<String> PLAIN_USERNAME = stringOption("PLAIN_USERNAME");
    /** ZMQ_PLAIN_PASSWORD: the PLAIN client's password (UTF-8, at most 255 bytes). */
    public static final ZmtpSocketOption<String> PLAIN_PASSWORD = stringOption("PLAIN_PASSWORD");
    /** ZMQ_CURVE_SERVER: this socket is a CURVE server; it needs {@link #CURVE_SECRETKEY}. */
    public static final ZmtpSocketOption<Boolean> CURVE_SERVER = boolOption("CURVE_SERVER");
    /**
     * ZMQ_CURVE_PUBLICKEY: this socket's long-term public key (32 bytes; {@code Z85.decode} turns the 40-character
     * form into them). Optional: it is derived from {@link #CURVE_SECRETKEY}; if set, it must be that key's.
     */
    public static final ZmtpSocketOption<byte[]> CURVE_PUBLICKEY = keyOption("CURVE_PUBLICKEY");
    /** ZMQ_CURVE_SECRETKEY: this socket's long-term secret key (32 bytes). Write-only; reads give an empty array. */
    public static final ZmtpSocketOption<byte[]> CURVE_SECRETKEY = keyOption("CURVE_SECRETKEY");
    /** ZMQ_CURVE_SERVERKEY: this socket is a CURVE client of the server with this public key (32 bytes). */
    public static final ZmtpSocketOption<byte[]> CURVE_SERVERKEY = keyOption("CURVE_SERVERKEY");
    /** ZMQ_ZAP_DOMAIN: the domain the authenticator (or ZAP handler) is told; with NULL, setting one asks ZAP. */
    public static final ZmtpSocketOption<String> ZAP_DOMAIN = new ZmtpSocketOption<>("ZAP_DOMAIN", String.class, "",
            v -> v.length() <= 255);
    /**
     * Decides whether peers may connect (not in libzmq, whose ZAP handler this replaces): asked by PLAIN and CURVE
     * servers, and by NULL sockets. {@code null} (the default) uses the context's ZAP handler bound at
     * {@code inproc://zeromq.zap.01} if there is one, else libzmq's behaviour without one: PLAIN servers refuse every
     * client, CURVE servers accept any client key.
     */
    public static final ZmtpSocketOption<ZmtpAuthenticator> AUTHENTICATOR =
            new ZmtpSocketOption<>("AUTHENTICATOR", ZmtpAuthenticator.class, null, v -> true);

    /**
     * What a send does when a peer's queue is at SNDHWM: wait, fail, drop the new message or the oldest queued one
     * ({@link ZmtpOverflowPolicy}). Not in libzmq, whose behaviour per type is the default
     * ({@link ZmtpOverflowPolicy#DEFAULT}). Read at each send, so it may change while the socket runs.
     */
    public static final ZmtpSocketOption<ZmtpOverflowPolicy> OVERFLOW = new ZmtpSocketOption<>("OVERFLOW",
            ZmtpOverflowPolicy.class, ZmtpOverflowPolicy.DEFAULT, v -> true);

    /**
     * Bytes of subscriptions a PUB or XPUB holds for one peer: each distinct topic counts its length plus 256 bytes
     * (what storing it costs, measured at about 170 and rounded up), once however often it is subscribed; a CANCEL
     * gives that back. A SUBSCRIBE that would pass it disconnects the peer, with a logged reason and a
     * {@code PROTOCOL_ERROR} monitor event saying what was exceeded; other peers are not affected. -1 = no limit.
     * Not in libzmq, which has no limit. The default, 64 MiB, is MAXMSGSIZE's default: a peer can hold at most as
     * much in subscriptions as in one message. Read when a connection is made.
     */
    public static final ZmtpSocketOption<Long> MAX_SUBSCRIPTION_BYTES = new ZmtpSocketOption<>(
            "MAX_SUBSCRIPTION_BYTES", Long.class, 64L << 20, v -> v == -1 || v > 0);

    /**
     * The TLS server context (certificate chain and private key) of this socket's {@code wss://} listeners; not in
     * libzmq, whose wss takes PEM files through ZMQ_WSS_CERT_PEM and ZMQ_WSS_KEY_PEM. Required to bind wss://: a
     * bind without one fails with {@link ZmtpSocketException.EndpointFailed}. Must be a server context
     * ({@code SslContextBuilder.forServer(...)}). Read when bind is called.
     */
    public static final ZmtpSocketOption<SslContext> WSS_SERVER_CONTEXT = new ZmtpSocketOption<>(
            "WSS_SERVER_CONTEXT", SslContext.class, null, SslContext::isServer);

    /**
     * The TLS client context of this socket's {@code wss://} connections; not in libzmq, whose ZMQ_WSS_TRUST_PEM
     * names one CA certificate. Must be a client context ({@code SslContextBuilder.forClient()}). {@code null} (the
     * default) uses a context that trusts the JDK's default CA certificates and checks that the server's
     * certificate names the host connected to (HTTPS's identification): what a browser does, so that a wss://
     * connection is authenticated unless the application says otherwise, rather than encrypted to whoever answers
     * (libzmq's draft wss options likewise verify the server, against a trust PEM or the system's CAs). A
     * self-signed server needs a context that trusts its certificate. Read when connect is called.
     */
    public static final ZmtpSocketOption<SslContext> WSS_CLIENT_CONTEXT = new ZmtpSocketOption<>(
            "WSS_CLIENT_CONTEXT", SslContext.class, null, SslContext::isClient);

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

    private static ZmtpSocketOption<String> stringOption(String name) {
        return new ZmtpSocketOption<>(name, String.class, "",
                v -> v.getBytes(StandardCharsets.UTF_8).length <= 255);
    }

    private static ZmtpSocketOption<byte[]> keyOption(String name) {
        return new ZmtpSocketOption<>(name, byte[].class, new byte[0],
                v -> v.length == 0 || v.length == CurveKeyPair.KEY_LENGTH);
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
        if (value == null && defaultValue == null) {
            return null;
        }
        Objects.requireNonNull(value, name);
        if (!validator.test(value)) {
            throw new IllegalArgumentException(name + ": " + describe(value) + " is out of range");
        }
        return value instanceof byte[] ? type.cast(((byte[]) value).clone()) : value;
    }

    private String describe(Object value) {
        if (name.contains("KEY") || name.contains("PASSWORD")) {
            // Never a secret in an exception message (or the log it ends up in).
            return value instanceof byte[] ? ((byte[]) value).length + " bytes" : "(hidden)";
        }
        return value instanceof byte[]
                ? new String((byte[]) value, StandardCharsets.ISO_8859_1)
                : String.valueOf(value);
    }

    @Override
    public String toString() {
        return "ZMQ_" + name;
    }
}
