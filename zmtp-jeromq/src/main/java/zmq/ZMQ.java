package zmq;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * JeroMQ's {@code zmq.ZMQ} constants, with their JeroMQ values, for applications that pass them to
 * {@code Socket.base().getSocketOpt(int)} and its siblings or compare events and flags with them; and its sleep and
 * stopwatch helpers.
 *
 * <p>JeroMQ's static functions on its internal types ({@code bind(SocketBase, ...)}, {@code send(SocketBase, Msg,
 * ...)}, {@code poll(Selector, PollItem[], ...)}, {@code proxy(SocketBase, ...)}, context options...) are absent:
 * {@link org.zeromq.ZMQ} has each of them on {@link org.zeromq.ZMQ.Socket} and {@link org.zeromq.ZMQ.Context}. So
 * are the defaults whose types are JeroMQ's internals (message allocator, mechanism, selector chooser, hello,
 * hiccup and disconnect messages).
 */
public final class ZMQ {
    private static final int CUSTOM_OPTION = 1000;

    // ---- version: the libzmq version JeroMQ 0.6.0 reports

    public static final int ZMQ_VERSION_MAJOR = 4;
    public static final int ZMQ_VERSION_MINOR = 1;
    public static final int ZMQ_VERSION_PATCH = 7;

    // ---- context options

    public static final int ZMQ_IO_THREADS = 1;
    public static final int ZMQ_MAX_SOCKETS = 2;
    public static final int ZMQ_IO_THREADS_DFLT = 1;
    public static final int ZMQ_MAX_SOCKETS_DFLT = 1024;

    // ---- socket types (JeroMQ's numbers; CHANNEL is 16 here, 20 in libzmq)

    public static final int ZMQ_PAIR = 0;
    public static final int ZMQ_PUB = 1;
    public static final int ZMQ_SUB = 2;
    public static final int ZMQ_REQ = 3;
    public static final int ZMQ_REP = 4;
    public static final int ZMQ_DEALER = 5;
    public static final int ZMQ_ROUTER = 6;
    public static final int ZMQ_PULL = 7;
    public static final int ZMQ_PUSH = 8;
    public static final int ZMQ_XPUB = 9;
    public static final int ZMQ_XSUB = 10;
    public static final int ZMQ_STREAM = 11;
    public static final int ZMQ_SERVER = 12;
    public static final int ZMQ_CLIENT = 13;
    public static final int ZMQ_RADIO = 14;
    public static final int ZMQ_DISH = 15;
    public static final int ZMQ_CHANNEL = 16;
    public static final int ZMQ_PEER = 17;
    public static final int ZMQ_RAW = 18;
    public static final int ZMQ_SCATTER = 19;
    public static final int ZMQ_GATHER = 20;
    /** The old name of DEALER. */
    public static final int ZMQ_XREQ = ZMQ_DEALER;
    /** The old name of ROUTER. */
    public static final int ZMQ_XREP = ZMQ_ROUTER;

    // ---- socket options

