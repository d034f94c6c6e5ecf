package io.zmtp.codec;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Writes frame headers in the layouts each ZMTP version uses, and reads and writes command bodies. Shared by the
 * handshake, the frame decoder and the frame sink; {@link FrameHeader} reads headers.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Framing" and "Commands"</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
final class ZmtpWire {
    private ZmtpWire() {
    }

    /** Header length of a frame of {@code size} body bytes. */
    static int headerLength(ZmtpVersion version, long size) {
        if (version == ZmtpVersion.ZMTP_10) {
            // 1.0 counts the flags byte in the length and puts the flags after it.
            return size + 1 < 0xFF ? 2 : 10;
        }
        return size <= ZmtpConstants.MAX_SHORT_FRAME_SIZE ? 2 : 9;
    }

    /** Writes the header of a frame of {@code size} body bytes with {@code flags} (MORE and/or COMMAND). */
    static void writeHeader(ByteBuf out, ZmtpVersion version, long size, int flags) {
        if (version == ZmtpVersion.ZMTP_10) {
            long length = size + 1;
            if (length < 0xFF) {
                out.writeByte((int) length);
            } else {
                out.writeByte(0xFF);
                out.writeLong(length);
            }
            out.writeByte(flags & ZmtpConstants.FLAG_MORE);
        } else if (size <= ZmtpConstants.MAX_SHORT_FRAME_SIZE) {
            // One two-byte write, not two one-byte writes: each write checks bounds and capacity.
            out.writeShort(flags << 8 | (int) size);
        } else {
            out.writeByte(flags | ZmtpConstants.FLAG_LONG);
            out.writeLong(size);
        }
    }

    /** Bytes a command takes on the wire (3.x framing). */
    static int commandLength(ZmtpCommand command) {
        long size = commandBodyLength(command);
        return headerLength(ZmtpVersion.ZMTP_31, size) + (int) size;
    }

    private static int commandBodyLength(ZmtpCommand command) {
        return 1 + command.name().length() + command.content().readableBytes();
    }

    /** Writes a command frame (3.x framing); the command keeps its reference. */
    static void writeCommand(ByteBuf out, ZmtpCommand command) {
        int size = commandBodyLength(command);
        writeHeader(out, ZmtpVersion.ZMTP_31, size, ZmtpConstants.FLAG_COMMAND);
        out.writeByte(command.name().length());
        out.writeCharSequence(command.name(), StandardCharsets.US_ASCII);
        ByteBuf content = command.content();
        out.writeBytes(content, content.readerIndex(), content.readableBytes());
    }

    /**
     * Reads a command body (name and data) of {@code size} bytes from {@code in}. The data is a retained slice.
     */
    static ZmtpCommand readCommand(ByteBuf in, int size) {
        if (size < 1) {
            throw new ZmtpCodecException("empty command frame");
        }
        int nameLength = in.getUnsignedByte(in.readerIndex());
        if (isLibzmqPlainError(in, size)) {
            // libzmq's PLAIN server writes ERROR as 5E "RROR": the C literal "\x05ERROR" swallows the E (vector c3).
            in.skipBytes(MALFORMED_ERROR_PREFIX.length);
            return new ZmtpCommand(ZmtpCommand.ERROR, in.readRetainedSlice(size - MALFORMED_ERROR_PREFIX.length));
        }
        if (nameLength == 0 || nameLength > size - 1) {
            throw new ZmtpCodecException("command name length: " + nameLength + " (expected: 1.." + (size - 1) + ")");
        }
        int nameStart = in.readerIndex() + 1;
        for (int i = 0; i < nameLength; i++) {
            byte b = in.getByte(nameStart + i);
            if (!((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z'))) {
                throw new ZmtpCodecException("command name has invalid character 0x" + Integer.toHexString(b & 0xFF));
            }
        }
        String name = commandName(in, nameStart, nameLength);
        in.skipBytes(1 + nameLength);
        return new ZmtpCommand(name, in.readRetainedSlice(size - 1 - nameLength));
    }

    private static final byte[] MALFORMED_ERROR_PREFIX = {0x5E, 'R', 'R', 'O', 'R'};

    private static boolean isLibzmqPlainError(ByteBuf in, int size) {
        if (size < MALFORMED_ERROR_PREFIX.length) {
            return false;
        }
        for (int i = 0; i < MALFORMED_ERROR_PREFIX.length; i++) {
            if (in.getByte(in.readerIndex() + i) != MALFORMED_ERROR_PREFIX[i]) {
                return false;
            }
        }
        return true;
    }

    private static final String[] KNOWN_COMMANDS = {
        ZmtpCommand.PING, ZmtpCommand.PONG, ZmtpCommand.SUBSCRIBE, ZmtpCommand.CANCEL, ZmtpCommand.READY,
        ZmtpCommand.ERROR, ZmtpCommand.HELLO, ZmtpCommand.WELCOME, ZmtpCommand.INITIATE, ZmtpCommand.MESSAGE,
        ZmtpCommand.JOIN, ZmtpCommand.LEAVE
    };

    // Commands arrive often (heartbeats, subscriptions): reuse the constant instead of building a String each time.
    private static String commandName(ByteBuf in, int start, int length) {
        outer:
        for (String known : KNOWN_COMMANDS) {
            if (known.length() != length) {
                continue;
            }
            for (int i = 0; i < length; i++) {
                if (in.getByte(start + i) != known.charAt(i)) {
                    continue outer;
                }
            }
            return known;
        }
        return in.toString(start, length, StandardCharsets.US_ASCII);
    }
}
