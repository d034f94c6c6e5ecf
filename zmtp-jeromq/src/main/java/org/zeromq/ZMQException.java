package org.zeromq;

/**
 * An error with JeroMQ's error code ({@link #getErrorCode()}, one of {@link ZMQ.Error}'s codes): ETERM when the
 * context was closed under a call, EINTR when a blocking call was interrupted (the socket stays usable), EFSM for a
 * REQ or REP out of turn, EADDRINUSE for a port taken, and so on.
 */
public class ZMQException extends UncheckedZMQException {
    private static final long serialVersionUID = -978820750094924644L;

    private final int code;

    /** An exception for error {@code errno}. */
    public ZMQException(int errno) {
        super("Errno " + errno);
        this.code = errno;
    }

    /** An exception for error {@code errno} with {@code message}. */
    public ZMQException(String message, int errno) {
        super(message);
        this.code = errno;
    }

    /** An exception for error {@code errno} with {@code message}, caused by {@code cause}. */
    public ZMQException(String message, int errno, Throwable cause) {
        super(message, cause);
        this.code = errno;
    }

    /** The error code, one of {@link ZMQ.Error}'s. */
    public int getErrorCode() {
        return code;
    }

    @Override
    public String toString() {
        return super.toString() + " : " + ErrorCodes.describe(code);
    }
}