    public static final int ZMQ_AFFINITY = 4;
    public static final int ZMQ_IDENTITY = 5;
    public static final int ZMQ_SUBSCRIBE = 6;
    public static final int ZMQ_UNSUBSCRIBE = 7;
    public static final int ZMQ_RATE = 8;
    public static final int ZMQ_RECOVERY_IVL = 9;
    public static final int ZMQ_SNDBUF = 11;
    public static final int ZMQ_RCVBUF = 12;
    public static final int ZMQ_RCVMORE = 13;
    public static final int ZMQ_FD = 14;
    public static final int ZMQ_EVENTS = 15;
    public static final int ZMQ_TYPE = 16;
    public static final int ZMQ_LINGER = 17;
    public static final int ZMQ_RECONNECT_IVL = 18;
    public static final int ZMQ_BACKLOG = 19;
    public static final int ZMQ_RECONNECT_IVL_MAX = 21;
    public static final int ZMQ_MAXMSGSIZE = 22;
    public static final int ZMQ_SNDHWM = 23;
    public static final int ZMQ_RCVHWM = 24;
    public static final int ZMQ_MULTICAST_HOPS = 25;
    public static final int ZMQ_RCVTIMEO = 27;
    public static final int ZMQ_SNDTIMEO = 28;
    public static final int ZMQ_IPV4ONLY = 31;
    public static final int ZMQ_LAST_ENDPOINT = 32;
    public static final int ZMQ_ROUTER_MANDATORY = 33;
    public static final int ZMQ_TCP_KEEPALIVE = 34;
    public static final int ZMQ_TCP_KEEPALIVE_CNT = 35;
    public static final int ZMQ_TCP_KEEPALIVE_IDLE = 36;
    public static final int ZMQ_TCP_KEEPALIVE_INTVL = 37;
    public static final int ZMQ_TCP_ACCEPT_FILTER = 38;
    /** The inverse of {@link #ZMQ_IMMEDIATE}, under libzmq's number. */
    public static final int ZMQ_DELAY_ATTACH_ON_CONNECT = 39;
    /** JeroMQ's own number: 39 is {@link #ZMQ_DELAY_ATTACH_ON_CONNECT}. */
    public static final int ZMQ_IMMEDIATE = 39 + CUSTOM_OPTION;
    public static final int ZMQ_XPUB_VERBOSE = 40;
    public static final int ZMQ_ROUTER_RAW = 41;
    public static final int ZMQ_IPV6 = 42;
    public static final int ZMQ_MECHANISM = 43;
    public static final int ZMQ_PLAIN_SERVER = 44;
    public static final int ZMQ_PLAIN_USERNAME = 45;
    public static final int ZMQ_PLAIN_PASSWORD = 46;
    public static final int ZMQ_CURVE_SERVER = 47;
    public static final int ZMQ_CURVE_PUBLICKEY = 48;
    public static final int ZMQ_CURVE_SECRETKEY = 49;
    public static final int ZMQ_CURVE_SERVERKEY = 50;
    public static final int ZMQ_PROBE_ROUTER = 51;
    public static final int ZMQ_REQ_CORRELATE = 52;
    public static final int ZMQ_REQ_RELAXED = 53;
    public static final int ZMQ_CONFLATE = 54;
    public static final int ZMQ_ZAP_DOMAIN = 55;
    public static final int ZMQ_ROUTER_HANDOVER = 56;
    public static final int ZMQ_TOS = 57;
    public static final int ZMQ_CONNECT_RID = 61;
    public static final int ZMQ_GSSAPI_SERVER = 62;
    public static final int ZMQ_GSSAPI_PRINCIPAL = 63;
    public static final int ZMQ_GSSAPI_SERVICE_PRINCIPAL = 64;
    public static final int ZMQ_GSSAPI_PLAINTEXT = 65;
    public static final int ZMQ_HANDSHAKE_IVL = 66;
    public static final int ZMQ_SOCKS_PROXY = 67;
    public static final int ZMQ_XPUB_NODROP = 69;
    public static final int ZMQ_BLOCKY = 70;
    public static final int ZMQ_XPUB_MANUAL = 71;
    public static final int ZMQ_HEARTBEAT_IVL = 75;
    public static final int ZMQ_HEARTBEAT_TTL = 76;
    public static final int ZMQ_HEARTBEAT_TIMEOUT = 77;
    public static final int ZMQ_XPUB_VERBOSER = 78;
    /** Another name of {@link #ZMQ_XPUB_VERBOSER}. */
    public static final int ZMQ_XPUB_VERBOSE_UNSUBSCRIBE = 78;
    public static final int ZMQ_HELLO_MSG = 79;
    public static final int ZMQ_AS_TYPE = 80;
    public static final int ZMQ_DISCONNECT_MSG = 81;
    public static final int ZMQ_HICCUP_MSG = 82;
    public static final int ZMQ_SELFADDR_PROPERTY_NAME = 83;
    public static final int ZMQ_ENCODER = CUSTOM_OPTION + 1;
    public static final int ZMQ_DECODER = CUSTOM_OPTION + 2;
    public static final int ZMQ_MSG_ALLOCATOR = CUSTOM_OPTION + 3;
    public static final int ZMQ_MSG_ALLOCATION_HEAP_THRESHOLD = CUSTOM_OPTION + 4;
    public static final int ZMQ_HEARTBEAT_CONTEXT = CUSTOM_OPTION + 5;
    public static final int ZMQ_SELECTOR_PROVIDERCHOOSER = CUSTOM_OPTION + 6;
    /** Old names of {@link #ZMQ_ROUTER_MANDATORY}. */
    public static final int ZMQ_FAIL_UNROUTABLE = ZMQ_ROUTER_MANDATORY;
    public static final int ZMQ_ROUTER_BEHAVIOR = ZMQ_ROUTER_MANDATORY;

