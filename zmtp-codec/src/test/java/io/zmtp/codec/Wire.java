package io.zmtp.codec;

import io.zmtp.testkit.ZmtpVector;
import io.zmtp.testkit.ZmtpVector.Direction;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;

/** Builds ZMTP bytes by hand, independently of the codec, for inputs and expected outputs. */
final class Wire {
    private Wire() {
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] repeat(char c, int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

    static byte[] u64(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] u32(long v) {
        return ByteBuffer.allocate(4).putInt((int) v).array();
    }

    /** The 10-byte signature with the given padding value (libzmq: identity length + 1). */
    static byte[] signature(long padding) {
        return concat(new byte[] {(byte) 0xFF}, u64(padding), new byte[] {0x7F});
    }

    /** A whole 3.x greeting. */
    static byte[] greeting(long padding, int minor, String mechanism, boolean asServer) {
        byte[] g = new byte[64];
        System.arraycopy(signature(padding), 0, g, 0, 10);
        g[10] = 3;
        g[11] = (byte) minor;
        byte[] m = ascii(mechanism);
        System.arraycopy(m, 0, g, 12, m.length);
        g[32] = (byte) (asServer ? 1 : 0);
        return g;
    }

    /** The 3.1 NULL greeting libzmq sends, for a socket whose routing id has {@code identityLength} bytes. */
    static byte[] libzmqGreeting(int identityLength) {
        return greeting(identityLength + 1L, 1, "NULL", false);
    }

    /** A greeting as the vectors' raw peers send it: zero padding. */
    static byte[] rawGreeting(int minor) {
        return greeting(0, minor, "NULL", false);
    }

    /** A 2.0/3.x frame, short form when the body fits. */
    static byte[] frame(int flags, byte[] body) {
        if (body.length <= 255) {
            return concat(new byte[] {(byte) flags, (byte) body.length}, body);
        }
        return longFrame(flags, body);
    }

    /** A 2.0/3.x frame in long form whatever its size. */
    static byte[] longFrame(int flags, byte[] body) {
        return concat(new byte[] {(byte) (flags | 0x02)}, u64(body.length), body);
    }

    static byte[] message(byte[]... frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < frames.length; i++) {
            out.writeBytes(frame(i < frames.length - 1 ? 1 : 0, frames[i]));
        }
        return out.toByteArray();
    }

    static byte[] commandBody(String name, byte[] data) {
        return concat(new byte[] {(byte) name.length()}, ascii(name), data);
    }

    static byte[] command(String name, byte[] data) {
        return frame(0x04, commandBody(name, data));
    }

    /** Metadata from name/value pairs. */
    static byte[] properties(String... nameValue) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < nameValue.length; i += 2) {
            byte[] name = ascii(nameValue[i]);
            byte[] value = ascii(nameValue[i + 1]);
            out.write(name.length);
            out.writeBytes(name);
            out.writeBytes(u32(value.length));
            out.writeBytes(value);
        }
        return out.toByteArray();
    }

    static byte[] ready(String... nameValue) {
        return command("READY", properties(nameValue));
    }

    static byte[] error(String reason) {
        byte[] r = ascii(reason);
        return command("ERROR", concat(new byte[] {(byte) r.length}, r));
    }

    /** A 1.0 frame: length (including flags), flags, body. */
    static byte[] frame10(int flags, byte[] body) {
        long length = body.length + 1L;
        byte[] header = length < 0xFF ? new byte[] {(byte) length}
                : concat(new byte[] {(byte) 0xFF}, u64(length));
        return concat(header, new byte[] {(byte) flags}, body);
    }

    /** The given bytes with the greeting padding (bytes 1..8) replaced. */
    static byte[] withPadding(byte[] stream, long padding) {
        byte[] copy = stream.clone();
        System.arraycopy(u64(padding), 0, copy, 1, 8);
        return copy;
    }

    /** One side's blocks whose header passes {@code filter}, concatenated; every block must be complete. */
    static byte[] blocks(List<ZmtpVector> vector, Direction direction, Predicate<String> header) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ZmtpVector b : vector) {
            if (b.direction() == direction && header.test(b.header())) {
                if (!b.complete()) {
                    throw new IllegalStateException("incomplete block " + b);
                }
                out.writeBytes(b.bytes());
            }
        }
        return out.toByteArray();
    }
}
