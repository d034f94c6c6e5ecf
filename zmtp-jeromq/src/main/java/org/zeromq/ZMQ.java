package org.zeromq;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.Z85;
import io.zmtp.socket.ZmtpProxy;
import io.zmtp.socket.ZmtpSocketException;

import java.io.Closeable;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * JeroMQ's entry point: constants, {@link Context}, {@link Socket}, {@link Poller}, {@link Event}, {@link Curve}, on
 * netty-zmtp's sockets. The nested classes keep JeroMQ's names and signatures; their bodies live in package-private
 * classes ({@code ContextImpl}, {@code SocketImpl} and its options, {@code PollerImpl}). What differs from JeroMQ is
 * listed in docs/jeromq.md.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP</a>
 */
public class ZMQ {
    /** Send flag: more frames of this message follow. */
    public static final int SNDMORE = 2;
    /** Send and receive flag: don't wait; fail with EAGAIN instead. */
    public static final int DONTWAIT = 1;
    /** Old name of {@link #DONTWAIT}. */
    public static final int NOBLOCK = DONTWAIT;

    // Socket types, JeroMQ's numbers (see SocketType).
    public static final int PAIR = 0;
    public static final int PUB = 1;
    public static final int SUB = 2;
    public static final int REQ = 3;
    public static final int REP = 4;
    public static final int DEALER = 5;
    /** Old name of {@link #DEALER}. */
    @Deprecated
    public static final int XREQ = DEALER;
    public static final int ROUTER = 6;
    /** Old name of {@link #ROUTER}. */
    @Deprecated
    public static final int XREP = ROUTER;
    public static final int PULL = 7;
    public static final int PUSH = 8;
    public static final int XPUB = 9;
    public static final int XSUB = 10;
    public static final int STREAM = 11;
    /** Device types of {@link #device}. */
    @Deprecated
    public static final int STREAMER = 1;
    @Deprecated
    public static final int FORWARDER = 2;
    @Deprecated
    public static final int QUEUE = 3;
    /** Old name of {@link #PULL}. */
    @Deprecated
    public static final int UPSTREAM = PULL;
    /** Old name of {@link #PUSH}. */
    @Deprecated
    public static final int DOWNSTREAM = PUSH;

    // Monitor events, libzmq's bits.
    public static final int EVENT_CONNECTED = 1;
    public static final int EVENT_CONNECT_DELAYED = 1 << 1;
    public static final int EVENT_DELAYED = EVENT_CONNECT_DELAYED;
    public static final int EVENT_CONNECT_RETRIED = 1 << 2;
    public static final int EVENT_RETRIED = EVENT_CONNECT_RETRIED;
    public static final int EVENT_LISTENING = 1 << 3;
    public static final int EVENT_BIND_FAILED = 1 << 4;
    public static final int EVENT_ACCEPTED = 1 << 5;
    public static final int EVENT_ACCEPT_FAILED = 1 << 6;
    public static final int EVENT_CLOSED = 1 << 7;
    /** Never sent by netty-zmtp (closing a descriptor doesn't fail in Java). */
    public static final int EVENT_CLOSE_FAILED = 1 << 8;
    public static final int EVENT_DISCONNECTED = 1 << 9;
    public static final int EVENT_MONITOR_STOPPED = 1 << 10;
    /** JeroMQ's own event for the negotiated protocol; never sent by netty-zmtp. */
    public static final int EVENT_HANDSHAKE_PROTOCOL = 1 << 15;
    public static final int EVENT_ALL = 0xffff;
    public static final int HANDSHAKE_FAILED_NO_DETAIL = 1 << 11;
    public static final int HANDSHAKE_SUCCEEDED = 1 << 12;
    public static final int HANDSHAKE_FAILED_PROTOCOL = 1 << 13;
    public static final int HANDSHAKE_FAILED_AUTH = 1 << 14;

