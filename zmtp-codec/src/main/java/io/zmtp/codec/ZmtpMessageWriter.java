package io.zmtp.codec;

/**
 * Writes application objects of type {@code T} as ZMTP frames, so an application can send its own types without
 * building a {@link ZmtpMessage}: a plug-in of {@link ZmtpFrameEncoder}, not a channel handler (as Netty's
 * {@code Http2FrameWriter} is). Configured with {@link ZmtpConfig.Builder#messageWriter}; the codec calls it for
 * every outbound object that is an instance of {@link #messageType()} and releases the object afterwards if it is
 * reference-counted. Implementations are usually stateless and shared by all connections.
 */
public interface ZmtpMessageWriter<T> {

    /** The type of the objects this writer writes. */
    Class<T> messageType();

    /** Writes {@code message} into {@code frames} as one or more frames (the last with {@code more == false}). */
    void writeMessage(T message, ZmtpFrameSink frames);

    /** An estimate of the bytes {@code message} takes on the wire, so the output buffer is sized once. */
    default int estimateSize(T message) {
        return 256;
    }
}
