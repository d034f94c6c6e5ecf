package io.zmtp.socket.internal;

/**
 * What a {@link Pipe} tells its socket, from the I/O thread. Implementations must not block or take locks.
 */
public interface PipeListener {
    /**
     * The pipe's connection finished its handshake. Returns false to refuse the peer (e.g. a second PAIR peer);
     * the connection is then closed.
     */
    boolean pipeConnected(Pipe pipe);

    /** The pipe's connection closed. */
    void pipeDisconnected(Pipe pipe);

    /** Input arrived or output room freed up. */
    void pipeActivity(Pipe pipe);

    /** A connection event for monitors (I/O thread; must not block). */
    default void pipeEvent(ConnectionEvent event) {
    }

    /** A SUB/XSUB pipe just connected: write the subscription set (called on the I/O thread before queued output). */
    default void writeSubscriptions(Pipe pipe) {
    }
}