    // ---- message option, send and receive flags

    public static final int ZMQ_MORE = 1;
    public static final int ZMQ_DONTWAIT = 1;
    public static final int ZMQ_SNDMORE = 2;
    public static final int ZMQ_NOBLOCK = ZMQ_DONTWAIT;

    // ---- monitor events (libzmq's bits)

    public static final int ZMQ_EVENT_CONNECTED = 1;
    public static final int ZMQ_EVENT_CONNECT_DELAYED = 1 << 1;
    public static final int ZMQ_EVENT_CONNECT_RETRIED = 1 << 2;
    public static final int ZMQ_EVENT_LISTENING = 1 << 3;
    public static final int ZMQ_EVENT_BIND_FAILED = 1 << 4;
    public static final int ZMQ_EVENT_ACCEPTED = 1 << 5;
    public static final int ZMQ_EVENT_ACCEPT_FAILED = 1 << 6;
    public static final int ZMQ_EVENT_CLOSED = 1 << 7;
    public static final int ZMQ_EVENT_CLOSE_FAILED = 1 << 8;
    public static final int ZMQ_EVENT_DISCONNECTED = 1 << 9;
    public static final int ZMQ_EVENT_MONITOR_STOPPED = 1 << 10;
    public static final int ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL = 1 << 11;
    public static final int ZMQ_EVENT_HANDSHAKE_SUCCEEDED = 1 << 12;
    public static final int ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL = 1 << 13;
    public static final int ZMQ_EVENT_HANDSHAKE_FAILED_AUTH = 1 << 14;
    /** JeroMQ's own event (the ZMTP version agreed); netty-zmtp never sends it. */
    public static final int ZMQ_EVENT_HANDSHAKE_PROTOCOL = 1 << 15;
    public static final int ZMQ_EVENT_ALL = 0xffff;

    // ---- the values of ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL (libzmq's)

    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_UNSPECIFIED = 0x10000000;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND = 0x10000001;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_SEQUENCE = 0x10000002;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_KEY_EXCHANGE = 0x10000003;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_UNSPECIFIED = 0x10000011;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_MESSAGE = 0x10000012;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO = 0x10000013;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_INITIATE = 0x10000014;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR = 0x10000015;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_READY = 0x10000016;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME = 0x10000017;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA = 0x10000018;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC = 0x11000001;
    public static final int ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH = 0x11000002;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_UNSPECIFIED = 0x20000000;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_MALFORMED_REPLY = 0x20000001;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_BAD_REQUEST_ID = 0x20000002;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_BAD_VERSION = 0x20000003;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_INVALID_STATUS_CODE = 0x20000004;
    public static final int ZMQ_PROTOCOL_ERROR_ZAP_INVALID_METADATA = 0x20000005;
    public static final int ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED = 0x30000000;

    // ---- polling and devices

    public static final int ZMQ_POLLIN = 1;
    public static final int ZMQ_POLLOUT = 2;
    public static final int ZMQ_POLLERR = 4;
    public static final int ZMQ_STREAMER = 1;
    public static final int ZMQ_FORWARDER = 2;
    public static final int ZMQ_QUEUE = 3;

    // ---- frames and text

    /** The empty frame between a routing envelope and the body. Don't write into it. */
    public static final byte[] MESSAGE_SEPARATOR = new byte[0];
    /** The subscription to every message. Don't write into it. */
    public static final byte[] SUBSCRIPTION_ALL = new byte[0];
    public static final Charset CHARSET = StandardCharsets.UTF_8;
    public static final byte[] PROXY_PAUSE = "PAUSE".getBytes(CHARSET);
    public static final byte[] PROXY_RESUME = "RESUME".getBytes(CHARSET);
    public static final byte[] PROXY_TERMINATE = "TERMINATE".getBytes(CHARSET);

    // ---- socket option defaults, as JeroMQ documents them

