package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * CURVE's forward secrecy after the handshake (issue 35, item 6): key stream of a nonce already used, XORed with the
 * recorded ciphertext, is the plain text, so none may stay in memory once its box is done: not in the key stream made
 * ahead ({@link KeyStreamAhead}), the per-thread array, the wide core's words or a stream's last block. And a closed
 * connection's boxers (with their subkeys) must not stay reachable from the per-thread buffers. The reference key
 * stream is Bouncy Castle's XSalsa20.
 */
class KeyStreamRetentionTest {
    private static final String PREFIX = "CurveZMQMESSAGEC";

    @Test
    void shouldLeaveNoKeyStreamOfAUsedNonceInAnyBufferOnceItsBoxIsDone() {
        Random random = new Random(35);
        byte[] key = new byte[32];
        random.nextBytes(key);
        MessageBoxer sealer = new MessageBoxer(key, PREFIX);
        MessageBoxer opener = new MessageBoxer(key, PREFIX);
        // Made ahead (small boxes in sequence), the ordinary path (large boxes, a skip), sizes that change.
        int[] sizes = {64, 64, 64, 1024, 1024, 3000, 64, 10_000, 1024, 65_536, 64, 100, 5, 1024, 1024, 200};
        Set<Long> used = new HashSet<>();
        long nonce = 1;
        for (int round = 0; round < 3; round++) {
            for (int size : sizes) {
                roundTrip(sealer, opener, nonce, size, random);
                used.addAll(keyStreamOf(key, nonce, size));
                assertNothingHeld(used, nonce, sealer, opener);
                nonce += round == 1 && size == 3000 ? 7 : 1;
            }
        }
    }

    @Test
    void shouldLetGoOfAConnectionsKeyStreamWhenItsCipherCloses() {
        byte[] key = new byte[32];
        new Random(6).nextBytes(key);
        CurveFrameCipher client = new CurveFrameCipher(key, false, 3, 1);
        CurveFrameCipher server = new CurveFrameCipher(key, true, 2, 2);
        for (int i = 0; i < 5; i++) {
            assertThat(roundTrip(client, server, "request " + i)).isEqualTo("request " + i);
            assertThat(roundTrip(server, client, "reply " + i)).isEqualTo("reply " + i);
        }
        assertThat(MessageBoxer.SEAL_AHEAD.get().owner()).isNotNull();
        assertThat(MessageBoxer.OPEN_AHEAD.get().owner()).isNotNull();
        client.close();
        server.close();
        for (KeyStreamAhead ahead : List.of(MessageBoxer.SEAL_AHEAD.get(), MessageBoxer.OPEN_AHEAD.get())) {
            assertThat(ahead.owner()).isNull();
            assertThat(ahead.keyStream).containsOnly(0L);
        }
    }

    /** Seals a random frame of {@code size} bytes with {@code nonce} and opens it again. */
    private static void roundTrip(MessageBoxer sealer, MessageBoxer opener, long nonce, int size, Random random) {
        byte[] content = new byte[size];
        random.nextBytes(content);
        ByteBuf frame = Unpooled.wrappedBuffer(content);
        ByteBuf sealed = Unpooled.buffer(size + 17);
        ByteBuf opened = Unpooled.buffer(size);
        try {
            sealer.seal(nonce, 0, frame, 0, size, sealed);
            assertThat(opener.open(nonce, sealed, sealed.readableBytes(), opened)).isZero();
            assertThat(opened.array()).startsWith(content);
        } finally {
            frame.release();
            sealed.release();
            opened.release();
        }
    }

    private static String roundTrip(ZmtpFrameCipher from, ZmtpFrameCipher to, String text) {
        ByteBuf clear = Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
        ByteBuf sealed = Unpooled.buffer();
        ByteBuf opened = Unpooled.buffer();
        try {
            from.seal(clear, 0, clear.readableBytes(), 0, sealed);
            // The sealed frame's header: flags and a one-byte size.
            sealed.skipBytes(2);
            to.open(sealed, sealed.readableBytes(), opened);
            return opened.toString(StandardCharsets.US_ASCII);
        } finally {
            clear.release();
            sealed.release();
            opened.release();
        }
    }

    /** Every long of the key stream the box of {@code size} bytes with {@code nonce} used, its MAC key included. */
    private static Set<Long> keyStreamOf(byte[] key, long nonce, int size) {
        int blocks = (32 + 1 + size + 63) / 64;
        XSalsa20Engine salsa = new XSalsa20Engine();
        salsa.init(true, new ParametersWithIV(new KeyParameter(key), CryptoBox.nonce(PREFIX, nonce)));
        byte[] stream = new byte[64 * blocks];
        salsa.processBytes(stream, 0, stream.length, stream, 0);
        Set<Long> longs = new HashSet<>();
        for (int i = 0; i < stream.length; i += 8) {
            long v = 0;
            for (int b = 7; b >= 0; b--) {
                v = (v << 8) | (stream[i + b] & 0xFF);
            }
            longs.add(v);
        }
        longs.remove(0L);
        return longs;
    }

    /** No long of {@code used} in the per-thread buffers nor the boxers' own. */
    private static void assertNothingHeld(Set<Long> used, long nonce, MessageBoxer... boxers) {
        check(used, nonce, "key stream made ahead for sealing", MessageBoxer.SEAL_AHEAD.get().keyStream);
        check(used, nonce, "key stream made ahead for opening", MessageBoxer.OPEN_AHEAD.get().keyStream);
        check(used, nonce, "the thread's key stream array", MessageBoxer.KEY_STREAM.get());
        int[][] words = SalsaStream.LANES.get().words;
        long[] lanes = new long[8 * words[0].length];
        for (int l = 0; l < words[0].length; l++) {
            for (int j = 0; j < 8; j++) {
                lanes[8 * l + j] = pack(words[2 * j][l], words[2 * j + 1][l]);
            }
        }
        check(used, nonce, "the wide core's words", lanes);
        for (MessageBoxer boxer : boxers) {
            long[] block = new long[8];
            for (int j = 0; j < 8; j++) {
                block[j] = pack(boxer.salsa.block[2 * j], boxer.salsa.block[2 * j + 1]);
            }
            check(used, nonce, "a stream's last block", block);
        }
    }

    private static long pack(int lo, int hi) {
        return (lo & 0xFFFFFFFFL) | ((long) hi << 32);
    }

    private static void check(Set<Long> used, long nonce, String where, long[] buffer) {
        for (int i = 0; i < buffer.length; i++) {
            if (buffer[i] != 0 && used.contains(buffer[i])) {
                fail("after the box of nonce %d, %s holds key stream of a used nonce at %d", nonce, where, i);
            }
        }
    }
}
