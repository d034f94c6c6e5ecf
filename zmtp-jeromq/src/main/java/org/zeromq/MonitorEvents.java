package org.zeromq;

import io.zmtp.codec.ZmtpAuthenticationException;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.util.Objects;

/**
 * The monitor events JeroMQ 0.6.0 sends for one of netty-zmtp's socket events: which of {@code ZMQ.EVENT_*}, with
 * which value, in which order, for a monitor that asked for {@code mask}.
 *
 * <h2>Handshakes: JeroMQ's or libzmq's</h2>
 * JeroMQ 0.6.0 tells a handshake with its own {@code EVENT_HANDSHAKE_PROTOCOL} (the ZMTP version, once the greetings
 * are exchanged) and never sends libzmq's {@code HANDSHAKE_SUCCEEDED} or {@code HANDSHAKE_FAILED_NO_DETAIL}; its
 * server reports no {@code HANDSHAKE_FAILED_AUTH} when it refuses a client (the client does, from the ERROR it gets),
 * and a greeting naming another mechanism ends the connection with no failure event. A monitor whose mask has
 * {@code EVENT_HANDSHAKE_PROTOCOL} ({@code EVENT_ALL} has) gets exactly that. One whose mask hasn't gets libzmq's
 * handshake events instead, which it may be waiting for (code ported from libzmq, or netty-zmtp's own tests), and
 * which JeroMQ would never send it: {@code HANDSHAKE_SUCCEEDED}, {@code HANDSHAKE_FAILED_NO_DETAIL} for a timeout or
 * a connection lost, the server's {@code HANDSHAKE_FAILED_AUTH}, the mechanism mismatch.
 *
 * <h2>Connections the socket ends</h2>
 * As in JeroMQ and libzmq, {@code EVENT_DISCONNECTED} is a connection lost (the peer, the network, a failed
 * handshake), not one the socket ended itself (close, disconnect, unbind). Nothing is sent for inproc endpoints,
 * which in JeroMQ have no engine, listener or connecter to report.
 *
 * <h2>Values</h2>
 * The reconnection delay (ms) for CONNECT_RETRIED, -1 for CONNECT_DELAYED (JeroMQ's), Linux's errno for
 * BIND_FAILED and ACCEPT_FAILED as libzmq sends it, the ZMTP version as JeroMQ numbers it (3 for 3.x, 2 for 2.0, 0
 * for 1.0) for HANDSHAKE_PROTOCOL, the ZAP status for HANDSHAKE_FAILED_AUTH, libzmq's protocol error code for
 * HANDSHAKE_FAILED_PROTOCOL; for connection events, where JeroMQ gives a channel's number, a number made from the
 * peer's address (the same for each event of a connection).
 */
final class MonitorEvents {
    /** Where the events go. */
    interface Sink {
        void send(int event, int value, String endpoint);
    }

    /** Linux's numbers, as libzmq sends them and {@link EventReader} reads them. */
    private static final int LINUX_EADDRINUSE = 98;
    private static final int LINUX_EMFILE = 24;
    /** libzmq's protocol error codes (ZMonitor.ProtocolCode). */
    private static final int ZMTP_UNSPECIFIED = 0x10000000;
    private static final int ZMTP_INVALID_METADATA = 0x10000018;
    private static final int ZMTP_CRYPTOGRAPHIC = 0x11000001;
    private static final int ZMTP_MECHANISM_MISMATCH = 0x11000002;
    /** JeroMQ's number of ZMTP 3.x, the only versions with a mechanism to fail. */
    private static final int ZMTP3 = 3;

    private final int mask;
    private final boolean jeromqHandshakes;

    /** For a monitor of the events in {@code mask} ({@code ZMQ.EVENT_*} bits). */
    MonitorEvents(int mask) {
        this.mask = mask;
        this.jeromqHandshakes = (mask & ZMQ.EVENT_HANDSHAKE_PROTOCOL) != 0;
    }

    /** Whether the monitor asked for {@code event}. */
    boolean wants(int event) {
        return (mask & event) != 0;
    }

