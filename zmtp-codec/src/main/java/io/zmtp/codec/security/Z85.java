package io.zmtp.codec.security;

import java.util.Arrays;

/**
 * Z85, ZeroMQ's printable encoding of binary data (rfc 32): every 4 bytes become 5 characters of an 85-character
 * alphabet that needs no quoting in source code, shells or configuration files. CURVE keys (32 bytes) are written as
 * 40 characters this way, as libzmq's {@code zmq_z85_encode} and JeroMQ's {@code Z85} write them.
 *
 * <p>Binary input must be a multiple of 4 bytes and text a multiple of 5 characters: rfc 32 leaves padding to the
 * caller. Decoding rejects characters outside the alphabet and 5-character groups above 2^32-1, as libzmq's
 * {@code zmq_z85_decode} does (the rfc's reference decoder checks neither).
 *
 * @see <a href="https://rfc.zeromq.org/spec/32/">32/Z85</a>
 */
public final class Z85 {
    private static final char[] ALPHABET =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".toCharArray();
    /** Character (0..127) to digit value, -1 where the character is not in the alphabet. */
    private static final byte[] DIGITS = new byte[128];

    static {
        Arrays.fill(DIGITS, (byte) -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            DIGITS[ALPHABET[i]] = (byte) i;
        }
    }

    private Z85() {
    }

    /**
     * Encodes {@code data}, whose length must be a multiple of 4.
     *
     * @throws IllegalArgumentException if it is not
     */
    public static String encode(byte[] data) {
        if (data.length % 4 != 0) {
            throw new IllegalArgumentException("Z85 input length: " + data.length + " (expected: a multiple of 4)");
        }
        char[] out = new char[data.length / 4 * 5];
        int o = 0;
        for (int i = 0; i < data.length; i += 4) {
            long value = ((data[i] & 0xFFL) << 24) | ((data[i + 1] & 0xFF) << 16) | ((data[i + 2] & 0xFF) << 8)
                    | (data[i + 3] & 0xFF);
            for (int d = 4; d >= 0; d--) {
                out[o + d] = ALPHABET[(int) (value % 85)];
                value /= 85;
            }
            o += 5;
        }
        return new String(out);
    }

    /**
     * Decodes {@code text}, whose length must be a multiple of 5.
     *
     * @throws IllegalArgumentException if it is not, if a character is outside the Z85 alphabet, or if a group of
     *                                  five encodes a value above 2^32-1
     */
    public static byte[] decode(CharSequence text) {
        int length = text.length();
        if (length % 5 != 0) {
            throw new IllegalArgumentException("Z85 text length: " + length + " (expected: a multiple of 5)");
        }
        byte[] out = new byte[length / 5 * 4];
        int o = 0;
        for (int i = 0; i < length; i += 5) {
            long value = 0;
            for (int d = 0; d < 5; d++) {
                char c = text.charAt(i + d);
                int digit = c < 128 ? DIGITS[c] : -1;
                if (digit < 0) {
                    throw new IllegalArgumentException("Z85 text has a character outside the alphabet at " + (i + d)
                            + ": " + (c < 0x20 || c > 0x7E ? String.format("\\u%04x", (int) c) : "'" + c + "'"));
                }
                value = value * 85 + digit;
            }
            if (value > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("Z85 group at " + i + " encodes " + value
                        + " (expected: <= 4294967295)");
            }
            out[o++] = (byte) (value >>> 24);
            out[o++] = (byte) (value >>> 16);
            out[o++] = (byte) (value >>> 8);
            out[o++] = (byte) value;
        }
        return out;
    }
}
