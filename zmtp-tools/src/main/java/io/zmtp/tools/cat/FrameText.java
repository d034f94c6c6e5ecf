package io.zmtp.tools.cat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How {@code zmtp cat} shows frames and reads them back: printable ASCII as is, every other byte (and the backslash)
 * as {@code \xNN}, so binary frames such as ROUTER routing ids print safely and can be typed back in.
 *
 * <p>The thread-safe types' messages are one part, so their lines are never split into frames. What those types carry
 * beside the message leads the line, up to the first delimiter: a SERVER's or PEER's routing id in decimal
 * ({@code 7|body}), a RADIO's or DISH's group ({@code weather|body}); the rest of the line is the body, delimiters
 * and all. CLIENT, SCATTER, GATHER and CHANNEL lines are the body alone.
 */
final class FrameText {
    private FrameText() {
    }

    /**
     * The message's frames, each escaped, joined by {@code delimiter}. A one-character delimiter is escaped inside
     * frames too, so the line splits back into the same frames.
     */
    static String format(ZmtpMessage message, String delimiter) {
        int reserved = delimiter.length() == 1 ? delimiter.charAt(0) : -1;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < message.size(); i++) {
            if (i > 0) {
                sb.append(delimiter);
            }
            escape(message.frame(i), reserved, sb);
        }
        return sb.toString();
    }

    private static void escape(ByteBuf frame, int reserved, StringBuilder sb) {
        for (int i = frame.readerIndex(); i < frame.writerIndex(); i++) {
            int b = frame.getUnsignedByte(i);
            if (b >= 0x20 && b < 0x7F && b != '\\' && b != reserved) {
                sb.append((char) b);
            } else {
                sb.append("\\x").append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            }
        }
    }

    /** A line split on {@code delimiter} into frames, each unescaped; an empty line is one empty frame. */
    static ZmtpMessage parse(String line, String delimiter) {
        String[] parts = line.split(Pattern.quote(delimiter), -1);
        List<ByteBuf> frames = new ArrayList<>(parts.length);
        for (String part : parts) {
            frames.add(Unpooled.wrappedBuffer(unescape(part)));
        }
        return ZmtpMessage.wrap(frames);
    }

    /**
     * A received message as {@code type} shows it: by {@link #format(ZmtpMessage, String)} for the classic types; for
     * the thread-safe ones, the routing id (SERVER, PEER) or group (DISH) and the delimiter before the body, or the
     * body alone. A body is one frame, so the delimiter in it is left as is.
     */
    static String format(ZmtpSocketType type, ZmtpMessage message, String delimiter) {
        if (!type.isThreadSafe()) {
            return format(message, delimiter);
        }
        int reserved = delimiter.length() == 1 ? delimiter.charAt(0) : -1;
        StringBuilder sb = new StringBuilder();
        if (routesById(type)) {
            sb.append(Integer.toUnsignedString(message.routingId())).append(delimiter);
        } else if (message.group() != null) {
            byte[] group = message.group().getBytes(StandardCharsets.UTF_8);
            escape(Unpooled.wrappedBuffer(group), reserved, sb);
            sb.append(delimiter);
        }
        for (int i = 0; i < message.size(); i++) {
            escape(message.frame(i), -1, sb);
        }
        return sb.toString();
    }

    /**
     * A line typed on a socket of {@code type}: by {@link #parse(String, String)} for the classic types; for the
     * thread-safe ones, one frame, led by {@code ID|} on a SERVER or PEER (the decimal routing id, as printed) and
     * by {@code GROUP|} on a RADIO.
     *
     * @throws BadLineException if the line lacks what {@code type} needs before the delimiter
     */
    static ZmtpMessage parse(ZmtpSocketType type, String line, String delimiter) {
        if (!type.isThreadSafe()) {
            return parse(line, delimiter);
        }
        if (!routesById(type) && type != ZmtpSocketType.RADIO) {
            return ZmtpMessage.wrap(Unpooled.wrappedBuffer(unescape(line)));
        }
        int at = line.indexOf(delimiter);
        if (at < 0) {
            throw new BadLineException(type + " expects " + (type == ZmtpSocketType.RADIO ? "GROUP" : "ID")
                    + delimiter + "BODY; no '" + delimiter + "' in this line");
        }
        String head = line.substring(0, at);
        byte[] body = unescape(line.substring(at + delimiter.length()));
        if (type == ZmtpSocketType.RADIO) {
            String group = new String(unescape(head), StandardCharsets.UTF_8);
            ZmtpMessage m = ZmtpMessage.wrap(Unpooled.wrappedBuffer(body));
            try {
                return m.group(group);
            } catch (IllegalArgumentException e) {
                m.release();
                throw new BadLineException(e.getMessage());
            }
        }
        int id;
        try {
            id = Integer.parseUnsignedInt(head.trim());
        } catch (NumberFormatException e) {
            id = 0;
        }
        if (id == 0) {
            throw new BadLineException("routing id '" + head + "' (expected: a decimal number from 1 to "
                    + Integer.toUnsignedString(-1) + ", as printed for a message received)");
        }
        return ZmtpMessage.wrap(Unpooled.wrappedBuffer(body)).routingId(id);
    }

    /** SERVER and PEER tell and take a routing id beside each message. */
    static boolean routesById(ZmtpSocketType type) {
        return type == ZmtpSocketType.SERVER || type == ZmtpSocketType.PEER;
    }

    /** A line that can't be sent on this type: reported, skipped, and the next line read. */
    static final class BadLineException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadLineException(String message) {
            super(message);
        }
    }

    static byte[] unescape(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 3 < text.length() && text.charAt(i + 1) == 'x'
                    && Character.digit(text.charAt(i + 2), 16) >= 0 && Character.digit(text.charAt(i + 3), 16) >= 0) {
                out.write(Character.digit(text.charAt(i + 2), 16) << 4 | Character.digit(text.charAt(i + 3), 16));
                i += 3;
            } else if (c < 0x80) {
                out.write(c);
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.write(utf8, 0, utf8.length);
            }
        }
        return out.toByteArray();
    }
}
