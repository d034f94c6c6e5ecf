package io.zmtp.codec;

/**
 * Writes application objects of type {@code T} as ZMTP frames, so an application can send its own types without
 * building a {@link ZmtpMessage}. Configured with {@link ZmtpConfig.Builder#messageEncoder}; the codec calls it for
 * every outbound object that is an instance of {@link #messageType()} and releases the object afterwards if it is
 * reference-counted. Implementations are usually stateless and shared by all connections.
 */
public interface ZmtpMessageEncoder<T> {

    /** The type of the objects this encoder writes. */
    Class<T> messageType();

    /** Writes {@code message} as one or more frames (the last with {@code more == false}). */
    void encode(T message, ZmtpFrameWriter writer);

    /** An estimate of the bytes {@code message} takes on the wire, so the output buffer is sized once. */
    default int estimateSize(T message) {
        return 256;
    }
}
