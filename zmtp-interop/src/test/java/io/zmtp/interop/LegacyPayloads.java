package io.zmtp.interop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The payloads of the ZMTP 1.0/2.0 interop tests (Spotify netty-zmtp and libzmq downgrade): message {@code i} of
 * direction {@code dir} is 1 to 4 frames of 0 to 256 bytes (every length in that range occurs, so frames straddle
 * the 1.0 and 2.0 short/long boundaries at 254/255/256), each at most 1 KiB in all, with contents that depend on
 * the direction, seed, index, frame and offset. The Spotify peer (src/test/spotify-peer) and
 * src/test/python/downgrade_payloads.py compute the same bytes; keep the three in step.
 */
final class LegacyPayloads {
    /** Direction: sent by the old peer (Spotify netty-zmtp, libzmq) to the codec under test. */
    static final int FROM_PEER = 0;
    /** Direction: sent by the codec under test to the old peer. */
    static final int TO_PEER = 1;

    private LegacyPayloads() {}

    static byte[][] message(int dir, long seed, int i) {
        int frames = 1 + (i % 4);
        byte[][] m = new byte[frames][];
        for (int j = 0; j < frames; j++) {
            int len = (int) ((i * 131L + j * 71L + seed * 17L + dir * 29L) % 257);
            byte[] f = new byte[len];
            for (int k = 0; k < len; k++) {
                f[k] = (byte) (dir * 101 + i * 31 + j * 7 + k + seed);
            }
            m[j] = f;
        }
        return m;
    }

    /** {@code frames} with an empty delimiter frame in front: a REQ/REP envelope written by hand. */
    static byte[][] withDelimiter(byte[][] frames) {
        byte[][] m = new byte[frames.length + 1][];
        m[0] = new byte[0];
        System.arraycopy(frames, 0, m, 1, frames.length);
        return m;
    }

    static boolean equal(byte[][] a, byte[][] b) {
        return Arrays.deepEquals(a, b);
    }

    /** Frames as lengths and leading bytes, for assertion messages. */
    static String render(byte[][] m) {
        List<String> parts = new ArrayList<>();
        for (byte[] f : m) {
            parts.add(f.length + "B:" + HexFormat.of().formatHex(f, 0, Math.min(8, f.length)));
        }
        return parts.toString();
    }

    /** An identity of {@code length} bytes (first byte nonzero, as rfc 13/15 require), {@code tag} first. */
    static byte[] identity(int length, int tag) {
        byte[] id = new byte[length];
        for (int i = 0; i < length; i++) {
            id[i] = (byte) (i == 0 ? tag : 1 + (tag + i) % 255);
        }
        return id;
    }
}
