package io.zmtp.codec;

import java.net.SocketAddress;

/**
 * User event fired by {@link ZmtpHandshakeHandler} when a handshake fails; the connection is closed right after.
 * {@link #reason()} says why in a form to branch on; {@link #cause()} is the exception that also fails
 * {@link ZmtpHandshakeHandler#handshakeFuture()} and the writes held during the handshake.
 */
public final class ZmtpHandshakeFailureEvent {
    private final ZmtpHandshakeException cause;
    private final SocketAddress remoteAddress;

    public ZmtpHandshakeFailureEvent(ZmtpHandshakeException cause, SocketAddress remoteAddress) {
        this.cause = cause;
        this.remoteAddress = remoteAddress;
    }

    public ZmtpHandshakeFailureReason reason() {
        return cause.reason();
    }

    public String message() {
        return cause.getMessage();
    }

    public ZmtpHandshakeException cause() {
        return cause;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    @Override
    public String toString() {
        return "ZmtpHandshakeFailureEvent{" + cause.reason() + ": " + cause.getMessage() + ", " + remoteAddress + '}';
    }
}
