package io.zmtp.testkit;

import java.util.HexFormat;
import java.util.List;

/**
 * One block of a wire vector: the bytes one side put on the wire, in capture order.
 *
 * @param direction   who sent the bytes
 * @param header      the block's header after the direction marker, e.g. {@code "frame, 40 bytes on the wire"}
 * @param bytes       the exact bytes (a fresh copy on each call); only the first ones if {@code omitted > 0}
 * @param omitted     how many further bytes the capture left out (it shows at most 64 bytes of a long frame)
 * @param annotations the block's {@code "   ;"} lines, without that prefix
 * @param notes       column-0 {@code ";"} lines that follow the block (what the application saw, etc.)
 */
public record ZmtpVector(Direction direction, String header, byte[] bytes, int omitted, List<String> annotations,
        List<String> notes) {

    public enum Direction {
        /** {@code L>}: sent by the libzmq socket. */
        LIBZMQ("L>"),
        /** {@code R>}: sent by the hand-written raw peer. */
        RAW_PEER("R>");

        private final String marker;

        Direction(String marker) {
            this.marker = marker;
        }

        public String marker() {
            return marker;
        }
    }

    public ZmtpVector {
        bytes = bytes.clone();
        annotations = List.copyOf(annotations);
        notes = List.copyOf(notes);
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    public boolean complete() {
        return omitted == 0;
    }

    /** Bytes on the wire, including omitted ones. */
    public int wireLength() {
        return bytes.length + omitted;
    }

    public String hex() {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    @Override
    public String toString() {
        return direction.marker() + " " + header + ": " + hex() + (complete() ? "" : " ... (" + omitted + " more)");
    }
}
