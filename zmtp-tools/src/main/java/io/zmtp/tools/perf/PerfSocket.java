package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;

/**
 * What the perf tools need from a ZeroMQ socket: blocking send and receive of whole messages, with the socket type's
 * envelope (REQ/REP's empty delimiter) added and stripped underneath, a send queue bounded by a high-water mark, and
 * a close that lingers until queued messages are written.
 *
 * <p>{@link CodecPerfSocket} implements it on the codec alone; once zmtp-socket's {@code ZmqSocket} is there, an
 * adapter around it replaces that class in {@link PerfSockets} and the tools stay as they are.
 *
 * <p>One thread uses a socket: the one that opened it.
 */
public interface PerfSocket extends AutoCloseable {

    /** Queues {@code message} (taking over its reference), blocking while the send queue is at its high-water mark. */
    void send(ZmtpMessage message);

    /** Blocks for the next message (its body, without envelope); the caller releases it. */
    ZmtpMessage receive();

    /** Writes what is still queued (waiting as long as it takes, like libzmq's default linger), then closes. */
    @Override
    void close();
}
