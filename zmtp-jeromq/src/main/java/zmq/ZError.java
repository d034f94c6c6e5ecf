package zmq;

import org.zeromq.ZMQ;

/**
 * JeroMQ's error numbers, under the name its applications import them by ({@code zmq.ZError}, as the ZeroMQ Guide's
 * Java examples do). They are the codes of {@link ZMQ.Error} and of {@link org.zeromq.ZMQException#getErrorCode()}:
 * the BSD errno values JeroMQ took for the POSIX errors, and libzmq's offsets from its "hausnumero" for ZeroMQ's own.
 *
 * <p>Only the numbers and {@link #toString(int)}: JeroMQ's nested exception classes and {@code exccode} belong to
 * its internals and are absent (see docs/jeromq.md).
 */
public final class ZError {
    private static final int HAUSNUMERO = 156384712;

    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EACCESS = 13;
    public static final int EFAULT = 14;
    public static final int EINVAL = 22;
    public static final int EAGAIN = 35;
    public static final int EINPROGRESS = 36;
    public static final int EPROTONOSUPPORT = 43;
    public static final int ENOTSUP = 45;
    public static final int EADDRINUSE = 48;
    public static final int EADDRNOTAVAIL = 49;
    public static final int ENETDOWN = 50;
    public static final int ENOBUFS = 55;
    public static final int EISCONN = 56;
    public static final int ENOTCONN = 57;
    public static final int ECONNREFUSED = 61;
    public static final int EHOSTUNREACH = 65;
    public static final int ECANCELED = 125;

    public static final int ENOTSOCK = HAUSNUMERO + 5;
    public static final int EMSGSIZE = HAUSNUMERO + 10;
    public static final int EAFNOSUPPORT = HAUSNUMERO + 11;
    public static final int ENETUNREACH = HAUSNUMERO + 12;
    public static final int ECONNABORTED = HAUSNUMERO + 13;
    public static final int ECONNRESET = HAUSNUMERO + 14;
    public static final int ETIMEDOUT = HAUSNUMERO + 16;
    public static final int ENETRESET = HAUSNUMERO + 18;
    public static final int EFSM = HAUSNUMERO + 51;
    public static final int ENOCOMPATPROTO = HAUSNUMERO + 52;
    public static final int ETERM = HAUSNUMERO + 53;
    public static final int EMTHREAD = HAUSNUMERO + 54;
    public static final int EIOEXC = HAUSNUMERO + 105;
    public static final int ESOCKET = HAUSNUMERO + 106;
    public static final int EMFILE = HAUSNUMERO + 107;
    public static final int EPROTO = HAUSNUMERO + 108;

    private ZError() {
    }

    /**
     * The error's description, as {@link ZMQ.Error#getMessage()} gives it.
     *
     * @param code one of the codes above, or 0
     * @return the description
     * @throws IllegalArgumentException for a code that is none of them (as in JeroMQ)
     */
    public static String toString(int code) {
        return ZMQ.Error.findByCode(code).getMessage();
    }
}
