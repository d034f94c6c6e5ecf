package io.zmtp.socket;

import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.internal.ConnectionEvent;
import io.zmtp.socket.internal.Peer;

import java.net.SocketAddress;
import java.time.Duration;

/**
 * Something that happened to a socket, its endpoints or one of its connections, as seen by a listener given to
 * {@link ZmtpSocket#monitor(java.util.function.Consumer)}: libzmq's monitor events (ZMQ_EVENT_*), with the
 * endpoint, the peer's address, version and identity, the reconnection delay or the failure reason attached, plus
 * two of our own ({@link Type#PROTOCOL_ERROR}, {@link Type#MESSAGES_DROPPED}).
 *
 * <h2>Order</h2>
 * A socket's events reach its listeners one at a time, in the order they happened: for one connection always
 * {@code CONNECT_DELAYED}, {@code CONNECTED} (or {@code ACCEPTED}), then {@code HANDSHAKE_SUCCEEDED} or
 * {@code HANDSHAKE_FAILED}, then {@code DISCONNECTED}; a connecting socket then {@code CONNECT_RETRIED} with the
 * delay before its next attempt. One exception: a connection lost by the peer during its handshake (closed or reset)
 * reports {@code DISCONNECTED} before its {@code HANDSHAKE_FAILED} ({@code CONNECTION_CLOSED}), since the loss is
 * seen first. {@code MONITOR_STOPPED} is the last event of a closed socket.
 */
public final class ZmtpSocketEvent {
    /** What happened; the names are libzmq's {@code ZMQ_EVENT_*}. */
    public enum Type {
        /** A connection to a peer was established (before its handshake). libzmq: ZMQ_EVENT_CONNECTED. */
        CONNECTED,
        /** A connection attempt started and has not completed yet. */
        CONNECT_DELAYED,
        /** A connection attempt failed or a connection was lost; the next attempt follows {@link #reconnectDelay()}. */
        CONNECT_RETRIED,
        /** {@code bind} succeeded: the socket listens on {@link #endpoint()}. */
        LISTENING,
        /** {@code bind} failed; {@link #cause()} says why. */
        BIND_FAILED,
        /** A listener accepted a connection (before its handshake). */
        ACCEPTED,
        /**
         * A listener failed to accept a connection (out of file descriptors, mostly); {@link #cause()} says why. The
         * listener stops accepting for a second, then goes on. libzmq: ZMQ_EVENT_ACCEPT_FAILED.
         */
        ACCEPT_FAILED,
        /** A listener was closed ({@code unbind} or {@code close}). */
        CLOSED,
        /** A connection closed, whether or not its handshake had completed. */
        DISCONNECTED,
        /** The socket was closed: the last event a listener gets. */
        MONITOR_STOPPED,
        /** The handshake with a peer completed; messages flow. {@link #peer()} is the peer. */
        HANDSHAKE_SUCCEEDED,
        /** A handshake failed: {@link #failureReason()} and {@link #detail()} say why. */
        HANDSHAKE_FAILED,
        /** A connection was closed because the peer broke the protocol after the handshake. */
        PROTOCOL_ERROR,
        /**
         * Messages were dropped (HWM under a dropping overflow policy, unroutable, queues cleared or discarded with
         * their peer); {@link #count()} says how many since the previous such event. A burst of drops raises one.
         */
        MESSAGES_DROPPED
    }

    private final ConnectionEvent event;

    ZmtpSocketEvent(ConnectionEvent event) {
        this.event = event;
    }

    public Type type() {
        return event.type();
    }

    /** The endpoint the event belongs to, as given to bind or connect (as bind returned it for accepted ones). */
    public String endpoint() {
        return event.endpoint();
    }

    /** The peer's address (connection events), or the address listened on (LISTENING); null if none. */
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

    /** The peer the event is about, or null for events about an endpoint or the socket. */
    public ZmtpPeer peer() {
        return event.pipe() == null ? null : Peer.of(event.pipe());
    }

    /** Why a handshake failed (HANDSHAKE_FAILED), or null. */
    public ZmtpHandshakeFailureReason failureReason() {
        return event.failureReason();
    }

    /**
     * What made a bind or an accept fail (BIND_FAILED, ACCEPT_FAILED), or a handshake (HANDSHAKE_FAILED: the codec's
     * {@link io.zmtp.codec.ZmtpHandshakeException}, a {@link io.zmtp.codec.ZmtpAuthenticationException} when
     * credentials were refused, which says by which side and with which ZAP status); null otherwise.
     */
    public Throwable cause() {
        return event.cause();
    }

    /**
     * DISCONNECTED: true when this socket ended the connection itself (its close, {@code disconnect} or
     * {@code unbind}, {@link ZmtpPeer#disconnect()}), false when the peer closed it, the network failed or the
     * handshake did. libzmq's (and JeroMQ's) monitors report only the second kind. False for other events.
     */
    public boolean bySocket() {
        return event.bySocket();
    }

    /** The delay before the next connection attempt (CONNECT_RETRIED), or null. */
    public Duration reconnectDelay() {
        return event.type() == Type.CONNECT_RETRIED ? Duration.ofMillis(event.value()) : null;
    }

    /** How many messages were dropped since the previous MESSAGES_DROPPED event; 0 for other events. */
    public long count() {
        return event.type() == Type.MESSAGES_DROPPED ? event.value() : 0;
    }

    /** Why (for failures), or null. */
    public String detail() {
        return event.detail();
    }

    ConnectionEvent internal() {
        return event;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder().append(type());
        if (endpoint() != null) {
            sb.append(' ').append(endpoint());
        }
        if (remoteAddress() != null) {
            sb.append(" peer ").append(remoteAddress());
        }
        if (version() != null) {
            sb.append(' ').append(version());
        }
        if (peerSocketType() != null) {
            sb.append(' ').append(peerSocketType());
        }
        if (type() == Type.CONNECT_RETRIED) {
            sb.append(" in ").append(event.value()).append(" ms");
        }
        if (type() == Type.MESSAGES_DROPPED) {
            sb.append(' ').append(event.value());
        }
        if (detail() != null) {
            sb.append(": ").append(detail());
        }
        return sb.toString();
    }
}
