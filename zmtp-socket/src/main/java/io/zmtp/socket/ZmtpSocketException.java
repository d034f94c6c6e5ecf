package io.zmtp.socket;

/**
 * Root of the exceptions the socket API throws; unchecked. Subclasses name the libzmq error they correspond to.
 * A message passed to a send that throws has been released. What libzmq reports as EAGAIN is not an exception
 * here: a non-blocking send returns false and a non-blocking receive null.
 */
public class ZmtpSocketException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ZmtpSocketException(String message) {
        super(message);
    }

    public ZmtpSocketException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A ROUTER_MANDATORY ROUTER, or a SERVER or PEER, was asked to send to a routing id it has no peer for (libzmq
     * EHOSTUNREACH).
     */
    public static class HostUnreachable extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public HostUnreachable(String message) {
            super(message);
        }
    }

    /**
     * The message can't be sent by this type as it is (libzmq EINVAL): a multipart message on a thread-safe type, a
     * SERVER or PEER message without a routing id, a RADIO message without a group. Nothing was queued; the message
     * is released, as by every send that fails.
     */
    public static class InvalidMessage extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public InvalidMessage(String message) {
            super(message);
        }
    }

    /**
     * The operation is not allowed in the socket's current state or for its type (libzmq EFSM, ENOTSUP): a REQ that
     * sends twice, a REP that sends before receiving, a SUB that sends.
     */
    public static class IllegalState extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public IllegalState(String message) {
            super(message);
        }
    }

    /**
     * A send found the peer's queue at SNDHWM under the {@link ZmtpOverflowPolicy#FAIL} policy (libzmq's EAGAIN,
     * as an exception because the caller asked not to wait).
     */
    public static class QueueFull extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public QueueFull(String message) {
            super(message);
        }
    }

    /**
     * A tracked send's message will never be written: dropped by the overflow policy, unroutable, cleared, its peer
     * gone or the socket closed before it was written ({@code ZmtpSocket.sendTracked}).
     */
    public static class NotDelivered extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public NotDelivered(String message) {
            super(message);
        }

        public NotDelivered(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The socket or its context is closed (libzmq ETERM / ENOTSOCK). */
    public static class Closed extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public Closed(String message) {
            super(message);
        }
    }

    /** A blocking call was interrupted; the thread's interrupt flag is set again and the socket is unharmed. */
    public static class Interrupted extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public Interrupted(String message, InterruptedException cause) {
            super(message, cause);
        }
    }

    /**
     * bind, connect, unbind or disconnect failed: a malformed endpoint or an unsupported transport (libzmq EINVAL,
     * EPROTONOSUPPORT), an address in use or not available (EADDRINUSE, EADDRNOTAVAIL), or an endpoint the socket
     * isn't bound or connected to (ENOENT).
     */
    public static class EndpointFailed extends ZmtpSocketException {
        private static final long serialVersionUID = 1L;

        public EndpointFailed(String message) {
            super(message);
        }

        public EndpointFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