    /** The empty frame that separates a REQ/REP envelope from the body. */
    public static final byte[] MESSAGE_SEPARATOR = new byte[0];
    /** The empty prefix: subscribes to every message. */
    public static final byte[] SUBSCRIPTION_ALL = new byte[0];
    /** Steerable proxy commands. */
    public static final byte[] PROXY_PAUSE = "PAUSE".getBytes(StandardCharsets.UTF_8);
    public static final byte[] PROXY_RESUME = "RESUME".getBytes(StandardCharsets.UTF_8);
    public static final byte[] PROXY_TERMINATE = "TERMINATE".getBytes(StandardCharsets.UTF_8);
    /** The charset of every String sent or received: UTF-8. */
    public static final Charset CHARSET = StandardCharsets.UTF_8;

    // The libzmq version JeroMQ 0.6.0 reports (and whose behaviour it follows).
    private static final int VERSION_MAJOR = 4;
    private static final int VERSION_MINOR = 1;
    private static final int VERSION_PATCH = 7;

    protected ZMQ() {
    }

    /** A new context with {@code ioThreads} I/O threads. */
    public static Context context(int ioThreads) {
        return new Context(ioThreads);
    }

    /** Runs {@link #proxy} between the two sockets; {@code type} (STREAMER, FORWARDER, QUEUE) changes nothing. */
    @Deprecated
    public static boolean device(int type, Socket frontend, Socket backend) {
        return proxy(frontend, backend, null, null);
    }

    /**
     * Passes messages between {@code frontend} and {@code backend} (and copies them to {@code capture} if not null)
     * until a socket closes (its context terminated, say); false then, as JeroMQ's.
     */
    public static boolean proxy(Socket frontend, Socket backend, Socket capture) {
        return proxy(frontend, backend, capture, null);
    }

    /**
     * As {@link #proxy(Socket, Socket, Socket)}, steered by {@code control}: PAUSE, RESUME, TERMINATE (returns
     * true), STATISTICS. Runs on the calling thread. A thread interrupted in it gets ZMQException with EINTR.
     */
    public static boolean proxy(Socket frontend, Socket backend, Socket capture, Socket control) {
        ZmtpProxy.Builder b = ZmtpProxy.builder(frontend.zmtpSocket(), backend.zmtpSocket());
        if (capture != null) {
            b.capture(capture.zmtpSocket());
        }
        if (control != null) {
            b.control(control.zmtpSocket());
        }
        try {
            b.build().run();
        } catch (ZmtpSocketException.Closed e) {
            return false;
        } catch (ZmtpSocketException.Interrupted e) {
            throw new ZMQException(e.getMessage(), ErrorCodes.EINTR, e);
        }
        return true;
    }

    /**
     * Polls {@code items} up to {@code timeout} ms; their channels on {@code selector} (left open; a selector of the
     * call's own if null).
     */
    public static int poll(Selector selector, PollItem[] items, long timeout) {
        return poll(selector, items, items.length, timeout);
    }

    /**
     * Polls the first {@code count} of {@code items} up to {@code timeout} ms (-1: forever); how many are ready, -1 if
     * {@code selector} is closed (as JeroMQ). Channels are polled on {@code selector} (see {@code PollSet}).
     */
    public static int poll(Selector selector, PollItem[] items, int count, long timeout) {
        java.util.List<PollItem> list = Arrays.asList(items).subList(0, count);
        try (PollSet set = new PollSet(selector)) {
            for (PollItem item : list) {
                set.add(item);
            }
            set.poll(timeout);
            int ready = 0;
            for (PollItem item : list) {
                if (item.update(set)) {
                    ready++;
                }
            }
            return ready;
        } catch (java.nio.channels.ClosedSelectorException e) {
            return -1;
        } catch (ZmtpSocketException e) {
            throw PollerImpl.failure(e);
        }
    }

    public static int getMajorVersion() {
        return VERSION_MAJOR;
    }

    public static int getMinorVersion() {
        return VERSION_MINOR;
    }

    public static int getPatchVersion() {
        return VERSION_PATCH;
    }

    /** {@link #makeVersion} of the three. */
    public static int getFullVersion() {
        return makeVersion(VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH);
    }

