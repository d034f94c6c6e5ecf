package io.zmtp.codec;

import java.net.SocketAddress;

/**
 * User event fired by {@link ZmtpHandshakeHandler} once the greeting and security handshake are done, after the
 * frame handlers are installed and before the first message is delivered. It carries what was negotiated and what
 * the peer announced; {@link ZmtpHandshakeHandler#handshakeFuture()} completes with the same object. A failed
 * handshake fires {@link ZmtpHandshakeFailureEvent} instead.
 */
public final class ZmtpHandshakeSuccessEvent {
    private final ZmtpVersion version;
    private final String mechanism;
    private final ZmtpMetadata peerMetadata;
    private final SocketAddress remoteAddress;
    private final String userId;
    private final ZmtpMetadata authMetadata;

    /** A handshake without authentication: no user id, no authenticator metadata. */
    public ZmtpHandshakeSuccessEvent(ZmtpVersion version, String mechanism, ZmtpMetadata peerMetadata,
                                SocketAddress remoteAddress) {
        this(version, mechanism, peerMetadata, remoteAddress, "", ZmtpMetadata.EMPTY);
    }

    /**
     * @param userId       the user id this side's authenticator gave the peer ("" if none)
     * @param authMetadata the properties this side's authenticator attached to the connection
     */
    public ZmtpHandshakeSuccessEvent(ZmtpVersion version, String mechanism, ZmtpMetadata peerMetadata,
                                SocketAddress remoteAddress, String userId, ZmtpMetadata authMetadata) {
        this.version = version;
        this.mechanism = mechanism;
        this.peerMetadata = peerMetadata;
        this.remoteAddress = remoteAddress;
        this.userId = userId;
        this.authMetadata = authMetadata;
    }

    /** The negotiated protocol version. */
    public ZmtpVersion version() {
        return version;
    }

    /** The security mechanism ("NULL" for ZMTP 1.0/2.0 peers, which have none). */
    public String mechanism() {
        return mechanism;
    }

    /**
     * What the peer announced, as it claimed it: nothing in it is checked (a {@code User-Id} property is the peer's
     * word, not {@link #userId()}). For 1.0 and 2.0 peers it is made from their greeting: Identity, and for 2.0 peers
     * Socket-Type.
     */
    public ZmtpMetadata peerMetadata() {
        return peerMetadata;
    }

    /** The peer's socket type, or {@code null} for a ZMTP 1.0 peer, which doesn't say. */
    public ZmtpSocketType peerSocketType() {
        return peerMetadata.socketType();
    }

    /** The peer's announced identity; empty if none. */
    public byte[] peerIdentity() {
        return peerMetadata.identity();
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * The user id this side's authenticator gave the peer (a PLAIN username, a CURVE key in Z85 with
     * {@code DefaultZmtpAuthenticator}; libzmq's "User-Id" property); "" if the peer was not authenticated by it.
     */
    public String userId() {
        return userId;
    }

    /**
     * The properties this side's authenticator attached to the connection (a ZAP reply's metadata). Kept apart from
     * {@link #peerMetadata()}: those are what the peer claims about itself, these what this side established.
     */
    public ZmtpMetadata authMetadata() {
        return authMetadata;
    }

    @Override
    public String toString() {
        return "ZmtpHandshakeSuccessEvent{" + version + ", " + mechanism + ", " + remoteAddress + ", " + peerMetadata
                + (userId.isEmpty() ? "" : ", user " + userId) + (authMetadata.isEmpty() ? "" : ", " + authMetadata)
                + '}';
    }
}
