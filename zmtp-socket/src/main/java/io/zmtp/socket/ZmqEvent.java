package io.zmtp.socket;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

import java.net.SocketAddress;

/**
 * Something that happened to one of a socket's connections, as seen by a listener given to
 * {@link ZmqSocket#monitor}: ZeroMQ's monitor events, with the peer's address, version and identity attached.
 */
public final class ZmqEvent {
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

    private final Type type;
    private final String endpoint;
    private final SocketAddress remoteAddress;
    private final ZmtpVersion version;
    private final ZmtpSocketType peerSocketType;
    private final byte[] peerIdentity;
    private final String detail;

    public ZmqEvent(Type type, String endpoint, SocketAddress remoteAddress, ZmtpVersion version,
                    ZmtpSocketType peerSocketType, byte[] peerIdentity, String detail) {
        this.type = type;
        this.endpoint = endpoint;
        this.remoteAddress = remoteAddress;
        this.version = version;
        this.peerSocketType = peerSocketType;
        this.peerIdentity = peerIdentity == null ? new byte[0] : peerIdentity.clone();
        this.detail = detail;
    }

    public Type type() {
        return type;
    }

    /** The endpoint the connection belongs to, as given to bind or connect. */
    public String endpoint() {
        return endpoint;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** The negotiated ZMTP version, or null before a handshake completed. */
    public ZmtpVersion version() {
        return version;
    }

    /** The peer's socket type, or null if unknown. */
    public ZmtpSocketType peerSocketType() {
        return peerSocketType;
    }

    public byte[] peerIdentity() {
        return peerIdentity.clone();
    }

    /** Why (for failures), or null. */
    public String detail() {
        return detail;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(type).append(' ').append(endpoint);
        if (remoteAddress != null) {
            sb.append(" peer ").append(remoteAddress);
        }
        if (version != null) {
            sb.append(' ').append(version);
        }
        if (peerSocketType != null) {
            sb.append(' ').append(peerSocketType);
        }
        if (detail != null) {
            sb.append(": ").append(detail);
        }
        return sb.toString();
    }
}