    public static int makeVersion(final int major, final int minor, final int patch) {
        return major * 10000 + minor * 100 + patch;
    }

    public static String getVersionString() {
        return VERSION_MAJOR + "." + VERSION_MINOR + "." + VERSION_PATCH;
    }

    /** Sleeps {@code millis} ms, ignoring interruption as JeroMQ's does (the interrupt status is kept). */
    public static void msleep(long millis) {
        sleep(millis, TimeUnit.MILLISECONDS);
    }

    public static void sleep(long seconds) {
        sleep(seconds, TimeUnit.SECONDS);
    }

    public static void sleep(long amount, TimeUnit unit) {
        try {
            unit.sleep(amount);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** JeroMQ's error codes: the values {@link ZMQException#getErrorCode()} takes. */
    public enum Error {
        NOERROR(0, "No error"),
        ENOTSUP(ErrorCodes.ENOTSUP, "Not supported"),
        EPROTONOSUPPORT(ErrorCodes.EPROTONOSUPPORT, "Protocol not supported"),
        ENOBUFS(ErrorCodes.ENOBUFS, "No buffer space available"),
        ENETDOWN(ErrorCodes.ENETDOWN, "Network is down"),
        EADDRINUSE(ErrorCodes.EADDRINUSE, "Address already in use"),
        EADDRNOTAVAIL(ErrorCodes.EADDRNOTAVAIL, "Address not available"),
        ECONNREFUSED(ErrorCodes.ECONNREFUSED, "Connection refused"),
        EINPROGRESS(ErrorCodes.EINPROGRESS, "Operation in progress"),
        EHOSTUNREACH(ErrorCodes.EHOSTUNREACH, "Host unreachable"),
        EMTHREAD(ErrorCodes.EMTHREAD, "No thread available"),
        EFSM(ErrorCodes.EFSM, "Operation cannot be accomplished in current state"),
        ENOCOMPATPROTO(ErrorCodes.ENOCOMPATPROTO, "The protocol is not compatible with the socket type"),
        ETERM(ErrorCodes.ETERM, "Context was terminated"),
        ENOTSOCK(ErrorCodes.ENOTSOCK, "Not a socket"),
        EAGAIN(ErrorCodes.EAGAIN, "Resource unavailable, try again"),
        ENOENT(ErrorCodes.ENOENT, "No such file or directory"),
        EINTR(ErrorCodes.EINTR, "Interrupted function"),
        EACCESS(ErrorCodes.EACCESS, "Permission denied"),
        EFAULT(ErrorCodes.EFAULT, "Bad address"),
        EINVAL(ErrorCodes.EINVAL, "Invalid argument"),
        EISCONN(ErrorCodes.EISCONN, "Socket is connected"),
        ENOTCONN(ErrorCodes.ENOTCONN, "The socket is not connected"),
        EMSGSIZE(ErrorCodes.EMSGSIZE, "Message too large"),
        EAFNOSUPPORT(ErrorCodes.EAFNOSUPPORT, "Address family not supported"),
        ENETUNREACH(ErrorCodes.ENETUNREACH, "Network unreachable"),
        ECONNABORTED(ErrorCodes.ECONNABORTED, "Connection aborted"),
        ECONNRESET(ErrorCodes.ECONNRESET, "Connection reset"),
        ETIMEDOUT(ErrorCodes.ETIMEDOUT, "Connection timed out"),
        ENETRESET(ErrorCodes.ENETRESET, "Connection aborted by network"),
        EIOEXC(ErrorCodes.EIOEXC, null),
        ESOCKET(ErrorCodes.ESOCKET, null),
        EMFILE(ErrorCodes.EMFILE, "File descriptor value too large"),
        EPROTO(ErrorCodes.EPROTO, "Protocol error");

        private static final Map<Integer, Error> BY_CODE = new HashMap<>();

        static {
            for (Error e : values()) {
                BY_CODE.put(e.code, e);
            }
        }

        private final int code;
        private final String message;

        Error(int code, String message) {
            this.code = code;
            this.message = message == null ? "errno " + code : message;
        }

        /** The error with {@code code}; NOERROR for 0 or less; IllegalArgumentException for an unknown code. */
        public static Error findByCode(int code) {
            if (code <= 0) {
                return NOERROR;
            }
            Error e = BY_CODE.get(code);
            if (e == null) {
                throw new IllegalArgumentException("Unknown " + Error.class.getName() + " enum code: " + code);
            }
            return e;
        }

        public int getCode() {
            return code;
        }

        public String getMessage() {
            return message;
        }
    }

    /**
     * Makes sockets and owns the I/O threads. Thread-safe. {@link #term()} closes every socket it made and returns
     * within their linger; threads blocked on them get {@link ZMQException} with ETERM.
     */
    public static class Context extends ContextImpl implements Closeable {
        /** A context with {@code ioThreads} I/O threads (at least one is started). */
        protected Context(int ioThreads) {
            super(ioThreads);
        }

        /** A new socket of {@code type}. */
        public Socket socket(SocketType type) {
            return new Socket(this, type);
        }

        /** A new socket of JeroMQ's type number {@code type}. */
        @Deprecated
        public Socket socket(int type) {
            return socket(SocketType.type(type));
        }

        /** A poller for this context's sockets. */
        public Poller poller() {
            return new Poller(this);
        }

        /** A poller with room for {@code size} items (it grows). */
        public Poller poller(int size) {
            return new Poller(this, size);
        }
    }

    /**
     * A ZeroMQ socket: JeroMQ's API on a netty-zmtp socket. As in JeroMQ it is meant for one thread at a time;
     * the blocking calls throw {@link ZMQException} with ETERM when the context is closed and with EINTR when the
     * thread is interrupted, leaving the socket usable.
     */
    public static class Socket extends SocketImpl implements Closeable {
        private final ZContext owner;

        /** A socket of {@code type} in {@code context}. */
        protected Socket(Context context, SocketType type) {
            super(context, type);
            this.owner = null;
        }

        /** A socket of {@code type} in {@code context}'s context, closed with it. */
        protected Socket(ZContext context, SocketType type) {
            super(context.getContext(), type);
            this.owner = context;
        }

        @Deprecated
        protected Socket(Context context, int type) {
            this(context, SocketType.type(type));
        }

        /** Closes the socket (a ZContext's socket is also removed from its ZContext). Idempotent. */
        @Override
        public void close() {
            if (owner != null) {
                owner.closeSocket(this);
            } else {
                internalClose();
            }
        }

        /**
         * The socket under JeroMQ's internal name, for its option calls by number:
         * {@code base().getSocketOptx(zmq.ZMQ.ZMQ_LAST_ENDPOINT)} and the like. See {@link zmq.SocketBase}.
         *
         * @return a view of this socket (a new one each call, as cheap as a wrapper)
         */
        public zmq.SocketBase base() {
            return new SocketBaseView(this);
        }

        /**
         * Sends a message of one frame per value of a text picture; see {@link org.zeromq.proto.ZPicture}.
         *
         * @return true if it was queued
         */
        public boolean sendPicture(String picture, Object... args) {
            return new org.zeromq.proto.ZPicture().sendPicture(this, picture, args);
        }

        /**
         * Sends a message whose first frame holds the values of a binary picture in zproto's encoding; see
         * {@link org.zeromq.proto.ZPicture}.
         *
         * @return true if it was queued
         */
        public boolean sendBinaryPicture(String picture, Object... args) {
            return new org.zeromq.proto.ZPicture().sendBinaryPicture(this, picture, args);
        }

        /**
         * Receives a message sent by {@link #sendPicture}: one element per picture character.
         *
         * @return the elements, or null if no message came
         */
        public Object[] recvPicture(String picture) {
            return new org.zeromq.proto.ZPicture().recvPicture(this, picture);
        }

        /**
         * Receives a message sent by {@link #sendBinaryPicture}: one element per picture character.
         *
         * @return the elements, or null if no message came
         */
        public Object[] recvBinaryPicture(String picture) {
            return new org.zeromq.proto.ZPicture().recvBinaryPicture(this, picture);
        }

        /** The security mechanism a socket uses (ZMQ_MECHANISM). */
        public enum Mechanism {
            NULL,
            PLAIN,
            CURVE
        }
    }

    /** Waits on several sockets and java.nio channels at once; see {@code PollerImpl}. */
    public static class Poller extends PollerImpl implements Closeable {
        public static final int POLLIN = 1;
        public static final int POLLOUT = 2;
        /** Never reported for a socket (errors come out of its calls); reported for a closed channel. */
        public static final int POLLERR = 4;

        protected Poller(Context context, int size) {
            super(context, size);
        }

        protected Poller(Context context) {
            this(context, 32);
        }
    }

    /** A socket or a java.nio channel and the events to poll it for, and after a poll, which of them are ready. */
    public static class PollItem {
        private final Socket socket;
        private final SelectableChannel channel;
        private final int interest;
        private int ready;
        private zmq.poll.PollItem base;

        /** {@code socket} polled for {@code ops} (POLLIN, POLLOUT, POLLERR). */
        public PollItem(Socket socket, int ops) {
            this.socket = java.util.Objects.requireNonNull(socket, "socket");
            this.channel = null;
            this.interest = ops;
        }

        /**
         * {@code channel} polled for {@code ops} (POLLIN, POLLOUT, POLLERR); it must be in non-blocking mode when
         * polled. POLLERR is reported once it is closed.
         */
        public PollItem(SelectableChannel channel, int ops) {
            this.socket = null;
            this.channel = channel;
            this.interest = ops;
        }

        /** JeroMQ's internal item for this one: what it polls, for which events (see {@link zmq.poll.PollItem}). */
        final zmq.poll.PollItem base() {
            if (base == null) {
                base = socket != null ? new zmq.poll.PollItem(socket.base(), interest)
                        : new zmq.poll.PollItem(channel, interest);
            }
            return base;
        }

        /** The channel polled, or null for a socket. */
        public final SelectableChannel getRawSocket() {
            return channel;
        }

        /** The socket polled, or null for a channel. */
        public final Socket getSocket() {
            return socket;
        }

        public final boolean isReadable() {
            return (ready & Poller.POLLIN) != 0;
        }

        public final boolean isWritable() {
            return (ready & Poller.POLLOUT) != 0;
        }

        /** A socket's: always false (errors come out of its calls); a channel's: true once it is closed. */
        public final boolean isError() {
            return (ready & Poller.POLLERR) != 0;
        }

        /** The events ready after the last poll. */
        public final int readyOps() {
            return ready;
        }

        final int interest() {
            return interest;
        }

        /** Takes this item's readiness from {@code set}'s last poll; whether any of its events is ready. */
        final boolean update(PollSet set) {
            ready = socket != null ? set.readyOps(socket) : set.readyOps(channel);
            return ready != 0;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(socket != null ? socket : channel);
        }

        /** The same socket, or the same channel, whatever the events (as JeroMQ's). */
        @Override
        public boolean equals(Object obj) {
            if (!(obj instanceof PollItem)) {
                return false;
            }
            PollItem other = (PollItem) obj;
            return socket != null ? socket == other.socket : channel != null && channel == other.channel;
        }
    }

    /**
     * A monitor event read from a monitor socket (a PAIR connected to the address given to
     * {@link Socket#monitor}), in libzmq's two-frame format.
     */
    public static class Event {
        private final int event;
        private final Object value;
        private final Object resolvedValue;
        private final String address;

        public Event(int event, Object value, String address) {
            this(event, value, value, address);
        }

        Event(int event, Object value, Object resolvedValue, String address) {
            this.event = event;
            this.value = value;
            this.resolvedValue = resolvedValue;
            this.address = address;
        }

        /** Reads the next event; null with DONTWAIT when there is none, or when what arrives is not an event. */
        public static Event recv(Socket socket, int flags) {
            return EventReader.read(socket, flags);
        }

        public static Event recv(Socket socket) {
            return recv(socket, 0);
        }

        /** The event's bit, one of {@code ZMQ.EVENT_*}. */
        public int getEvent() {
            return event;
        }

        /** The event's value as libzmq sends it (an Integer: an errno, a reconnect delay in ms, a descriptor). */
        public Object getValue() {
            return value;
        }

        /** The endpoint the event is about. */
        public String getAddress() {
            return address;
        }

        public boolean isError() {
            switch (event) {
                case EVENT_CLOSE_FAILED:
                case EVENT_ACCEPT_FAILED:
                case EVENT_BIND_FAILED:
                case HANDSHAKE_FAILED_PROTOCOL:
                case HANDSHAKE_FAILED_NO_DETAIL:
                    return true;
                default:
                    return false;
            }
        }

        public boolean isWarn() {
            return event == HANDSHAKE_FAILED_AUTH;
        }

        /**
         * The value resolved as JeroMQ does where it can: a {@link ZMonitor.ProtocolCode} for
         * HANDSHAKE_FAILED_PROTOCOL, an {@link Error} for the failures, null for events about a connection (JeroMQ
         * gives its channel, which netty-zmtp doesn't expose), else the value.
         */
        @SuppressWarnings("unchecked")
        public <M> M resolveValue() {
            return (M) resolvedValue;
        }
    }

    /**
     * Cancels a blocking send or receive made with it ({@link Socket#createCancellationToken()}): the call throws
     * {@link ZMQException} with ECANCELED (125), and the socket stays usable. It works by interrupting the waiting
     * thread, so a cancelled call never leaves the thread's interrupt status set.
     */
    public static class CancellationToken {
        protected final AtomicBoolean canceled = new AtomicBoolean();
        /** The thread in a call with this token; guarded by this. */
        private Thread waiter;

        protected CancellationToken() {
        }

        public boolean isCancellationRequested() {
            return canceled.get();
        }

        /** Makes the token usable for another call. */
        public void reset() {
            canceled.set(false);
        }

        /** Cancels the call in progress with this token, or the next one. */
        public synchronized void cancel() {
            canceled.set(true);
            if (waiter != null) {
                waiter.interrupt();
            }
        }

        synchronized void enter() {
            if (canceled.get()) {
                throw new ZMQException("cancelled", ErrorCodes.ECANCELED);
            }
            waiter = Thread.currentThread();
        }

        /** Clears the interrupt {@link #cancel()} may have sent after the call stopped waiting. */
        synchronized void exit() {
            waiter = null;
            if (canceled.get()) {
                Thread.interrupted();
            }
        }
    }

    /** CURVE keys: Z85 and key pairs, on netty-zmtp's codec. */
    public static class Curve {
        /** Bytes in a key. */
        public static final int KEY_SIZE = CurveKeyPair.KEY_LENGTH;
        /** Characters in a key written in Z85. */
        public static final int KEY_SIZE_Z85 = CurveKeyPair.Z85_KEY_LENGTH;

        /** A new key pair, both keys in Z85. */
        public static KeyPair generateKeyPair() {
            CurveKeyPair pair = CurveKeyPair.generate();
            return new KeyPair(pair.publicKeyZ85(), pair.secretKeyZ85());
        }

        /** The bytes of {@code key} (Z85, a multiple of 5 characters). */
        public static byte[] z85Decode(String key) {
            return Z85.decode(key);
        }

        /** {@code key} (a multiple of 4 bytes) in Z85. */
        public static String z85Encode(byte[] key) {
            return Z85.encode(key);
        }

        /** A public and a secret key in Z85. */
        public static class KeyPair {
            public final String publicKey;
            public final String secretKey;

            public KeyPair(final String publicKey, final String secretKey) {
                this.publicKey = publicKey;
                this.secretKey = secretKey;
            }
        }
    }
}
