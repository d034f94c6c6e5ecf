package io.zmtp.codec;

import java.net.SocketAddress;

/**
 * User event fired when a connection is closed after its handshake because the peer broke the protocol (a malformed
 * frame, an oversized message, an ERROR command, a heartbeat timeout). An event, not an exception: the codec has
 * already logged and closed; {@link #cause()} says what happened.
 */
public final class ZmtpProtocolErrorEvent {
    private final SocketAddress remoteAddress;
    private final Throwable cause;

    public ZmtpProtocolErrorEvent(SocketAddress remoteAddress, Throwable cause) {
        this.remoteAddress = remoteAddress;
        this.cause = cause;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    public Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return "ZmtpProtocolErrorEvent{" + remoteAddress + ": " + cause.getMessage() + '}';
    }
}
