package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpAuthenticationException;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * libzmq's {@code zmq_socket_monitor}: a PAIR socket bound to an inproc endpoint that sends each event of the
 * monitored socket as libzmq's two-frame message (version 1 format): a 6-byte frame with the event number (u16) and
 * its value (u32), both little-endian as libzmq writes them on x86 and ARM, then a frame with the endpoint. So code
 * ported from libzmq, pyzmq ({@code recv_monitor_message}) or JeroMQ ({@code ZMQ.Event.recv}) reads it unchanged.
 *
 * <p>Values: the reconnection delay in ms for CONNECT_RETRIED, libzmq's protocol error code for
 * HANDSHAKE_FAILED_PROTOCOL (ZMTP_CRYPTOGRAPHIC for a CURVE box that didn't open), the ZAP status (300, 400, 500)
 * for HANDSHAKE_FAILED_AUTH, an errno where libzmq has one (bind
 * failed: EADDRINUSE), and where libzmq gives a file descriptor, which a JVM socket has none of to give, the peer's
 * number (stable for a peer, unique in the process). PROTOCOL_ERROR and MESSAGES_DROPPED have no libzmq event and
 * are not sent (a DISCONNECTED follows a protocol error). As libzmq's, DISCONNECTED reports a connection lost (the
 * peer, the network, a failed handshake), not one the socket ended itself ({@link ConnectionEvent#bySocket()}). Messages go out through {@code sendAsync}, never blocking
 * the I/O thread that reports the event, and in order; they wait for the reader to connect. MONITOR_STOPPED is the
 * last, after which the PAIR closes.
 *
 * <p>At most {@link #MAX_WAITING} events wait for the reader (libzmq's default SNDHWM for the PAIR): peers that connect
 * and fail in a loop would otherwise grow a socket whose monitor nobody reads. Past that, new events are dropped and
 * counted as the PAIR's drops, as a PAIR at its HWM drops; MONITOR_STOPPED is sent whatever the count.
 */
public final class LibzmqMonitor implements Consumer<ConnectionEvent> {
    // libzmq's ZMQ_EVENT_* numbers.
    static final int CONNECTED = 0x0001;
    static final int CONNECT_DELAYED = 0x0002;
    static final int CONNECT_RETRIED = 0x0004;
    static final int LISTENING = 0x0008;
    static final int BIND_FAILED = 0x0010;
    static final int ACCEPTED = 0x0020;
    static final int ACCEPT_FAILED = 0x0040;
    static final int CLOSED = 0x0080;
    static final int DISCONNECTED = 0x0200;
    static final int MONITOR_STOPPED = 0x0400;
    static final int HANDSHAKE_FAILED_NO_DETAIL = 0x0800;
    static final int HANDSHAKE_SUCCEEDED = 0x1000;
    static final int HANDSHAKE_FAILED_PROTOCOL = 0x2000;
    static final int HANDSHAKE_FAILED_AUTH = 0x4000;

    private static final int EADDRINUSE = 98;
    private static final int EMFILE = 24;
    private static final int ZMTP_UNSPECIFIED = 0x10000000;
    private static final int ZMTP_CRYPTOGRAPHIC = 0x11000001;
    private static final int ZMTP_INVALID_METADATA = 0x10000018;
    private static final int ZMTP_MECHANISM_MISMATCH = 0x11000002;

    /** Events sent and not yet taken by the reader's connection, at most. */
    static final int MAX_WAITING = 1000;

    private final PairSocket pair;
    private final Set<ZmtpSocketEvent.Type> events;
    /** Events sent and not yet taken: added to here (events come one at a time), taken from by completions. */
    private final AtomicInteger waiting = new AtomicInteger();

    private LibzmqMonitor(PairSocket pair, Set<ZmtpSocketEvent.Type> events) {
        this.pair = pair;
        this.events = events;
    }

    /** Binds the PAIR to {@code endpoint} (inproc only, as in libzmq) and starts sending {@code socket}'s events. */
    public static void start(SocketBase socket, String endpoint, Set<ZmtpSocketEvent.Type> events) {
        if (!endpoint.startsWith("inproc://")) {
            throw new ZmtpSocketException.EndpointFailed(
                    "a monitor socket binds an inproc:// endpoint (libzmq's rule); got " + endpoint);
        }
        PairSocket pair = new PairSocket(socket.context);
        // Its close waits this long at most for a reader to take MONITOR_STOPPED.
        pair.setOption(ZmtpSocketOption.LINGER, 1000);
        try {
            pair.bind(endpoint);
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
        socket.addMonitor(new LibzmqMonitor(pair, Set.copyOf(events)));
    }

    @Override
    public void accept(ConnectionEvent e) {
        boolean stop = e.type() == ZmtpSocketEvent.Type.MONITOR_STOPPED;
        int number = number(e);
        if (number == 0 || !events.contains(e.type())) {
            if (stop) {
                pair.close();
            }
            return;
        }
        ByteBuf head = Unpooled.buffer(6, 6).writeShortLE(number).writeIntLE((int) value(e));
        String endpoint = e.endpoint() == null ? "" : e.endpoint();
        ZmtpMessage msg = ZmtpMessage.wrap(head, Unpooled.copiedBuffer(endpoint, StandardCharsets.UTF_8));
        if (pair.isClosed()) {
            msg.release();
            return;
        }
        if (!stop && waiting.get() >= MAX_WAITING) {
            msg.release();
            pair.messagesDropped(1);
            return;
        }
        waiting.incrementAndGet();
        var sent = pair.sendAsync(msg);
        sent.whenComplete((v, t) -> waiting.decrementAndGet());
        if (stop) {
            // Closed once the last event is out (or could never be): not here, on the thread closing the socket.
            sent.whenComplete((v, t) -> pair.close());
        }
    }

    /** libzmq's event number, or 0 for events it doesn't have. */
    static int number(ConnectionEvent e) {
        switch (e.type()) {
            case CONNECTED:
                return CONNECTED;
            case CONNECT_DELAYED:
                return CONNECT_DELAYED;
            case CONNECT_RETRIED:
                return CONNECT_RETRIED;
            case LISTENING:
                return LISTENING;
            case BIND_FAILED:
                return BIND_FAILED;
            case ACCEPTED:
                return ACCEPTED;
            case ACCEPT_FAILED:
                return ACCEPT_FAILED;
            case CLOSED:
                return CLOSED;
            case DISCONNECTED:
                // libzmq reports a connection lost, not one its socket ended (close, disconnect, unbind).
                return e.bySocket() ? 0 : DISCONNECTED;
            case MONITOR_STOPPED:
                return MONITOR_STOPPED;
            case HANDSHAKE_SUCCEEDED:
                return HANDSHAKE_SUCCEEDED;
            case HANDSHAKE_FAILED:
                ZmtpHandshakeFailureReason r = e.failureReason();
                if (r == ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED) {
                    // A refusal carries its ZAP status; a CURVE box that didn't open is libzmq's cryptographic error.
                    return e.cause() instanceof ZmtpAuthenticationException ? HANDSHAKE_FAILED_AUTH
                            : HANDSHAKE_FAILED_PROTOCOL;
                }
                if (r == ZmtpHandshakeFailureReason.TIMEOUT || r == ZmtpHandshakeFailureReason.CONNECTION_CLOSED
                        || r == null) {
                    return HANDSHAKE_FAILED_NO_DETAIL;
                }
                return HANDSHAKE_FAILED_PROTOCOL;
            default:
                return 0;
        }
    }

    static long value(ConnectionEvent e) {
        switch (e.type()) {
            case CONNECT_RETRIED:
                return e.value();
            case BIND_FAILED:
                return e.cause() != null && String.valueOf(e.cause().getMessage()).contains("in use") ? EADDRINUSE : 0;
            case ACCEPT_FAILED:
                return e.cause() != null && String.valueOf(e.cause().getMessage()).contains("Too many open files")
                        ? EMFILE : 0;
            case HANDSHAKE_FAILED:
                int n = number(e);
                if (n == HANDSHAKE_FAILED_AUTH) {
                    return ((ZmtpAuthenticationException) e.cause()).statusCode();
                }
                if (n == HANDSHAKE_FAILED_PROTOCOL) {
                    ZmtpHandshakeFailureReason r = e.failureReason();
                    return r == ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED ? ZMTP_CRYPTOGRAPHIC
                            : r == ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE ? ZMTP_INVALID_METADATA
                            : r == ZmtpHandshakeFailureReason.MECHANISM_MISMATCH ? ZMTP_MECHANISM_MISMATCH
                            : ZMTP_UNSPECIFIED;
                }
                return 0;
            default:
                return e.pipe() == null ? 0 : e.pipe().id();
        }
    }
}