    /** Sends JeroMQ's events for {@code e} to {@code sink}: none, one or two. MONITOR_STOPPED is the caller's. */
    void translate(ZmtpSocketEvent e, Sink sink) {
        String endpoint = e.endpoint() == null ? "" : e.endpoint();
        if (endpoint.startsWith("inproc://")) {
            return;
        }
        Emitter out = new Emitter(sink, endpoint);
        switch (e.type()) {
            case CONNECTED:
                out.send(ZMQ.EVENT_CONNECTED, connectionNumber(e));
                break;
            case CONNECT_DELAYED:
                out.send(ZMQ.EVENT_CONNECT_DELAYED, -1);
                break;
            case CONNECT_RETRIED:
                out.send(ZMQ.EVENT_CONNECT_RETRIED, (int) e.reconnectDelay().toMillis());
                break;
            case LISTENING:
                out.send(ZMQ.EVENT_LISTENING, 0);
                break;
            case BIND_FAILED:
                out.send(ZMQ.EVENT_BIND_FAILED, causeSays(e, "in use") ? LINUX_EADDRINUSE : 0);
                break;
            case ACCEPTED:
                out.send(ZMQ.EVENT_ACCEPTED, connectionNumber(e));
                break;
            case ACCEPT_FAILED:
                out.send(ZMQ.EVENT_ACCEPT_FAILED, causeSays(e, "Too many open files") ? LINUX_EMFILE : 0);
                break;
            case CLOSED:
                out.send(ZMQ.EVENT_CLOSED, 0);
                break;
            case DISCONNECTED:
                if (!e.bySocket()) {
                    out.send(ZMQ.EVENT_DISCONNECTED, connectionNumber(e));
                }
                break;
            case HANDSHAKE_SUCCEEDED:
                if (jeromqHandshakes) {
                    out.send(ZMQ.EVENT_HANDSHAKE_PROTOCOL, jeromqVersion(e.version()));
                } else {
                    out.send(ZMQ.HANDSHAKE_SUCCEEDED, 0);
                }
                break;
            case HANDSHAKE_FAILED:
                handshakeFailed(e, out);
                break;
            default:
                // PROTOCOL_ERROR, MESSAGES_DROPPED: netty-zmtp's own; MONITOR_STOPPED: the monitor's last.
                break;
        }
    }

    private void handshakeFailed(ZmtpSocketEvent e, Emitter out) {
        ZmtpHandshakeFailureReason reason = e.failureReason();
        if (reason == null || reason == ZmtpHandshakeFailureReason.TIMEOUT
                || reason == ZmtpHandshakeFailureReason.CONNECTION_CLOSED) {
            // JeroMQ: the DISCONNECTED alone.
            if (!jeromqHandshakes) {
                out.send(ZMQ.HANDSHAKE_FAILED_NO_DETAIL, 0);
            }
            return;
        }
        if (reason == ZmtpHandshakeFailureReason.MECHANISM_MISMATCH
                || reason == ZmtpHandshakeFailureReason.VERSION_REFUSED) {
            // Refused at the greeting: JeroMQ closes before its HANDSHAKE_PROTOCOL, with no failure event.
            if (!jeromqHandshakes) {
                out.send(ZMQ.HANDSHAKE_FAILED_PROTOCOL, reason == ZmtpHandshakeFailureReason.MECHANISM_MISMATCH
                        ? ZMTP_MECHANISM_MISMATCH : ZMTP_UNSPECIFIED);
            }
            return;
        }
        // The greetings were exchanged: the mechanism's commands failed.
        if (jeromqHandshakes) {
            out.send(ZMQ.EVENT_HANDSHAKE_PROTOCOL, ZMTP3);
        }
        if (e.cause() instanceof ZmtpAuthenticationException) {
            ZmtpAuthenticationException refusal = (ZmtpAuthenticationException) e.cause();
            // JeroMQ's client reports the ERROR it got; its server, refusing, reports nothing.
            if (refusal.isByPeer() || !jeromqHandshakes) {
                out.send(ZMQ.HANDSHAKE_FAILED_AUTH, refusal.statusCode());
            }
            return;
        }
        out.send(ZMQ.HANDSHAKE_FAILED_PROTOCOL,
                reason == ZmtpHandshakeFailureReason.AUTHENTICATION_FAILED ? ZMTP_CRYPTOGRAPHIC // a box didn't open
                        : reason == ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE ? ZMTP_INVALID_METADATA
                        : ZMTP_UNSPECIFIED);
    }

    /** JeroMQ's number of a ZMTP version (its StreamEngine's {@code Protocol} ordinal). */
    private static int jeromqVersion(ZmtpVersion version) {
        if (version == null || version.major() >= 3) {
            return ZMTP3;
        }
        return version == ZmtpVersion.ZMTP_20 ? 2 : 0;
    }

    /** A number of the connection's peer address, the same for each of its events (JeroMQ: its channel's number). */
    private static int connectionNumber(ZmtpSocketEvent e) {
        return Objects.hashCode(e.remoteAddress()) & Integer.MAX_VALUE;
    }

    private static boolean causeSays(ZmtpSocketEvent e, String text) {
        return e.cause() != null && String.valueOf(e.cause().getMessage()).contains(text);
    }

    /** Sends the events the mask asks for. */
    private final class Emitter {
        private final Sink sink;
        private final String endpoint;

        Emitter(Sink sink, String endpoint) {
            this.sink = sink;
            this.endpoint = endpoint;
        }

        void send(int event, int value) {
            if (wants(event)) {
                sink.send(event, value, endpoint);
            }
        }
    }
}
