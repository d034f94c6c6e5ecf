package io.zmtp.codec.mechanism;

import org.bouncycastle.crypto.engines.Salsa20Engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * <b>The benchmark's baseline, not used by the codec:</b> {@code SalsaStream} as it was before "CURVE round 3"
 * (docs/performance-notes.md), on Bouncy Castle's Poly1305 and a scratch copy, kept so {@code SecretBoxBenchmark} can
 * measure the new one against it.
 *
 * <p> * The Salsa20 key stream of one key, restarted for each short nonce and XORed into bytes a word at a time. The
 * Salsa20 core is Bouncy Castle's ({@link Salsa20Engine#salsaCore}); what is here is only the state layout and the
 * XOR, because Bouncy Castle's engine XORs byte by byte and repacks each block into bytes first, which made it a
 * third of a CURVE message's cost. Checked byte for byte against libsodium's boxes by the CURVE vector tests.
 * Event-loop confined; allocates nothing after construction.
 *
 * @see <a href="https://cr.yp.to/snuffle/spec.pdf">Salsa20 specification</a>
 */
final class LegacySalsaStream {
    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    /** Input block: constants, key, nonce (words 6, 7) and block counter (words 8, 9). */
    private final int[] state = new int[16];
    /** The current key-stream block. */
    private final int[] block = new int[16];
    /** Bytes of {@link #block} already used (64: none left). */
    private int used = 64;

    /** @param key the 32-byte key (for CURVE messages: HSalsa20 of the connection key and the nonce prefix) */
    LegacySalsaStream(byte[] key) {
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
     * Restarts the stream at block 0 for {@code nonce} (its 8 bytes in network order, as CurveZMQ's short nonces are)
     * and puts the stream's first 32 bytes into {@code macKey}: NaCl's secretbox keys Poly1305 with them and
     * encrypts from byte 32 on.
     */
    void start(long nonce, byte[] macKey) {
        // Salsa20 reads the nonce bytes as two little-endian words.
        state[6] = Integer.reverseBytes((int) (nonce >>> 32));
        state[7] = Integer.reverseBytes((int) nonce);
        state[8] = 0;
        state[9] = 0;
        nextBlock();
        for (int i = 0; i < 8; i++) {
            LE_INT.set(macKey, 4 * i, block[i]);
        }
        used = 32;
    }

    /** XORs the next {@code length} bytes of the stream into {@code data} from {@code offset}. */
    void xor(byte[] data, int offset, int length) {
        int i = offset;
        int end = offset + length;
        // Finish the current block byte by byte up to a word boundary of the stream, then whole words and blocks.
        while (i < end && (used & 3) != 0 && used < 64) {
            data[i++] ^= (byte) (block[used >> 2] >>> ((used & 3) << 3));
            used++;
        }
        while (i < end) {
            if (used == 64) {
                nextBlock();
            }
            if (end - i >= 4) {
                int w = used >> 2;
                LE_INT.set(data, i, (int) LE_INT.get(data, i) ^ block[w]);
                i += 4;
                used += 4;
            } else {
                data[i++] ^= (byte) (block[used >> 2] >>> ((used & 3) << 3));
                used++;
            }
        }
    }

    private void nextBlock() {
        Salsa20Engine.salsaCore(20, state, block);
        // The 64-bit block counter; 2^70 bytes under one nonce is far beyond any frame.
        if (++state[8] == 0) {
            state[9]++;
        }
        used = 0;
    }
}
