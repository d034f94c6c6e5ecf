package io.zmtp.codec;

import io.netty.buffer.ByteBuf;

/**
 * Reads frame headers: the one place where header bytes become flags and a size, for the handshake's commands, a
 * ZMTP 2.0 peer's identity frame and {@link ZmtpFrameDecoder}. ({@link ZmtpWire} writes them.)
 *
 * <p>A header is peeked at, {@code offset} bytes past the reader index, and nothing is consumed until the caller
 * has checked it and calls {@link #skip}. The 2.0/3.x layout (rfc 23 and rfc 15 "Framing": flags, then a 1-byte
 * size, or with LONG an 8-byte one) is read in two steps, {@link #readFlags} then {@link #readSize}, so a caller can
 * reject bad flags as soon as two bytes are in, before waiting for a long size. The 1.0 layout (rfc 13: a length that
 * counts the flags byte, 1 byte or FF and 8 bytes, then flags) is read by {@link #read10}. Sizes are as sent, 64-bit
 * and possibly negative; callers check them against their own limits, and {@link #isBodyReadable} compares with
 * what is left in the buffer, never a sum, so no size can wrap a check around.
 *
 * <p>One instance per connection, reused for every header; event-loop confined.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
final class FrameHeader {
    private int offset;
    private int flags;
    private long size;
    private int length;
    private long length10;

    /**
     * 2.0/3.x, first step: peeks at the flags byte once at least two bytes (the shortest header) are readable past
     * {@code offset}; false until then.
     */
    boolean readFlags(ByteBuf in, int offset) {
        if (in.readableBytes() - offset < 2) {
            return false;
        }
        this.offset = offset;
        this.flags = in.getUnsignedByte(in.readerIndex() + offset);
        return true;
    }

    /** 2.0/3.x, second step: peeks at the size (8 bytes with LONG, else 1); false while a long size is incomplete. */
    boolean readSize(ByteBuf in) {
        int at = in.readerIndex() + offset;
        if ((flags & ZmtpConstants.FLAG_LONG) != 0) {
            if (in.readableBytes() - offset < 9) {
                return false;
            }
            size = in.getLong(at + 1);
            length = 9;
        } else {
            size = in.getUnsignedByte(at + 1);
            length = 2;
        }
        return true;
    }

    /**
     * 1.0: peeks at the whole header (2 or 10 bytes) {@code offset} bytes past the reader index; false until it has
     * arrived. {@link #lengthField()} is then the length as sent and {@link #size()} the body size, or -1 if the
     * length is below 1.
     */
    boolean read10(ByteBuf in, int offset) {
        int readable = in.readableBytes() - offset;
        if (readable < 1) {
            return false;
        }
        int at = in.readerIndex() + offset;
        int headerLength = in.getUnsignedByte(at) == 0xFF ? 10 : 2;
        if (readable < headerLength) {
            return false;
        }
        this.offset = offset;
        length = headerLength;
        length10 = headerLength == 10 ? in.getLong(at + 1) : in.getUnsignedByte(at);
        flags = in.getUnsignedByte(at + headerLength - 1);
        size = length10 < 1 ? -1 : length10 - 1;
        return true;
    }

    int flags() {
        return flags;
    }

    boolean isMore() {
        return (flags & ZmtpConstants.FLAG_MORE) != 0;
    }

    boolean isCommand() {
        return (flags & ZmtpConstants.FLAG_COMMAND) != 0;
    }

    /** The body size as sent: negative if a 64-bit size has its top bit set. */
    long size() {
        return size;
    }

    /** The header's own length in bytes: 2 or 9 (2.0/3.x), 2 or 10 (1.0). */
    int length() {
        return length;
    }

    /** 1.0 only: the length field as sent, which counts the flags byte. */
    long lengthField() {
        return length10;
    }

    /** Whether the whole body has arrived; {@link #size()} must have been checked to be {@code >= 0}. */
    boolean isBodyReadable(ByteBuf in) {
        return size <= in.readableBytes() - offset - length;
    }

    /** Consumes the {@code offset} bytes before the header and the header itself: the body is next. */
    void skip(ByteBuf in) {
        in.skipBytes(offset + length);
    }
}
