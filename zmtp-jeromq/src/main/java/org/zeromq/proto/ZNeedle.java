package org.zeromq.proto;

import org.zeromq.ZFrame;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A cursor that writes and reads values in a frame's bytes, in zproto's binary encoding, as JeroMQ 0.6.0's
 * {@code ZNeedle} (CZMQ's {@code zsock_bsend}/{@code zsock_brecv} and zproto's generated codecs): numbers of 1, 2, 4
 * and 8 bytes in network byte order, strings with a 1-byte ("short") or 4-byte ("long") length first, blocks of
 * bytes, and lists and maps of short strings with a 1-byte count first (a map entry is {@code key=value}).
 *
 * <p>The needle writes into and reads from the frame's own array, from its start; every call moves it on. Reading or
 * writing past the end throws {@link IllegalArgumentException} and leaves the needle where it was, so a frame from
 * a peer cannot make it read out of bounds.
 *
 * <p>String lengths count UTF-8 bytes, as zproto's do; JeroMQ counts characters, which gives the same bytes for
 * ASCII and a corrupt frame otherwise.
 *
 * <p>Not thread-safe.
 *
 * @see <a href="https://github.com/zeromq/zproto">zproto</a>
 */
public final class ZNeedle {
    private final byte[] data;
    private int position;

    /**
     * A needle at the start of {@code frame}'s data: it writes into the frame's own array, which must have the
     * room for what is put.
     *
     * @param frame the frame; one without data is a frame of 0 bytes
     */
    public ZNeedle(ZFrame frame) {
        this(frame.hasData() ? frame.getData() : new byte[0]);
    }

    /** A needle at the start of {@code data}, which it writes into. */
    ZNeedle(byte[] data) {
        this.data = data;
    }

    private void require(int size) {
        if (size < 0 || size > data.length - position) {
            throw new IllegalArgumentException("Unable to handle " + size + " bytes at position " + position
                    + " of " + data.length);
        }
    }

