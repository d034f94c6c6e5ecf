package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;

/**
 * Carries a connection's frames once a mechanism that encrypts (CURVE) has finished its handshake: each frame
 * (message frames and commands alike) is sealed into one frame of its own on the way out, and each such frame is
 * opened on the way in. One instance per connection, called on its event loop only; it keeps the state of both
 * directions (keys, nonces), so it must never be shared, and is {@linkplain #close closed} with the connection.
 *
 * @see <a href="https://rfc.zeromq.org/spec/25/">25/ZMTP-CURVE, "The MESSAGE Command"</a>
 */
public interface ZmtpFrameCipher {
    /** Inner flag: more frames of this message follow. */
    int MORE = 0x01;
    /** Inner flag: the frame is a command (PING, SUBSCRIBE...), libzmq's extension to rfc 26. */
    int COMMAND = 0x02;

    /** The most bytes {@link #seal} writes for a frame of {@code length} bytes (headers included). */
    int sealedLength(int length);

    /**
     * Writes the sealed form of one frame, a whole ZMTP frame with its header, to {@code out}.
     *
     * @param content the frame body: {@code length} bytes from {@code index}, which this method doesn't consume
     * @param flags   {@link #MORE} and {@link #COMMAND}
     */
    void seal(ByteBuf content, int index, int length, int flags, ByteBuf out);

    /**
     * The most plaintext bytes a sealed frame body of {@code length} bytes can hold, or -1 if a body that short can't
     * be a sealed frame; what a decoder may allocate for it.
     */
    int openedLength(int length);

    /**
     * Opens the body of one received frame ({@code length} bytes of {@code in} from its reader index, which this
     * method consumes) and writes the frame's content to {@code out}.
     *
     * @return the frame's inner flags ({@link #MORE}, {@link #COMMAND})
     * @throws io.zmtp.codec.ZmtpCodecException if the frame is not a sealed frame, or is forged, tampered with,
     *                                          replayed or out of order
     */
    int open(ByteBuf in, int length, ByteBuf out);

    /**
     * The connection is gone (its pipeline is being torn down): zero the keys and let go of anything kept for this
     * connection outside it (per-thread buffers). Called on the connection's event loop, possibly more than once;
     * {@link #seal} and {@link #open} may throw after it. The default does nothing.
     */
    default void close() {
    }
}
