package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.net.SocketAddress;

/** What a pipe reports to its socket's monitors; the public API shows it as a {@link ZmtpSocketEvent}. Immutable. */
public final class ConnectionEvent {
    private final ZmtpSocketEvent.Type type;
    private final String endpoint;
    private final SocketAddress remoteAddress;
    private final ZmtpVersion version;
    private final ZmtpSocketType peerSocketType;
    private final byte[] peerIdentity;
    private final String detail;

    ConnectionEvent(ZmtpSocketEvent.Type type, String endpoint, SocketAddress remoteAddress, ZmtpVersion version,
                    ZmtpSocketType peerSocketType, byte[] peerIdentity, String detail) {
        this.type = type;
        this.endpoint = endpoint;
        this.remoteAddress = remoteAddress;
        this.version = version;
        this.peerSocketType = peerSocketType;
        this.peerIdentity = peerIdentity == null ? new byte[0] : peerIdentity.clone();
        this.detail = detail;
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
}
