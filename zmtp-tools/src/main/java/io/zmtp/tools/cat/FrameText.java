package io.zmtp.tools.cat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How {@code zmtp cat} shows frames and reads them back: printable ASCII as is, every other byte (and the backslash)
 * as {@code \xNN}, so binary frames such as ROUTER routing ids print safely and can be typed back in.
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
