package io.zmtp.codec.mechanism;

import io.netty.util.concurrent.FastThreadLocal;
import org.bouncycastle.crypto.engines.Salsa20Engine;

/**
 * <b>The benchmark's baseline, not used by the codec:</b> {@code SalsaStream} as round 3 of issue 27 left it (commit
 * ccabb28), for {@link Round3MessageBoxer}.
 *
 * <p>The Salsa20 key stream of one key, restarted for each short nonce and handed out a block or several at a time as
 * little-endian longs, ready to XOR with data read a long at a time. The Salsa20 core is Bouncy Castle's
 * ({@link Salsa20Engine#salsaCore}, the state in locals, which is as fast as scalar Java gets); what is here is the
 * state layout, the block counter and the packing. From {@link Round3SalsaLanes#MIN_LANES} blocks on the blocks are
 * made by {@link Round3SalsaLanes}, many at once in SIMD. {@link MessageBoxer} does the XOR and the MAC in one pass.
 * Event-loop confined; allocates nothing after construction.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class Round3SalsaStream {
    /** One wide core per I/O thread: making key stream never yields the thread, so connections can share it. */
    private static final FastThreadLocal<Round3SalsaLanes> LANES = new FastThreadLocal<Round3SalsaLanes>() {
        @Override
        protected Round3SalsaLanes initialValue() {
            return new Round3SalsaLanes();
        }
    };

    /** Input block: constants, key, nonce (words 6, 7) and block counter (words 8, 9). */
    private final int[] state = new int[16];
    /** The core's output for one block. */
    private final int[] block = new int[16];

    /** @param key the 32-byte key (for CURVE messages: HSalsa20 of the connection key and the nonce prefix) */
    Round3SalsaStream(byte[] key) {
        state[0] = 0x61707865;
        state[5] = 0x3320646e;
        state[10] = 0x79622d32;
        state[15] = 0x6b206574;
        for (int i = 0; i < 4; i++) {
            state[1 + i] = CryptoBox.le32(key, 4 * i);
            state[11 + i] = CryptoBox.le32(key, 16 + 4 * i);
        }
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

    /**
     * Writes the next {@code blocks} blocks of the stream into {@code keyStream} from index 0, eight little-endian
     * longs per block, and moves the stream past them.
     */
    void next(long[] keyStream, int blocks) {
        if (blocks >= Round3SalsaLanes.MIN_LANES) {
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
    }
}
