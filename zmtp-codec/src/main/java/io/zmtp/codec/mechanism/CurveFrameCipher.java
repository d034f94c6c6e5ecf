package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpCodecException;

/**
 * CURVE after its handshake: every frame travels as a MESSAGE command, {@code [7]"MESSAGE"}, an 8-byte short nonce
 * and a box of the inner flags byte and the frame's bytes. Each direction has its own strictly increasing short
 * nonce (the client's continue after HELLO=1 and INITIATE=2, the server's after READY=1), so a nonce is never used
 * twice under the connection's key; a received nonce must be above the last one accepted, so a replayed or reordered
 * MESSAGE is refused.
 *
 * <p>Outer frame: as libzmq sends it, a plain message frame (flags {@code 00}, LONG above 255 bytes), neither
 * COMMAND nor MORE: MORE travels inside. On receive any outer flags are accepted (rfc 37 suggests COMMAND) and only
 * the inner flags count.
 *
 * @see <a href="https://rfc.zeromq.org/spec/25/">25/ZMTP-CURVE, "The MESSAGE Command"</a>
 * @see <a href="https://rfc.zeromq.org/spec/26/">26/CURVEZMQ, "The MESSAGE Command"</a>
 */
final class CurveFrameCipher implements ZmtpFrameCipher {
    /** {@code [7]"MESSAGE"}, the command name as the body starts with it. */
    private static final byte[] MESSAGE_NAME = {7, 'M', 'E', 'S', 'S', 'A', 'G', 'E'};
    /** Name, short nonce, tag and inner flags: what a frame's body grows by. */
    static final int OVERHEAD = MESSAGE_NAME.length + 8 + CryptoBox.TAG_LENGTH + 1;

    private final MessageBoxer sealer;
    private final MessageBoxer opener;
    private long nextNonce;
    private long lastPeerNonce;
    private boolean closed;

    /**
     * @param key           the connection's precomputed key (client's transient with server's transient)
     * @param server        whether this side is the server (its nonces are "CurveZMQMESSAGES")
     * @param nextNonce     the first short nonce this side sends
     * @param lastPeerNonce the last short nonce the peer used in the handshake
     */
    CurveFrameCipher(byte[] key, boolean server, long nextNonce, long lastPeerNonce) {
        this.sealer = new MessageBoxer(key, server ? "CurveZMQMESSAGES" : "CurveZMQMESSAGEC");
        this.opener = new MessageBoxer(key, server ? "CurveZMQMESSAGEC" : "CurveZMQMESSAGES");
        this.nextNonce = nextNonce;
        this.lastPeerNonce = lastPeerNonce;
    }

    @Override
    public int sealedLength(int length) {
        long body = (long) length + OVERHEAD;
        return (int) Math.min(Integer.MAX_VALUE, body + (body > 255 ? 9 : 2));
    }

    @Override
    public void seal(ByteBuf content, int index, int length, int flags, ByteBuf out) {
        if (length > Integer.MAX_VALUE - OVERHEAD - 9) {
            throw new ZmtpCodecException("frame of " + length + " bytes is too large to seal");
        }
        if (closed) {
            throw new ZmtpCodecException("CURVE cipher is closed");
        }
        if (nextNonce == -1L) {
            // 2^64 - 1 boxes: unreachable in practice, but a wrapped nonce would reuse the key stream.
            throw new ZmtpCodecException("CURVE short nonces exhausted on this connection");
        }
        int body = length + OVERHEAD;
        out.ensureWritable(body + 9);
        if (body > 255) {
            out.writeByte(0x02);
            out.writeLong(body);
        } else {
            out.writeByte(0);
            out.writeByte(body);
        }
        out.writeBytes(MESSAGE_NAME);
        long nonce = nextNonce++;
        out.writeLong(nonce);
        sealer.seal(nonce, flags & (MORE | COMMAND), content, index, length, out);
    }

    @Override
    public int openedLength(int length) {
        return length < OVERHEAD ? -1 : length - OVERHEAD;
    }

    @Override
    public int open(ByteBuf in, int length, ByteBuf out) {
        if (closed) {
            throw new ZmtpCodecException("CURVE cipher is closed");
        }
        if (length < OVERHEAD) {
            throw new ZmtpCodecException("CURVE frame of " + length + " bytes (expected: >= " + OVERHEAD + ")");
        }
        int r = in.readerIndex();
        for (int i = 0; i < MESSAGE_NAME.length; i++) {
            if (in.getByte(r + i) != MESSAGE_NAME[i]) {
                throw new ZmtpCodecException("CURVE frame is not a MESSAGE command");
            }
        }
        long nonce = in.getLong(r + MESSAGE_NAME.length);
        if (Long.compareUnsigned(nonce, lastPeerNonce) <= 0) {
            throw new ZmtpCodecException("CURVE MESSAGE nonce " + Long.toUnsignedString(nonce)
                    + " replayed or out of order (last: " + Long.toUnsignedString(lastPeerNonce) + ")");
        }
        in.skipBytes(MESSAGE_NAME.length + 8);
        int flags;
        try {
            flags = opener.open(nonce, in, length - MESSAGE_NAME.length - 8, out);
        } catch (CryptoBox.CryptoException e) {
            throw new ZmtpCodecException(e.getMessage());
        }
        // Only a box that opened moves the window: a forged nonce must not lock out the real ones.
        lastPeerNonce = nonce;
        return flags & (MORE | COMMAND);
    }

    /** Zeroes both directions' keys; the cipher refuses to seal or open from then on. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            sealer.close();
            opener.close();
        }
    }
}
