package org.zeromq;

import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;

import java.net.BindException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * What every {@link ZMQ.Socket} method stands on: the netty-zmtp socket, JeroMQ's errno, and the mapping of
 * netty-zmtp's exceptions onto JeroMQ's error codes.
 *
 * <p>Not thread-safe, as JeroMQ's sockets are not (the thread-safe types aside, whose calls never touch the
 * frame-at-a-time state): one thread at a time, or threads that hand the socket over with a happens-before.
 */
abstract class SocketCore {
    final ZmtpSocket zmtp;
    final SocketType socketType;
    final ContextImpl context;
    /** The last error, as JeroMQ's {@code base.errno()}: set by a failed call, left as is by a successful one. */
    volatile int errno;
    /** Closed by the application (ENOTSOCK from then on), as opposed to by its context terminating (ETERM). */
    volatile boolean closedByApplication;

    SocketCore(ContextImpl context, SocketType type) {
        this.context = context;
        this.socketType = type;
        if (type.zmtpType() == null) {
            // JeroMQ has the number but no implementation either.
            throw new IllegalArgumentException("socket type " + type + " is not supported");
        }
        try {
            this.zmtp = context.zmtp().socket(type.zmtpType());
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** JeroMQ's error code for what netty-zmtp threw. */
    final int codeOf(RuntimeException e) {
        if (e instanceof ZmtpSocketException.Interrupted) {
            return ErrorCodes.EINTR;
        }
        if (e instanceof ZmtpSocketException.Closed) {
            return closedByApplication && !context.isTerminating() ? ErrorCodes.ENOTSOCK : ErrorCodes.ETERM;
        }
        if (e instanceof ZmtpSocketException.QueueFull) {
            return ErrorCodes.EAGAIN;
        }
        if (e instanceof ZmtpSocketException.HostUnreachable) {
            return ErrorCodes.EHOSTUNREACH;
        }
        if (e instanceof ZmtpSocketException.IllegalState) {
            return ErrorCodes.EFSM;
        }
        if (e instanceof ZmtpSocketException.EndpointFailed) {
            Throwable cause = e.getCause();
            if (cause instanceof BindException) {
                return ErrorCodes.EADDRINUSE;
            }
            if (cause instanceof UnknownHostException) {
                return ErrorCodes.EINVAL;
            }
            String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (m.startsWith("not bound") || m.startsWith("not connected")) {
                // unbind or disconnect of an endpoint the socket doesn't have: libzmq's ENOENT.
                return ErrorCodes.ENOENT;
            }
            if (m.contains("in use") || m.contains("already bound")) {
                return ErrorCodes.EADDRINUSE;
            }
            if (m.contains("protocol") || m.contains("transport")) {
                return ErrorCodes.EPROTONOSUPPORT;
            }
            return ErrorCodes.EINVAL;
        }
        if (e instanceof ZmtpSocketException.InvalidMessage || e instanceof IllegalArgumentException) {
            return ErrorCodes.EINVAL;
        }
        if (e instanceof UnsupportedOperationException) {
            return ErrorCodes.ENOTSUP;
        }
        return ErrorCodes.EFAULT;
    }

    /** Records the error of {@code e} and returns the ZMQException to throw, keeping {@code e} as its cause. */
    final ZMQException failure(RuntimeException e) {
        if (e instanceof ZMQException) {
            errno = ((ZMQException) e).getErrorCode();
            return (ZMQException) e;
        }
        int code = codeOf(e);
        errno = code;
        return new ZMQException(e.getMessage(), code, e);
    }

    /** Records {@code code} and returns the ZMQException to throw. */
    final ZMQException failure(int code, String message) {
        errno = code;
        return new ZMQException(message, code);
    }

    /** The netty-zmtp socket behind this one (a netty-zmtp API for what JeroMQ's has no equivalent of). */
    public ZmtpSocket zmtpSocket() {
        return zmtp;
    }
}
