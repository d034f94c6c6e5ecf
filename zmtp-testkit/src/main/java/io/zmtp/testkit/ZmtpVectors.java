package io.zmtp.testkit;

import io.zmtp.testkit.ZmtpVector.Direction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Wire vectors captured from libzmq 4.3.5 (pyzmq 27.3.0's bundled build) talking to a raw-socket Python peer,
 * loaded from this jar's {@code io/zmtp/testkit/vectors/NAME.txt}; {@code README.md} in that folder says how they
 * were made and what they can and can't be used for.
 *
 * <p>File format: {@code #} comment lines; blocks starting with a header line {@code "L> ..."} or
 * {@code "R> ..."}, then hex lines and {@code "   ;"} annotation lines indented by three spaces (or a
 * lone {@code "   (nothing)"} for a 0-byte block, or {@code "   ... (N more bytes)"} after the first 64 bytes
 * of a long one); column-0 {@code ";"} note lines between blocks.
 */
public final class ZmtpVectors {

    private static final String RESOURCE_DIR = "vectors/";
    private static final Pattern HEX_LINE = Pattern.compile("   [0-9a-f]{2}( [0-9a-f]{2})*");
    // Headers declare the block length ("10 bytes", "frame, 40 bytes on the wire", "MESSAGE frame 37 bytes").
    private static final Pattern OMITTED = Pattern.compile("   \\.\\.\\. \\((\\d+) more bytes\\)");
    private static final Pattern DECLARED_LENGTH = Pattern.compile("(\\d+) bytes");

    private ZmtpVectors() {}

    /** Loads a vector file by base name, e.g. {@code "a_req_null_handshake"}; blocks are in wire order. */
    public static List<ZmtpVector> load(String name) {
        return parse(name, text(name));
    }

    /**
     * Concatenates the bytes of all blocks one side sent, i.e. its whole byte stream.
     *
     * @throws IllegalStateException if the capture omitted some of that side's bytes
     */
    public static byte[] bytesFrom(List<ZmtpVector> blocks, Direction direction) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ZmtpVector block : blocks) {
            if (block.direction() == direction) {
                if (!block.complete()) {
                    throw new IllegalStateException("Incomplete capture, " + block.omitted() + " bytes omitted: " + block);
                }
                out.writeBytes(block.bytes());
            }
        }
        return out.toByteArray();
    }

    /** {@link #bytesFrom(List, Direction)} for a vector file by name. */
    public static byte[] bytesFrom(String name, Direction direction) {
        return bytesFrom(load(name), direction);
    }

    /** The raw text of a file in the vectors folder, e.g. {@code "curve_test_keys"}, which is not a wire vector. */
    public static String text(String name) {
        String resource = RESOURCE_DIR + name + ".txt";
        try (InputStream in = ZmtpVectors.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No wire vector io/zmtp/testkit/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<ZmtpVector> parse(String name, String text) {
        List<ZmtpVector> blocks = new ArrayList<>();
        Builder current = null;
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String where = name + ":" + (i + 1);
            Direction direction = directionOf(line);
            if (direction != null) {
                if (current != null) {
                    blocks.add(current.build());
                }
                current = new Builder(direction, line.substring(3).strip(), where);
            } else if (line.isBlank() || line.startsWith("#")) {
                continue;
            } else if (current == null) {
                throw new IllegalArgumentException(where + ": text outside a block: " + line);
            } else if (line.startsWith(";")) {
                current.notes.add(stripMarker(line.substring(1)));
            } else if (line.startsWith("   ;")) {
                current.annotations.add(stripMarker(line.substring(4)));
            } else if (HEX_LINE.matcher(line).matches()) {
                if (!current.notes.isEmpty()) {
                    throw new IllegalArgumentException(where + ": hex after a note line");
                }
                current.hex.append(line.strip().replace(" ", ""));
            } else if (line.equals("   (nothing)")) {
                continue;
            } else if (OMITTED.matcher(line).matches()) {
                Matcher m = OMITTED.matcher(line);
                m.matches();
                current.omitted = Integer.parseInt(m.group(1));
            } else {
                throw new IllegalArgumentException(where + ": unrecognised line: " + line);
            }
        }
        if (current != null) {
            blocks.add(current.build());
        }
        return List.copyOf(blocks);
    }

    private static Direction directionOf(String line) {
        for (Direction d : Direction.values()) {
            if (line.startsWith(d.marker() + " ")) {
                return d;
            }
        }
        return null;
    }

    private static String stripMarker(String rest) {
        return rest.startsWith(" ") ? rest.substring(1) : rest;
    }

    private static final class Builder {
        final Direction direction;
        final String header;
        final String where;
        final StringBuilder hex = new StringBuilder();
        int omitted;
        final List<String> annotations = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        Builder(Direction direction, String header, String where) {
            this.direction = direction;
            this.header = header;
            this.where = where;
        }

        ZmtpVector build() {
            byte[] bytes = HexFormat.of().parseHex(hex);
            Matcher m = DECLARED_LENGTH.matcher(header);
            if (m.find() && Integer.parseInt(m.group(1)) != bytes.length + omitted) {
                throw new IllegalArgumentException(where + ": header says " + m.group(1) + " bytes but the block has "
                        + (bytes.length + omitted));
            }
            return new ZmtpVector(direction, header, bytes, omitted, annotations, notes);
        }
    }
}
