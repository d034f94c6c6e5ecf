package org.zeromq.util;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A frame's bytes seen as text or as hex, as JeroMQ 0.6.0's {@code ZData}: what {@code ZFrame.toString()},
 * {@code strhex()} and {@code print()} show.
 *
 * <p>Text is UTF-8, as JeroMQ's {@code ZMQ.CHARSET}. Data counts as text when every byte is printable ASCII (32 to
 * 127); otherwise it is shown as upper-case hex.
 */
public class ZData {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** {@link #print} shows at most this many characters of text... */
    private static final int PRINT_TEXT_MAX = 70;
    /** ...or this many bytes of binary data (two characters each). */
    private static final int PRINT_BINARY_MAX = 35;

    private final byte[] data;

    /**
     * Wraps {@code data} without copying it.
     *
     * @param data the bytes, may be null (shown as an empty string)
     */
    public ZData(byte[] data) {
        this.data = data;
    }

    /**
     * Whether the data, read as UTF-8, is exactly {@code str}.
     *
     * @param str the text to compare with
     */
    public boolean streq(String str) {
        return streq(data, str);
    }

    /**
     * Whether {@code data}, read as UTF-8, is exactly {@code str}; false when {@code data} is null.
     *
     * @param data the bytes
     * @param str  the text to compare with
     */
    public static boolean streq(byte[] data, String str) {
        return data != null && new String(data, StandardCharsets.UTF_8).equals(str);
    }

    /** Whether the data has the same bytes as {@code that}. */
    public boolean equals(byte[] that) {
        return Arrays.equals(data, that);
    }

    @Override
    public boolean equals(Object other) {
        return this == other
                || other != null && getClass() == other.getClass() && Arrays.equals(data, ((ZData) other).data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(data);
    }

    /** The data as text if it is all printable ASCII, otherwise as hex. */
    @Override
    public String toString() {
        return toString(data);
    }

    /**
     * {@code data} as text if every byte is printable ASCII, otherwise as upper-case hex; empty for null.
     *
     * @param data the bytes, may be null
     */
    public static String toString(byte[] data) {
        if (data == null) {
            return "";
        }
        for (byte b : data) {
            if (b < 32) { // bytes above 127 are negative here
                return strhex(data);
            }
        }
        return new String(data, StandardCharsets.UTF_8);
    }

    /** The data as upper-case hex, two characters a byte. */
    public String strhex() {
        return strhex(data);
    }

    /**
     * {@code data} as upper-case hex, two characters a byte; empty for null.
     *
     * @param data the bytes, may be null
     */
    public static String strhex(byte[] data) {
        if (data == null) {
            return "";
        }
        char[] out = new char[data.length * 2];
        for (int i = 0; i < data.length; i++) {
            out[2 * i] = HEX[(data[i] >>> 4) & 0xF];
            out[2 * i + 1] = HEX[data[i] & 0xF];
        }
        return new String(out);
    }

    /**
     * Prints the data on one line, as CZMQ's {@code zframe_print} does.
     *
     * @see #print(PrintStream, String, byte[], int)
     */
    public void print(PrintStream out, String prefix) {
        print(out, prefix, data, data == null ? 0 : data.length);
    }

    /**
     * Prints the first {@code size} bytes of {@code data} on one line: the prefix, the size as {@code [005]}, then
     * the bytes as text (at most 70 characters) or, if any byte is a control character below tab or not ASCII, as
     * hex (at most 35 bytes), with {@code ...} when cut. Prints nothing for null data.
     *
     * @param out    where to print
     * @param prefix printed first, unless null
     * @param data   the bytes
     * @param size   how many of them to consider
     */
    public static void print(PrintStream out, String prefix, byte[] data, int size) {
        if (data == null) {
            return;
        }
        StringBuilder line = new StringBuilder();
        if (prefix != null) {
            line.append(prefix);
        }
        boolean binary = false;
        for (int i = 0; i < size; i++) {
            if (data[i] < 9) { // bytes above 127 are negative here
                binary = true;
                break;
            }
        }
        line.append(String.format("[%03d] ", size));
        int max = binary ? PRINT_BINARY_MAX : PRINT_TEXT_MAX;
        int shown = Math.min(size, max);
        for (int i = 0; i < shown; i++) {
            if (binary) {
                line.append(HEX[(data[i] >>> 4) & 0xF]).append(HEX[data[i] & 0xF]);
            } else {
                line.append((char) data[i]);
            }
        }
        if (size > max) {
            line.append("...");
        }
        out.print(line.append('\n'));
        out.flush();
    }
}
