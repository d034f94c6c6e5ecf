package io.zmtp.socket;

import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

import java.net.SocketAddress;

/**
 * One peer of a socket: a connection it accepted, or an endpoint it connects to (which keeps its handle across
 * reconnections, as libzmq keeps its pipe). Handles come from {@link ZmtpSocket#peers()},
 * {@link ZmtpSocket#lastPeer()} and {@link ZmtpSocketEvent#peer()}; there is one per peer, so {@code ==} compares
 * them. A handle stays valid after its peer is gone ({@link State#CLOSED}): its counters keep their last values.
 *
 * <h2>What the peer claims, and what was established</h2>
 * Some of what a handle tells is the peer's own say, unchecked; the rest this side established. Decide on the second.
 * <ul>
 *   <li><b>Claimed by the peer</b>: {@link #metadata()} (its READY or INITIATE properties, or what a 1.0/2.0 greeting
 *       said; a {@code User-Id} or any other property in it is only the peer's word), {@link #socketType()} (checked
 *       only against the rfc 23 compatibility table), and {@link #routingId()} on a ROUTER (the identity the peer
 *       announced, or one this side made up when it announced none).</li>
 *   <li><b>Established by this side</b>: {@link #userId()} and {@link #authMetadata()} (set by this socket's security
 *       mechanism and authenticator or ZAP handler, and by nothing the peer sends), {@link #remoteAddress()} and
 *       {@link #localAddress()} (from the transport; over tcp as trustworthy as the network), {@link #version()}
 *       (what the two greetings negotiated).</li>
 * </ul>
 *
 * <h2>Queues</h2>
 * Counts read from any thread are a snapshot while messages flow: outgoing counts are exact once the I/O thread has
 * drained, incoming ones once the application has received. Bytes are the frames' content, without ZMTP framing.
 *
 * <h2>Threads</h2>
 * Every method may be called from any thread; {@link #disconnect()} and {@link #clearOutgoing()} take the socket's
 * lock, so don't call them from a monitor listener running on an I/O thread.
 */
public interface ZmtpPeer {
    /** Where a peer is in its life. */
    enum State {
        /** A connecting socket's peer with no connection up (never connected yet, or between reconnections). */
        CONNECTING,
        /** Handshake done, connection up. */
        CONNECTED,
        /** Its connection is gone; what it sent may still be queued for the application. */
        DISCONNECTED,
        /** Dropped by the socket: queues released, never comes back. */
        CLOSED
    }

    State state();

    /** The endpoint: as given to {@code connect}, or as {@code bind} returned it for an accepted peer. */
    String endpoint();

    /** Whether the socket connects to this peer (false: it accepted the peer's connection). */
    boolean isOutgoing();

    /**
     * The routing id a ROUTER or STREAM socket knows this peer by (what it prepends to the peer's messages), a copy;
     * null for other types, before the handshake, or for a ROUTER peer refused for announcing an id in use.
     */
    byte[] routingId();

    /** The peer's address on its current (or last) connection, or null if it never connected. */
    SocketAddress remoteAddress();

    /** This side's address on that connection, or null. */
    SocketAddress localAddress();

    /** The ZMTP version of the last handshake, or null. */
    ZmtpVersion version();

    /** The socket type the peer announced, or null (before the handshake, a ZMTP 1.0 peer, a STREAM peer). */
    ZmtpSocketType socketType();

    /**
     * The metadata the peer announced in its last handshake, as it claimed it (nothing in it is checked, a
     * {@code User-Id} property included); empty before one.
     */
    ZmtpMetadata metadata();

    /**
     * The user id this socket's authenticator gave the peer in its last handshake (PLAIN's user name; for CURVE what
     * the authenticator or ZAP handler returned, e.g. the client's key in Z85), libzmq's {@code User-Id}; null with
     * NULL security or when nothing authenticated the peer. Never taken from what the peer sent.
     */
    String userId();

    /**
     * The properties this socket's authenticator or ZAP handler attached to the peer in its last handshake (ZAP's
     * metadata frame); empty when nothing authenticated the peer. Never taken from what the peer sent.
     */
    ZmtpMetadata authMetadata();

    // ---- queues and counters

    /** Messages queued for the peer and not yet written to its connection. */
    int outgoingMessages();

    /** Bytes of the messages queued for the peer. */
    long outgoingBytes();

    /** Messages received from the peer and not yet taken by the application. */
    int incomingMessages();

    /** Bytes of the messages received from the peer and not yet taken by the application. */
    long incomingBytes();

    /** Whether the outgoing queue is at SNDHWM (what a send then does depends on the overflow policy). */
    boolean isOutgoingHwmReached();

    /** Whether the incoming queue reached RCVHWM, so the socket has stopped reading the peer's connection. */
    boolean isIncomingHwmReached();

    /** Messages written to the peer's connections. */
    long sentCount();

    /** Messages received from the peer's connections. */
    long receivedCount();

    /** Messages meant for the peer and dropped (overflow, cleared, discarded with a lost connection). */
    long droppedCount();

    // ---- steering

    /**
     * Releases every message queued for the peer and not yet handed to its connection; returns how many (they
     * count as dropped).
     */
    int clearOutgoing();

    /**
     * Disconnects the peer: closes its connection and releases what is queued for it (counted as dropped). An
     * accepted peer is gone for good (it may connect again as a new peer); a peer the socket connects to stops
     * being reconnected, as {@link ZmtpSocket#disconnect(String)} does for its endpoint. Idempotent.
     */
    void disconnect();
}
