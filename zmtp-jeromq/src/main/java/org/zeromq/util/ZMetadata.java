package org.zeromq.util;

import org.zeromq.ZConfig;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Name/value properties, as JeroMQ 0.6.0's {@code ZMetadata}: a certificate's metadata ({@code ZCert}), what a ZAP
 * handler returns about a peer ({@code ZAuth}), and their encoding, the one ZMTP uses for metadata in READY
 * commands and ZAP replies:
 * <pre>
 * property   = name value
 * name       = OCTET 1*255name-char    ; name length, then the name
 * value      = 4OCTET *OCTET           ; value length in network byte order, then the value
 * </pre>
 *
 * <p>Names and values are strings (UTF-8 on the wire); a null value is kept as an empty string. Thread-safe, as
 * JeroMQ's is (a concurrent map underneath); the views ({@link #keySet()}, {@link #entrySet()}, {@link #values()})
 * are live.
 *
 * <p>JeroMQ's {@code ZMetadata(zmq.io.Metadata)} constructor and {@code set(zmq.io.Metadata)} expose its
 * internals and are absent.
 *
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP, the metadata grammar</a>
 */
public class ZMetadata {
    private final Map<String, String> properties = new ConcurrentHashMap<>();

    /** Empty metadata. */
    public ZMetadata() {
    }

    /** The names, a live view that supports removal. */
    public Set<String> keySet() {
        return properties.keySet();
    }

    /** The value of {@code key}, or null if there is none. */
    public String get(String key) {
        return properties.get(key);
    }

    /**
     * Sets {@code key} to {@code value}; a null value is stored as an empty string.
     *
     * @throws NullPointerException if {@code key} is null
     */
    public void set(String key, String value) {
        properties.put(key, value == null ? "" : value);
    }

    /** Removes {@code key} if present. */
    public void remove(String key) {
        properties.remove(key);
    }

    /**
     * The properties in ZMTP's metadata encoding.
     *
     * @throws IllegalStateException if a name is longer than 255 bytes in UTF-8
     */
    public byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return out.toByteArray();
    }

    /** The properties, in the shape of JeroMQ's ({@code Metadata={name=value, ...}}). */
    @Override
    public String toString() {
        return "Metadata=" + properties;
    }

    @Override
    public int hashCode() {
        return properties.hashCode();
    }

    /** Equal to another {@code ZMetadata} with the same properties. */
    @Override
    public boolean equals(Object o) {
        return this == o || o != null && getClass() == o.getClass() && properties.equals(((ZMetadata) o).properties);
    }

    /** The properties, a live view that supports removal but not addition. */
    public Set<Entry<String, String>> entrySet() {
        return properties.entrySet();
    }

    /** The values, a live view that supports removal but not addition. */
    public Collection<String> values() {
        return properties.values();
    }

    /** Whether there is no property. */
    public boolean isEmpty() {
        return properties.isEmpty();
    }

    /** Whether {@code property} is set. */
    public boolean containsKey(String property) {
        return properties.containsKey(property);
    }

    /** Removes every property. */
    public void clear() {
        properties.clear();
    }

    /** The number of properties. */
    public int size() {
        return properties.size();
    }

    /**
     * Writes the properties to {@code stream} in ZMTP's metadata encoding.
     *
     * @throws IOException           if the stream fails
     * @throws IllegalStateException if a name is longer than 255 bytes in UTF-8 (nothing of that property is written)
     */
    public void write(OutputStream stream) throws IOException {
        for (Entry<String, String> property : properties.entrySet()) {
            byte[] name = property.getKey().getBytes(StandardCharsets.UTF_8);
            if (name.length > 255) {
                throw new IllegalStateException("metadata name length: " + name.length + " bytes (expected: <= 255)");
            }
            byte[] value = property.getValue().getBytes(StandardCharsets.UTF_8);
            stream.write(name.length);
            stream.write(name);
            stream.write(value.length >>> 24);
            stream.write(value.length >>> 16);
            stream.write(value.length >>> 8);
            stream.write(value.length);
            stream.write(value);
        }
    }

    /**
     * Reads properties in ZMTP's metadata encoding from a string, as a ZAP reply's metadata frame arrives through
     * {@code ZMsg.popString()}: the string's UTF-8 bytes are the encoding. Reading stops at the first property that
     * does not fit in what is left (JeroMQ does the same): the properties before it are returned.
     *
     * @param meta the encoded properties, as a string
     * @return the properties, or null if {@code meta} is null or empty
     */
    public static ZMetadata read(String meta) {
        if (meta == null || meta.isEmpty()) {
            return null;
        }
        byte[] data = meta.getBytes(StandardCharsets.UTF_8);
        ZMetadata metadata = new ZMetadata();
        int at = 0;
        while (data.length - at > 1) {
            int nameLength = data[at] & 0xFF;
            if (nameLength == 0 || data.length - at - 1 < nameLength + 4) {
                break;
            }
            String name = new String(data, at + 1, nameLength, StandardCharsets.UTF_8);
            at += 1 + nameLength;
            long valueLength = ((data[at] & 0xFFL) << 24) | ((data[at + 1] & 0xFF) << 16)
                    | ((data[at + 2] & 0xFF) << 8) | (data[at + 3] & 0xFF);
            at += 4;
            if (valueLength > data.length - at) {
                break;
            }
            metadata.set(name, new String(data, at, (int) valueLength, StandardCharsets.UTF_8));
            at += (int) valueLength;
        }
        return metadata;
    }

    /**
     * The properties of a configuration's {@code metadata} section, as a certificate file has them.
     *
     * @param conf the configuration's root
     * @return the properties, or null if there is no {@code metadata} section
     */
    public static ZMetadata read(ZConfig conf) {
        ZConfig section = conf.getChild("metadata");
        if (section == null) {
            return null;
        }
        ZMetadata metadata = new ZMetadata();
        for (Entry<String, String> value : section.getValues().entrySet()) {
            metadata.set(value.getKey(), value.getValue());
        }
        return metadata;
    }
}
