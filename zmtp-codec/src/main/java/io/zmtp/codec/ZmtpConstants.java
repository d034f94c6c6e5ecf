package io.zmtp.codec;

/**
 * Wire constants of ZMTP (rfc 13, 15, 23, 37) and the defaults this codec uses.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1)</a>
 */
public final class ZmtpConstants {

    /** Frame flag: more frames of this message follow. */
    public static final int FLAG_MORE = 0x01;
    /** Frame flag: the size field is 8 bytes. */
    public static final int FLAG_LONG = 0x02;
    /** Frame flag (3.x only): the frame is a command. */
    public static final int FLAG_COMMAND = 0x04;
    /** Bits that no ZMTP version defines; a frame with any of them set is malformed. */
    public static final int FLAGS_RESERVED = 0xF8;

    /** Largest body that still fits the short (one size byte) frame form. */
    public static final int MAX_SHORT_FRAME_SIZE = 255;

    /** Length of the 3.x greeting. */
    public static final int GREETING_LENGTH = 64;
    /** Length of the signature, the first greeting stage (FF, 8 padding bytes, 7F). */
    public static final int SIGNATURE_LENGTH = 10;
    /** Length of the mechanism field in a 3.x greeting. */
    public static final int MECHANISM_LENGTH = 20;

    /**
     * Default cap on one message (all its frames together): large enough for ordinary payloads, small enough that
     * a hostile 64-bit size field can't make us reserve a buffer that hurts the JVM.
     */
    public static final long DEFAULT_MAX_MESSAGE_SIZE = 64L * 1024 * 1024;
    /**
     * What each frame of a multipart message counts toward {@link #DEFAULT_MAX_MESSAGE_SIZE maxMessageSize} on top of
     * its body while the decoder holds it waiting for the rest of the message: about what holding it costs (a slice
     * object and a slot in the message's frame array). Without it, a peer sending empty MORE frames ({@code 01 00})
     * forever would make us hold 64+ bytes per 2 wire bytes and never reach the limit. The last frame of a message,
     * and so a single-frame message, counts only its body, as libzmq's ZMQ_MAXMSGSIZE does.
     */
    public static final int FRAME_OVERHEAD = 64;
    /** libzmq's ZMQ_HANDSHAKE_IVL default. */
    public static final long DEFAULT_HANDSHAKE_TIMEOUT_MILLIS = 30_000;
    /** Cap on any command body received before the handshake completes. */
    public static final int MAX_HANDSHAKE_COMMAND_SIZE = 64 * 1024;
    /** libzmq truncates PING contexts to this length when it answers with PONG. */
    public static final int MAX_PING_CONTEXT_LENGTH = 16;

    private ZmtpConstants() {
    }
}