    private long read(int size) {
        require(size);
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = (value << 8) | (data[position + i] & 0xFF);
        }
        position += size;
        return value;
    }

    private void write(long value, int size) {
        require(size);
        for (int i = size - 1; i >= 0; i--) {
            data[position + i] = (byte) value;
            value >>>= 8;
        }
        position += size;
    }

    /** Writes the low 8 bits of {@code value}. */
    public void putNumber1(int value) {
        write(value, 1);
    }

    /** Reads 1 byte as an unsigned number (0 to 255). */
    public int getNumber1() {
        return (int) read(1);
    }

    /** Writes the low 16 bits of {@code value}, most significant byte first. */
    public void putNumber2(int value) {
        write(value, 2);
    }

    /** Reads 2 bytes as an unsigned number (0 to 65535). */
    public int getNumber2() {
        return (int) read(2);
    }

    /** Writes {@code value} in 4 bytes, most significant byte first. */
    public void putNumber4(int value) {
        write(value, 4);
    }

    /** Reads 4 bytes; an unsigned number above 2^31-1 comes back negative, as in JeroMQ. */
    public int getNumber4() {
        return (int) read(4);
    }

    /** Writes {@code value} in 8 bytes, most significant byte first. */
    public void putNumber8(long value) {
        write(value, 8);
    }

    /** Reads 8 bytes. */
    public long getNumber8() {
        return read(8);
    }

    /** Writes the first {@code size} bytes of {@code value}, without a length. */
    public void putBlock(byte[] value, int size) {
        require(size);
        System.arraycopy(value, 0, data, position, size);
        position += size;
    }

    /** Reads {@code size} bytes. */
    public byte[] getBlock(int size) {
        require(size);
        byte[] value = new byte[size];
        System.arraycopy(data, position, value, 0, size);
        position += size;
        return value;
    }

    /**
     * Writes a string of at most 255 UTF-8 bytes, its length in 1 byte first.
     *
     * @throws IllegalArgumentException if it is longer, or does not fit
     */
    public void putShortString(String value) {
        putString(value.getBytes(StandardCharsets.UTF_8), 1);
    }

    /** Reads a string written by {@link #putShortString}. */
    public String getShortString() {
        return readString(1);
    }

    /**
     * Writes a string, its length in 4 bytes first.
     *
     * @throws IllegalArgumentException if it does not fit
     */
    public void putLongString(String value) {
        putString(value.getBytes(StandardCharsets.UTF_8), 4);
    }

    /** Reads a string written by {@link #putLongString}. */
    public String getLongString() {
        return readString(4);
    }

    private void putString(byte[] bytes, int lengthSize) {
        if (lengthSize == 1 && bytes.length > 255) {
            throw new IllegalArgumentException("short string length: " + bytes.length + " bytes (expected: <= 255)");
        }
        require(lengthSize + bytes.length);
        write(bytes.length, lengthSize);
        System.arraycopy(bytes, 0, data, position, bytes.length);
        position += bytes.length;
    }

    private String readString(int lengthSize) {
        int start = position;
        long length = read(lengthSize);
        if (length > data.length - position) {
            position = start;
            throw new IllegalArgumentException("Unable to handle a string of " + length + " bytes at position "
                    + position + " of " + data.length);
        }
        String value = new String(data, position, (int) length, StandardCharsets.UTF_8);
        position += (int) length;
        return value;
    }

    /**
     * Writes a string as a short string if it has at most 255 UTF-8 bytes, as a long string otherwise. As in
     * JeroMQ, {@link #getString()} reads short strings only.
     */
    public void putString(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        putString(bytes, bytes.length > 255 ? 4 : 1);
    }

    /** Reads a short string. */
    public String getString() {
        return getShortString();
    }

    /**
     * Writes a list of strings: their count in 1 byte, then each with {@link #putString}; null writes an empty list.
     *
     * @throws IllegalArgumentException if there are 256 strings or more
     */
    public void putList(Collection<String> elements) {
        if (elements == null) {
            putNumber1(0);
            return;
        }
        if (elements.size() > 255) {
            throw new IllegalArgumentException("list size: " + elements.size() + " (expected: < 256)");
        }
        putNumber1(elements.size());
        for (String element : elements) {
            putString(element);
        }
    }

    /** Reads a list written by {@link #putList} (of short strings). */
    public List<String> getList() {
        int size = getNumber1();
        List<String> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(getString());
        }
        return list;
    }

    /**
     * Writes a map of strings: its size in 1 byte, then each entry as the string {@code key=value}; null writes an
     * empty map.
     *
     * @throws IllegalArgumentException if there are 256 entries or more, or a key or value contains '='
     */
    public void putMap(Map<String, String> map) {
        if (map == null) {
            putNumber1(0);
            return;
        }
        if (map.size() > 255) {
            throw new IllegalArgumentException("map size: " + map.size() + " (expected: < 256)");
        }
        for (Map.Entry<String, String> entry : map.entrySet()) {
            if (entry.getKey().contains("=") || entry.getValue().contains("=")) {
                throw new IllegalArgumentException("Keys and values cannot contain '=': " + entry);
            }
        }
        putNumber1(map.size());
        for (Map.Entry<String, String> entry : map.entrySet()) {
            putString(entry.getKey() + "=" + entry.getValue());
        }
    }

    /**
     * Reads a map written by {@link #putMap}.
     *
     * @throws IllegalArgumentException if an entry has no '='
     */
    public Map<String, String> getMap() {
        int size = getNumber1();
        Map<String, String> map = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            String entry = getString();
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("map entry without '=': " + entry);
            }
            map.put(entry.substring(0, equals), entry.substring(equals + 1));
        }
        return map;
    }

    @Override
    public String toString() {
        return "ZNeedle [position=" + position + ", ceiling=" + data.length + "]";
    }
}
