package org.zeromq;

import org.zeromq.util.ZData;

import java.nio.charset.StandardCharsets;

/** How ZFrame and ZMsg show frames: as text when every byte is printable ASCII, else as upper-case hex. */
final class FrameText {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private FrameText() {
    }

    /** The frame as text if it is all printable ASCII (32 to 127), else in hex. */
    static String text(byte[] data) {
        if (data == null) {
            return "";
        }
        for (byte b : data) {
            if (b < 32) {
                return ZData.strhex(data);
            }
        }
        return new String(data, StandardCharsets.UTF_8);
    }

    /**
     * One line of a dump: {@code [size] } then the bytes as text, or in hex if any is below 9 or above 127,
     * cut at 70 characters (35 bytes of hex) with an ellipsis.
     */
    static String dumpLine(byte[] data) {
        int size = data == null ? 0 : data.length;
        boolean binary = false;
        for (int i = 0; i < size; i++) {
            if (data[i] < 9) {
                binary = true;
                break;
            }
        }
        StringBuilder b = new StringBuilder(String.format("[%03d] ", size));
        int shown = Math.min(size, binary ? 35 : 70);
        for (int i = 0; i < shown; i++) {
            if (binary) {
                b.append(HEX[(data[i] >>> 4) & 0xf]).append(HEX[data[i] & 0xf]);
            } else {
                b.append((char) data[i]);
            }
        }
        if (size > shown) {
            b.append("...");
        }
        return b.toString();
    }
}