    public static final int DEFAULT_AFFINITY = 0;
    public static final boolean DEFAULT_AS_SERVER = false;
    public static final int DEFAULT_AS_TYPE = -1;
    public static final int DEFAULT_BACKLOG = 100;
    public static final boolean DEFAULT_CONFLATE = false;
    public static final boolean DEFAULT_GSS_PLAINTEXT = false;
    public static final int DEFAULT_HANDSHAKE_IVL = 30000;
    public static final byte[] DEFAULT_HEARTBEAT_CONTEXT = new byte[0];
    public static final int DEFAULT_HEARTBEAT_INTERVAL = 0;
    public static final int DEFAULT_HEARTBEAT_TIMEOUT = -1;
    public static final int DEFAULT_HEARTBEAT_TTL = 0;
    public static final byte[] DEFAULT_IDENTITY = new byte[0];
    public static final boolean DEFAULT_IMMEDIATE = true;
    public static final int DEFAULT_LINGER = -1;
    public static final long DEFAULT_MAX_MSG_SIZE = -1;
    public static final int DEFAULT_ALLOCATION_HEAP_THRESHOLD = 1024 * 1024;
    public static final int DEFAULT_RECONNECT_IVL = 100;
    public static final int DEFAULT_RECONNECT_IVL_MAX = 0;
    public static final int DEFAULT_RECV_HWM = 1000;
    public static final int DEFAULT_RECV_TIMEOUT = -1;
    public static final int DEFAULT_RCVBUF = 0;
    public static final int DEFAULT_RATE = 100;
    public static final int DEFAULT_RECOVERY_IVL = 10000;
    public static final String DEFAULT_SELF_ADDRESS_PROPERTY_NAME = null;
    public static final int DEFAULT_SEND_HWM = 1000;
    public static final int DEFAULT_SEND_TIMEOUT = -1;
    public static final int DEFAULT_SNDBUF = 0;
    public static final String DEFAULT_SOCKS_PROXY_ADDRESS = null;
    public static final int DEFAULT_TCP_KEEP_ALIVE = -1;
    public static final int DEFAULT_TCP_KEEP_ALIVE_CNT = -1;
    public static final int DEFAULT_TCP_KEEP_ALIVE_IDLE = -1;
    public static final int DEFAULT_TCP_KEEP_ALIVE_INTVL = -1;
    public static final int DEFAULT_TOS = 0;
    public static final int DEFAULT_TYPE = -1;
    public static final int DEFAULT_MULTICAST_HOPS = 1;
    public static final String DEFAULT_ZAP_DOMAIN = "";

    /**
     * Whether the JVM prefers IPv6, read once from {@code java.net.preferIPv4Stack=false} or
     * {@code java.net.preferIPv6Addresses=true} as in JeroMQ; {@link #DEFAULT_IPV6} is this. netty-zmtp's endpoints
     * take IPv6 addresses either way.
     */
    public static final boolean PREFER_IPV6 = "false".equalsIgnoreCase(System.getProperty("java.net.preferIPv4Stack"))
            || "true".equalsIgnoreCase(System.getProperty("java.net.preferIPv6Addresses"));
    public static final boolean DEFAULT_IPV6 = PREFER_IPV6;

    private ZMQ() {
    }

    /** Sleeps {@code seconds} seconds (parks the thread; an interrupt ends it early, and stays set). */
    public static void sleep(long seconds) {
        sleep(seconds, TimeUnit.SECONDS);
    }

    /** Sleeps {@code milliseconds} milliseconds (parks the thread; an interrupt ends it early, and stays set). */
    public static void msleep(long milliseconds) {
        sleep(milliseconds, TimeUnit.MILLISECONDS);
    }

    /** Sleeps {@code amount} of {@code unit} (parks the thread; an interrupt ends it early, and stays set). */
    public static void sleep(long amount, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(amount);
        for (long left = unit.toNanos(amount); left > 0 && !Thread.currentThread().isInterrupted();
                left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** A stopwatch's start: now, in nanoseconds of {@link System#nanoTime()}. */
    public static long startStopwatch() {
        return System.nanoTime();
    }

    /** Microseconds since {@code watch}, a {@link #startStopwatch()}. */
    public static long stopStopwatch(long watch) {
        return (System.nanoTime() - watch) / 1000;
    }

    /** {@code major * 10000 + minor * 100 + patch}, libzmq's version number. */
    public static int makeVersion(int major, int minor, int patch) {
        return major * 10000 + minor * 100 + patch;
    }
}
