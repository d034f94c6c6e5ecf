package io.zmtp.socket;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.internal.ConnectionEvent;

import java.net.SocketAddress;

/**
 * Something that happened to one of a socket's connections, as seen by a listener given to
 * {@link ZmtpSocket#monitor}: ZeroMQ's monitor events, with the peer's address, version and identity attached.
 */
public final class ZmtpSocketEvent {
    /** What happened. */
    public enum Type {
        /** The handshake with a peer completed; messages flow. */
        CONNECTED,
        /** A connection whose handshake had completed closed. */
        DISCONNECTED,
        /** A handshake failed (bad greeting, incompatible socket type, wrong mechanism, timeout...). */
        HANDSHAKE_FAILED,
        /** A connection was closed because the peer broke the protocol after the handshake. */
        PROTOCOL_ERROR
    }

    private final ConnectionEvent event;

    ZmtpSocketEvent(ConnectionEvent event) {
        this.event = event;
    }

    public Type type() {
        return event.type();
    }

    /** The endpoint the connection belongs to, as given to bind or connect. */
    public String endpoint() {
        return event.endpoint();
    }

    public SocketAddress remoteAddress() {
        return event.remoteAddress();
    }

    /** The negotiated ZMTP version, or null before a handshake completed. */
    public ZmtpVersion version() {
        return event.version();
    }

    /** The peer's socket type, or null if unknown. */
    public ZmtpSocketType peerSocketType() {
        return event.peerSocketType();
    }

    /** The identity the peer announced (a copy); empty if none. */
    public byte[] peerIdentity() {
        return event.peerIdentityUnsafe().clone();
    }

    /** Why (for failures), or null. */
    public String detail() {
        return event.detail();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(type()).append(' ').append(endpoint());
        if (remoteAddress() != null) {
            sb.append(" peer ").append(remoteAddress());
        }
        if (version() != null) {
            sb.append(' ').append(version());
        }
        if (peerSocketType() != null) {
            sb.append(' ').append(peerSocketType());
        }
        if (detail() != null) {
            sb.append(": ").append(detail());
        }
        return sb.toString();
    }
}
