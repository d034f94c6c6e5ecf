package io.zmtp.codec.mechanism;

import io.netty.util.concurrent.FastThreadLocal;
import org.bouncycastle.crypto.engines.Salsa20Engine;

import java.util.Arrays;

/**
 * The Salsa20 key stream of one key, restarted for each short nonce and handed out a block or several at a time as
 * little-endian longs, ready to XOR with data read a long at a time. The Salsa20 core is Bouncy Castle's
 * ({@link Salsa20Engine#salsaCore}, the state in locals, which is as fast as scalar Java gets); what is here is the
 * state layout, the block counter and the packing. From {@link SalsaLanes#MIN_LANES} blocks on the blocks are made
 * by {@link SalsaLanes}, many at once in SIMD, and so are the first blocks of several boxes made ahead
 * ({@link #ahead}, for {@link KeyStreamAhead}). {@link MessageBoxer} does the XOR and the MAC in one pass.
 * Event-loop confined; allocates nothing after construction.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class SalsaStream {
    /** One wide core per I/O thread: making key stream never yields the thread, so connections can share it. */
    static final FastThreadLocal<SalsaLanes> LANES = new FastThreadLocal<SalsaLanes>() {
        @Override
        protected SalsaLanes initialValue() {
            return new SalsaLanes();
        }
    };

    /** Input block: constants, key, nonce (words 6, 7) and block counter (words 8, 9). */
    private final int[] state = new int[16];
    /** The core's output for one block (package-private for the tests). */
    final int[] block = new int[16];

    /** @param key the 32-byte key (for CURVE messages: HSalsa20 of the connection key and the nonce prefix) */
    SalsaStream(byte[] key) {
        state[0] = 0x61707865;
        state[5] = 0x3320646e;
        state[10] = 0x79622d32;
        state[15] = 0x6b206574;
        for (int i = 0; i < 4; i++) {
            state[1 + i] = CryptoBox.le32(key, 4 * i);
            state[11 + i] = CryptoBox.le32(key, 16 + 4 * i);
        }
    }

    /** Zeroes the key words (and the last block made): the stream is done with. */
    void destroy() {
        Arrays.fill(state, 0);
        Arrays.fill(block, 0);
    }

    /**
     * Restarts the stream at block 0 for {@code nonce} (its 8 bytes in network order, as CurveZMQ's short nonces
     * are).
     */
    void start(long nonce) {
        // Salsa20 reads the nonce bytes as two little-endian words.
        state[6] = Integer.reverseBytes((int) (nonce >>> 32));
        state[7] = Integer.reverseBytes((int) nonce);
        state[8] = 0;
        state[9] = 0;
    }

    /** Moves the stream of the current nonce to block {@code block} (what a box made ahead already used). */
    void seek(int block) {
        state[8] = block;
        state[9] = 0;
    }

    /**
     * Writes the first {@code blocksPerBox} blocks of the streams of the {@code boxes} short nonces from
     * {@code firstNonce} on into {@code keyStream}, box after box, in one {@link SalsaLanes#boxes} call; the stream
     * itself does not move.
     */
    void ahead(long firstNonce, int boxes, int blocksPerBox, long[] keyStream) {
        LANES.get().boxes(state, firstNonce, boxes, blocksPerBox, keyStream);
    }

    /**
     * Writes the next {@code blocks} blocks of the stream into {@code keyStream} from index 0, eight little-endian
     * longs per block, and moves the stream past them.
     */
    void next(long[] keyStream, int blocks) {
        if (blocks >= SalsaLanes.MIN_LANES) {
            LANES.get().blocks(state, blocks, keyStream);
            long counter = ((state[8] & 0xFFFFFFFFL) | ((long) state[9] << 32)) + blocks;
            state[8] = (int) counter;
            state[9] = (int) (counter >>> 32);
            return;
        }
        int[] x = block;
        for (int b = 0, at = 0; b < blocks; b++, at += 8) {
            Salsa20Engine.salsaCore(20, state, x);
            // The 64-bit block counter; 2^70 bytes under one nonce is far beyond any frame.
            if (++state[8] == 0) {
                state[9]++;
            }
            for (int i = 0; i < 8; i++) {
                keyStream[at + i] = (x[2 * i] & 0xFFFFFFFFL) | ((long) x[2 * i + 1] << 32);
            }
        }
        // The last block is in keyStream now, whose owner zeroes it when done: this copy goes at once.
        Arrays.fill(x, 0);
    }
}
