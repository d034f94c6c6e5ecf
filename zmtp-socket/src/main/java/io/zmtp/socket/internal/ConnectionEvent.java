package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.net.SocketAddress;

/**
 * What a socket reports to its monitors; the public API shows it as a {@link ZmtpSocketEvent}. Immutable. Made by
 * the pipes (connection events), the endpoints (listening, bind failed, closed), the connectors (connect delayed and
 * retried) and the drop reporter, and delivered in order by {@link MonitorDispatcher}.
 */
public final class ConnectionEvent {
    private final ZmtpSocketEvent.Type type;
    private final String endpoint;
    private final SocketAddress remoteAddress;
    private final ZmtpVersion version;
    private final ZmtpSocketType peerSocketType;
    private final byte[] peerIdentity;
    private final String detail;
    private final Pipe pipe;
    private final ZmtpHandshakeFailureReason failureReason;
    private final Throwable cause;
    /** CONNECT_RETRIED: the delay before the next attempt (ms); MESSAGES_DROPPED: how many since the last report. */
    private final long value;
    /** DISCONNECTED: the socket ended the connection itself (close, disconnect, unbind, a peer's disconnect). */
    private final boolean bySocket;

    ConnectionEvent(ZmtpSocketEvent.Type type, String endpoint, SocketAddress remoteAddress, ZmtpVersion version,
                    ZmtpSocketType peerSocketType, byte[] peerIdentity, String detail, Pipe pipe,
                    ZmtpHandshakeFailureReason failureReason, Throwable cause, long value, boolean bySocket) {
        this.type = type;
        this.endpoint = endpoint;
        this.remoteAddress = remoteAddress;
        this.version = version;
        this.peerSocketType = peerSocketType;
        this.peerIdentity = peerIdentity == null ? new byte[0] : peerIdentity.clone();
        this.detail = detail;
        this.pipe = pipe;
        this.failureReason = failureReason;
        this.cause = cause;
        this.value = value;
        this.bySocket = bySocket;
    }

    /** An event about an endpoint rather than a connection (LISTENING, BIND_FAILED, CLOSED, CONNECT_*...). */
    static ConnectionEvent ofEndpoint(ZmtpSocketEvent.Type type, String endpoint, SocketAddress address,
                                      Pipe pipe, Throwable cause, long value) {
        return new ConnectionEvent(type, endpoint, address, null, null, null,
                cause == null ? null : String.valueOf(cause.getMessage()), pipe, null, cause, value, false);
    }

    public ZmtpSocketEvent.Type type() {
        return type;
    }

    public String endpoint() {
        return endpoint;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    public ZmtpVersion version() {
        return version;
    }

    public ZmtpSocketType peerSocketType() {
        return peerSocketType;
    }

    /** The identity; not copied, so callers must not let it escape to the application. */
    public byte[] peerIdentityUnsafe() {
        return peerIdentity;
    }

    public String detail() {
        return detail;
    }

    /** The peer the event is about, or null (listener events, drops not tied to one peer). */
    public Pipe pipe() {
        return pipe;
    }

    public ZmtpHandshakeFailureReason failureReason() {
        return failureReason;
    }

    public Throwable cause() {
        return cause;
    }

    public long value() {
        return value;
    }

    /**
     * DISCONNECTED: whether this socket ended the connection (its close, disconnect or unbind, a peer's disconnect)
     * rather than the peer, the network or a failed handshake. libzmq's monitor reports only the latter.
     */
    public boolean bySocket() {
        return bySocket;
    }

    @Override
    public String toString() {
        return type + " " + endpoint + (remoteAddress == null ? "" : " " + remoteAddress)
                + (detail == null ? "" : ": " + detail);
    }
}
