package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sequences of boxes, as a connection seals and opens them, against Bouncy Castle ({@link
 * MessageBoxerTest#referenceSeal}): the path where a box's key stream was made ahead with its direction's next nonces
 * ({@link KeyStreamAhead}) and every way off it: skipped nonces, sizes that change (a box larger than the blocks
 * made), connections interleaved on one thread, a tampered box in the middle. Each box is sealed by one long-lived
 * boxer and opened by another, both compared byte for byte. Deterministic seeds. (Netty's paranoid leak detector
 * records every access to these buffers, which is most of this class's run time, hence the modest box counts.)
 */
class MessageBoxerSequenceTest {
    private static final String PREFIX = "CurveZMQMESSAGEC";

    @Test
    void shouldSealAndOpenASequenceWithAndWithoutSkipsAsBouncyCastle() {
        Random random = new Random(58);
        for (int trial = 0; trial < 4; trial++) {
            Connection c = new Connection(random);
            long nonce = random.nextLong() >>> 1;
            for (int i = 0; i < 250; i++) {
                // Mostly the next nonce; now and then a skip of 1 to 300.
                nonce += random.nextInt(20) == 0 ? 2 + random.nextInt(300) : 1;
                int size = sizeFor(random, trial);
                c.roundTrip(nonce, size, random, trial % 2 == 0 ? Unpooled::directBuffer : Unpooled::buffer);
            }
        }
    }

    @Test
    void shouldTakeTheKeyStreamMadeAheadForTheNextNonces() {
        Random random = new Random(3);
        Connection c = new Connection(random);
        c.roundTrip(100, 1024, random, Unpooled::directBuffer);
        assertThat(MessageBoxer.SEAL_AHEAD.get().take(new Object(), 101)).isEqualTo(-1);
        for (long nonce = 101; nonce < 400; nonce++) {
            c.roundTrip(nonce, 1024, random, Unpooled::directBuffer);
        }
        // Both directions' fills are used up and made again: the next ones are held for 400.
        assertThat(MessageBoxer.SEAL_AHEAD.get().take(c.sealer, 400)).isGreaterThanOrEqualTo(0);
        assertThat(MessageBoxer.OPEN_AHEAD.get().take(c.opener, 400)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void shouldFollowAStreamWhoseSizesChange() {
        Random random = new Random(12);
        Connection c = new Connection(random);
        long nonce = 1;
        int[] phases = {64, 1024, 0, 3000, 15, 16, 4100, 200, 1024, 65536, 1};
        for (int phase : phases) {
            for (int i = 0; i < (phase > 4096 ? 8 : 40); i++) {
                // Around the phase's size, so a box may need a block more than the fill made.
                int size = Math.max(0, phase + random.nextInt(129) - 64);
                c.roundTrip(nonce++, size, random, i % 2 == 0 ? Unpooled::directBuffer : Unpooled::buffer);
            }
        }
    }

    @Test
    void shouldKeepTwoConnectionsInterleavedOnOneThreadApart() {
        Random random = new Random(77);
        Connection a = new Connection(random);
        Connection b = new Connection(random);
        long nonceA = 5;
        long nonceB = 5;
        for (int i = 0; i < 2000; i++) {
            // Box by box, then in bursts: both connections' fills evict each other's.
            boolean toA = i < 1000 ? i % 2 == 0 : (i / 37) % 2 == 0;
            int size = random.nextInt(8) == 0 ? random.nextInt(5000) : 900 + random.nextInt(200);
            if (toA) {
                a.roundTrip(nonceA++, size, random, Unpooled::directBuffer);
            } else {
                b.roundTrip(nonceB++, size, random, Unpooled::buffer);
            }
        }
    }

    @Test
    void shouldRefuseATamperedBoxInTheMiddleOfASequence() {
        Random random = new Random(99);
        Connection c = new Connection(random);
        for (long nonce = 1; nonce <= 200; nonce++) {
            int size = nonce % 3 == 0 ? 64 : 1024;
            if (nonce % 25 != 0) {
                c.roundTrip(nonce, size, random, Unpooled::directBuffer);
                continue;
            }
            byte[] content = new byte[size];
            random.nextBytes(content);
            byte[] bad = MessageBoxerTest.referenceSeal(c.key, nonce, 0, content);
            // The tag, or a byte of the ciphertext.
            bad[nonce % 50 == 0 ? random.nextInt(16) : 16 + random.nextInt(bad.length - 16)] ^= 1;
            ByteBuf in = Unpooled.directBuffer().writeBytes(bad);
            ByteBuf out = Unpooled.directBuffer();
            long n = nonce;
            try {
                assertThatThrownBy(() -> c.opener.open(n, in, bad.length, out))
                        .as("nonce %d", nonce).isInstanceOf(CryptoBox.CryptoException.class);
            } finally {
                in.release();
                out.release();
            }
            // The sealer's side of this nonce still seals and the real box still opens.
            c.roundTrip(nonce, size, random, Unpooled::directBuffer);
        }
    }

    /** Mostly the sizes the made-ahead path covers (below 4 KiB), sometimes up to 64 KiB. */
    private static int sizeFor(Random random, int trial) {
        int r = random.nextInt(20);
        if (r == 0) {
            return random.nextInt(65537);
        }
        if (r < 8) {
            return random.nextInt(4096);
        }
        int[] typical = {0, 64, 1024, 2000};
        return typical[trial % typical.length] + random.nextInt(3);
    }

    /** One direction of a connection: its key, the sending side's boxer and the receiving side's. */
    private static final class Connection {
        final byte[] key = new byte[32];
        final MessageBoxer sealer;
        final MessageBoxer opener;

        Connection(Random random) {
            random.nextBytes(key);
            sealer = new MessageBoxer(key, PREFIX);
            opener = new MessageBoxer(key, PREFIX);
        }

        /** Seals a random frame of {@code size} bytes at a random offset, compares, opens it and compares. */
        void roundTrip(long nonce, int size, Random random, IntFunction<ByteBuf> kind) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            int flags = random.nextInt(4);
            int offset = random.nextInt(16);
            byte[] expected = MessageBoxerTest.referenceSeal(key, nonce, flags, content);
            ByteBuf frame = kind.apply(offset + size);
            ByteBuf sealed = kind.apply(offset + expected.length);
            ByteBuf opened = kind.apply(offset + size);
            try {
                frame.writeZero(offset).writeBytes(content);
                sealed.writeZero(offset);
                opened.writeZero(offset);
                sealer.seal(nonce, flags, frame, offset, size, sealed);
                assertThat(ByteBufUtil.getBytes(sealed, offset, sealed.writerIndex() - offset))
                        .as("sealed, nonce %d size %d", nonce, size).isEqualTo(expected);
                sealed.readerIndex(offset);
                assertThat(opener.open(nonce, sealed, expected.length, opened)).isEqualTo(flags);
                assertThat(ByteBufUtil.getBytes(opened, offset, size))
                        .as("opened, nonce %d size %d", nonce, size).isEqualTo(content);
            } finally {
                frame.release();
                sealed.release();
                opened.release();
            }
        }
    }
}
