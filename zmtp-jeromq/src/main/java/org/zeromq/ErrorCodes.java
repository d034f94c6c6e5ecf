package org.zeromq;

/**
 * JeroMQ's error numbers (its {@code zmq.ZError}): the BSD errno values it took for the POSIX ones and libzmq's
 * "hausnumero" offsets for ZeroMQ's own. An application compares {@link ZMQException#getErrorCode()} against
 * {@link ZMQ.Error#getCode()}, so the numbers are JeroMQ's, not Linux's.
 */
final class ErrorCodes {
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EACCESS = 13;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int EAGAIN = 35;
    static final int EINPROGRESS = 36;
    static final int EPROTONOSUPPORT = 43;
    static final int ENOTSUP = 45;
    static final int EADDRINUSE = 48;
    static final int EADDRNOTAVAIL = 49;
    static final int ENETDOWN = 50;
    static final int ENOBUFS = 55;
    static final int EISCONN = 56;
    static final int ENOTCONN = 57;
    static final int ECONNREFUSED = 61;
    static final int EHOSTUNREACH = 65;
    static final int ECANCELED = 125;

    private static final int HAUSNUMERO = 156384712;
    static final int ENOTSOCK = HAUSNUMERO + 5;
    static final int EMSGSIZE = HAUSNUMERO + 10;
    static final int EAFNOSUPPORT = HAUSNUMERO + 11;
    static final int ENETUNREACH = HAUSNUMERO + 12;
    static final int ECONNABORTED = HAUSNUMERO + 13;
    static final int ECONNRESET = HAUSNUMERO + 14;
    static final int ETIMEDOUT = HAUSNUMERO + 16;
    static final int ENETRESET = HAUSNUMERO + 18;
    static final int EFSM = HAUSNUMERO + 51;
    static final int ENOCOMPATPROTO = HAUSNUMERO + 52;
    static final int ETERM = HAUSNUMERO + 53;
    static final int EMTHREAD = HAUSNUMERO + 54;
    static final int EIOEXC = HAUSNUMERO + 105;
    static final int ESOCKET = HAUSNUMERO + 106;
    static final int EMFILE = HAUSNUMERO + 107;
    static final int EPROTO = HAUSNUMERO + 108;

    private ErrorCodes() {
    }

    /** The error's name and description, or the bare number for a code JeroMQ doesn't have. */
    static String describe(int code) {
        if (code == ECANCELED) {
            return "ECANCELED: Operation canceled";
        }
        try {
            ZMQ.Error e = ZMQ.Error.findByCode(code);
            return e.name() + ": " + e.getMessage();
        } catch (IllegalArgumentException unknown) {
            return "errno " + code;
        }
    }
}
