package org.zeromq;

/**
 * Root of the unchecked exceptions of the {@code org.zeromq} API, as in JeroMQ: catching it catches every error the
 * sockets, contexts and pollers report.
 */
public abstract class UncheckedZMQException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Without message or cause. */
    public UncheckedZMQException() {
    }

    /** With {@code message}. */
    public UncheckedZMQException(String message) {
        super(message);
    }

    /** Caused by {@code cause}. */
    public UncheckedZMQException(Throwable cause) {
        super(cause);
    }

    /** With {@code message}, caused by {@code cause}. */
    public UncheckedZMQException(String message, Throwable cause) {
        super(message, cause);
    }
}
