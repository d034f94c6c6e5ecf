package io.zmtp.codec;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The properties a peer announces in READY (and in PLAIN/CURVE INITIATE and READY): an ordered list of names and
 * binary values, encoded as rfc 23 section "Connection metadata" says. Immutable.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Connection Metadata"</a>
 */
public final class ZmtpMetadata {
    public static final String SOCKET_TYPE = "Socket-Type";
    public static final String IDENTITY = "Identity";
    public static final String RESOURCE = "Resource";

    public static final ZmtpMetadata EMPTY = new ZmtpMetadata(Collections.emptyList());

    private final List<Property> properties;

    private ZmtpMetadata(List<Property> properties) {
        this.properties = properties;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The value of the named property (names compare case-insensitively, per rfc 23), or {@code null}. */
    public byte[] value(String name) {
        for (Property p : properties) {
            if (p.name.equalsIgnoreCase(name)) {
                return p.value.clone();
            }
        }
        return null;
    }

    /** The value of the named property as ASCII text, or {@code null}. */
    public String string(String name) {
        byte[] v = value(name);
        return v == null ? null : new String(v, StandardCharsets.US_ASCII);
    }

    /** The announced socket type, or {@code null} if absent or not a standard type. */
    public ZmtpSocketType socketType() {
        return ZmtpSocketType.fromWireName(value(SOCKET_TYPE));
    }

    /** The announced identity; empty if none was announced. */
    public byte[] identity() {
        byte[] v = value(IDENTITY);
        return v == null ? new byte[0] : v;
    }

    /** All properties in the order they were announced (names as sent). */
    public Map<String, byte[]> asMap() {
        Map<String, byte[]> map = new LinkedHashMap<>();
        for (Property p : properties) {
            map.put(p.name, p.value.clone());
        }
        return Collections.unmodifiableMap(map);
    }

    public boolean isEmpty() {
        return properties.isEmpty();
    }

    /** Number of bytes {@link #encode} writes. */
    public int encodedLength() {
        int n = 0;
        for (Property p : properties) {
            n += 1 + p.nameBytes.length + 4 + p.value.length;
        }
        return n;
    }

    /** Writes the properties in wire form. */
    public void encode(ByteBuf out) {
        for (Property p : properties) {
            out.writeByte(p.nameBytes.length);
            out.writeBytes(p.nameBytes);
            out.writeInt(p.value.length);
            out.writeBytes(p.value);
        }
    }

    /**
     * Reads properties until {@code in} has no more readable bytes. A truncated property, an empty or oversized name,
     * a name with characters outside rfc 23's set, a value length over 2^31-1, or an Identity over 255 bytes is a
     * protocol error.
     */
    public static ZmtpMetadata decode(ByteBuf in) {
        List<Property> props = new ArrayList<>();
        while (in.isReadable()) {
            int nameLength = in.readUnsignedByte();
            if (nameLength == 0) {
                throw new ZmtpCodecException("metadata property name length: 0 (expected: 1..255)");
            }
            if (nameLength > in.readableBytes() - 4) {
                throw new ZmtpCodecException("metadata truncated in property name or value length");
            }
            byte[] name = new byte[nameLength];
            in.readBytes(name);
            for (byte b : name) {
                if (!isNameChar(b)) {
                    throw new ZmtpCodecException("metadata property name has invalid character 0x"
                            + Integer.toHexString(b & 0xFF));
                }
            }
            long valueLength = in.readUnsignedInt();
            if (valueLength > in.readableBytes()) {
                throw new ZmtpCodecException("metadata value length: " + valueLength + " (expected: <= "
                        + in.readableBytes() + ")");
            }
            String nameString = new String(name, StandardCharsets.US_ASCII);
            // rfc 23 caps the identity at 255 octets, and libzmq refuses a longer one: a routing id must fit its
            // one-byte length wherever it is written again (a 2.0 identity frame, our own READY).
            if (valueLength > 255 && nameString.equalsIgnoreCase(IDENTITY)) {
                throw new ZmtpCodecException("metadata " + IDENTITY + " length: " + valueLength
                        + " (expected: <= 255)");
            }
            byte[] value = new byte[(int) valueLength];
            in.readBytes(value);
            props.add(new Property(nameString, value));
        }
        return props.isEmpty() ? EMPTY : new ZmtpMetadata(Collections.unmodifiableList(props));
    }

    private static boolean isNameChar(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '-' || b == '_' || b == '.' || b == '+';
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ZmtpMetadata{");
        for (int i = 0; i < properties.size(); i++) {
            Property p = properties.get(i);
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(p.name).append('=').append(ZmtpPrintable.of(p.value));
        }
        return sb.append('}').toString();
    }

    private static final class Property {
        final String name;
        final byte[] nameBytes;
        final byte[] value;

        Property(String name, byte[] value) {
            this.name = name;
            this.nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            this.value = value;
        }
    }

    /** Builds metadata; a property set twice keeps its first position and its last value. */
    public static final class Builder {
        private final Map<String, byte[]> values = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder socketType(ZmtpSocketType type) {
            return property(SOCKET_TYPE, type.wireName());
        }

        public Builder identity(byte[] identity) {
            if (identity.length > 255) {
                throw new IllegalArgumentException("identity length: " + identity.length + " (expected: <= 255)");
            }
            return property(IDENTITY, identity);
        }

        public Builder property(String name, String value) {
            return property(name, value.getBytes(StandardCharsets.UTF_8));
        }

        public Builder property(String name, byte[] value) {
            byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            if (nameBytes.length == 0 || nameBytes.length > 255) {
                throw new IllegalArgumentException("property name length: " + nameBytes.length
                        + " (expected: 1..255)");
            }
            for (byte b : nameBytes) {
                if (!isNameChar(b)) {
                    throw new IllegalArgumentException("property name has an invalid character: " + name);
                }
            }
            values.put(name, value.clone());
            return this;
        }

        /** Adds every property of {@code other}. */
        public Builder putAll(ZmtpMetadata other) {
            for (Property p : other.properties) {
                values.put(p.name, p.value);
            }
            return this;
        }

        public ZmtpMetadata build() {
            if (values.isEmpty()) {
                return EMPTY;
            }
            List<Property> props = new ArrayList<>(values.size());
            values.forEach((k, v) -> props.add(new Property(k, v)));
            return new ZmtpMetadata(Collections.unmodifiableList(props));
        }
    }
}
