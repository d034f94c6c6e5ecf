package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;

import java.security.MessageDigest;

/**
 * <b>The benchmark's baseline, not used by the codec:</b> {@code MessageBoxer} as it was before "CURVE round 3"
 * (docs/performance-notes.md), on Bouncy Castle's Poly1305 and a scratch copy, kept so {@code SecretBoxBenchmark} can
 * measure the new one against it.
 *
 * <p> * XSalsa20-Poly1305 boxes for one direction of one connection's messages, with nothing allocated per box. Every
 * MESSAGE nonce of a direction shares its first 16 bytes ("CurveZMQMESSAGEC" or "...S"), so the HSalsa20 step of
 * XSalsa20 is done once, when the connection starts, and each box only sets the 8-byte short nonce into a reused
 * Salsa20 state ({@link LegacySalsaStream}). The Poly1305 key object is reused too (its array is rewritten for each box).
 * Bytes go through a per-thread scratch array in chunks, so a large frame costs no large buffer.
 *
 * <p>Event-loop confined, like the connection it belongs to.
 */
final class LegacyMessageBoxer {
    private static final int CHUNK = 8 * 1024;
    /** One scratch array per I/O thread: boxing never yields the thread, so connections can share it. */
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<byte[]>() {
        @Override
        protected byte[] initialValue() {
            return new byte[CHUNK];
        }
    };

    private final LegacySalsaStream salsa;
    private final Poly1305 mac = new Poly1305();
    private final KeyParameter macKey = new KeyParameter(new byte[32]);
    /** The key object's own array (Bouncy Castle hands it out): rewritten for each box, so nothing is allocated. */
    private final byte[] macKeyBytes = macKey.getKey();
    private final byte[] tag = new byte[CryptoBox.TAG_LENGTH];
    private final byte[] expectedTag = new byte[CryptoBox.TAG_LENGTH];

    /**
     * @param key    the connection's precomputed key ({@code crypto_box_beforenm})
     * @param prefix the 16-byte nonce prefix of this direction
     */
    LegacyMessageBoxer(byte[] key, String prefix) {
        byte[] p = new byte[16];
        for (int i = 0; i < 16; i++) {
            p[i] = (byte) prefix.charAt(i);
        }
        byte[] subkey = CryptoBox.hsalsa20(key, p);
        salsa = new LegacySalsaStream(subkey);
        java.util.Arrays.fill(subkey, (byte) 0);
        if (macKey.getKey() != macKeyBytes) {
            // A Bouncy Castle whose getKey() copies would MAC with a stale key; refuse it rather than send garbage.
            throw new IllegalStateException("KeyParameter.getKey() copies; this Bouncy Castle is not supported");
        }
    }

    /** Starts a box with {@code nonce}: the key stream restarts, its first 32 bytes key the MAC. */
    private void begin(long nonce) {
        salsa.start(nonce, macKeyBytes);
        mac.init(macKey);
    }

    /**
     * Writes the box of {@code flags} followed by {@code length} bytes of {@code content} from {@code index}: the tag,
     * then the ciphertext, at {@code out}'s writer index.
     */
    void seal(long nonce, int flags, ByteBuf content, int index, int length, ByteBuf out) {
        begin(nonce);
        int tagAt = out.writerIndex();
        out.writeZero(CryptoBox.TAG_LENGTH);
        byte[] scratch = SCRATCH.get();
        scratch[0] = (byte) flags;
        int n = Math.min(length, CHUNK - 1);
        content.getBytes(index, scratch, 1, n);
        encryptChunk(scratch, 1 + n, out);
        for (int done = n; done < length; done += n) {
            n = Math.min(length - done, CHUNK);
            content.getBytes(index + done, scratch, 0, n);
            encryptChunk(scratch, n, out);
        }
        mac.doFinal(tag, 0);
        out.setBytes(tagAt, tag);
    }

    private void encryptChunk(byte[] scratch, int n, ByteBuf out) {
        salsa.xor(scratch, 0, n);
        mac.update(scratch, 0, n);
        out.writeBytes(scratch, 0, n);
    }

    /**
     * Opens a box of {@code length} bytes (tag, then ciphertext of at least the flags byte) from {@code in}'s reader
     * index, consuming it; writes the content after the flags byte to {@code out} and returns the flags byte. On a
     * wrong tag it throws, having written to {@code out} bytes the caller must discard.
     *
     * @throws CryptoBox.CryptoException if the tag is wrong
     */
    int open(long nonce, ByteBuf in, int length, ByteBuf out) {
        begin(nonce);
        in.readBytes(expectedTag);
        int remaining = length - CryptoBox.TAG_LENGTH;
        byte[] scratch = SCRATCH.get();
        int flags = -1;
        while (remaining > 0) {
            int n = Math.min(remaining, CHUNK);
            in.readBytes(scratch, 0, n);
            mac.update(scratch, 0, n);
            salsa.xor(scratch, 0, n);
            // The first byte of the first chunk is the flags byte; the rest is the frame.
            int skip = flags < 0 ? 1 : 0;
            if (flags < 0) {
                flags = scratch[0] & 0xFF;
            }
            out.writeBytes(scratch, skip, n - skip);
            remaining -= n;
        }
        mac.doFinal(tag, 0);
        if (!MessageDigest.isEqual(tag, expectedTag)) {
            throw new CryptoBox.CryptoException("MESSAGE box does not open: tampered with or forged");
        }
        return flags;
    }

}
