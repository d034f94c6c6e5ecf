package io.zmtp.codec;

import io.zmtp.codec.mechanism.NullMechanism;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * The defects of docs/RELIABILITY.md that the fuzz harness must catch, as fuzz inputs read in pieces of up to 63
 * bytes with a tail long enough that a codec buffering it would break the memory bound: each of these fails against
 * the code before its fix (checked by putting the old check back). Kept out of the fuzz targets' inputs folders
 * because libFuzzer sizes its inputs after the longest seed, and long inputs slow fuzzing down.
 */
class CodecFuzzingRegressionTest {
    private static final int READS_OF_UP_TO_63_BYTES = 0x3F;
    /** Byte 1's bits 6-7: maxMessageSize 200 and 4096. */
    private static final int MAX_200 = 0x40;
    private static final int MAX_4096 = 0xC0;

    private static byte[] input(int config, int reads, byte[]... stream) {
        return Wire.concat(new byte[] {(byte) config, (byte) reads}, Wire.concat(stream));
    }

    private static byte[] tail(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 0xAA);
        return b;
    }

    @Test
    void shouldCloseAFrameWhoseSizeWouldWrapTheMessageTotal() {
        // ZMTP 3.1 (config bits 1-2 = 3): a 100-byte MORE frame, then a long frame of 2^63 - 50 bytes.
        byte[] data = input(0x06, MAX_200 | READS_OF_UP_TO_63_BYTES, Wire.frame(0x01, tail(100)),
                Wire.hex("02"), Wire.u64(Long.MAX_VALUE - 49), tail(4096));
        assertThatCode(() -> CodecFuzzing.frames(ZmtpConfig.builder(ZmtpSocketType.DEALER),
                FrameFuzzTest.HANDSHAKES[3], data)).doesNotThrowAnyException();
    }

    @Test
    void shouldCloseAZmtp10FrameWhoseLengthWouldWrapTheMessageTotal() {
        byte[] data = input(0x00, MAX_200 | READS_OF_UP_TO_63_BYTES, Wire.frame10(0x01, tail(100)),
                Wire.hex("ff"), Wire.u64(Long.MAX_VALUE - 49), Wire.hex("00"), tail(4096));
        assertThatCode(() -> CodecFuzzing.frames(ZmtpConfig.builder(ZmtpSocketType.DEALER),
                FrameFuzzTest.HANDSHAKES[0], data)).doesNotThrowAnyException();
    }

    @Test
    void shouldCloseEndlessEmptyMoreFramesWithinTheirCount() {
        byte[] frames = new byte[2 * 4000];
        for (int i = 0; i < frames.length; i += 2) {
            frames[i] = 0x01;
        }
        byte[] data = input(0x06, MAX_4096 | READS_OF_UP_TO_63_BYTES, frames);
        assertThatCode(() -> CodecFuzzing.frames(ZmtpConfig.builder(ZmtpSocketType.DEALER),
                FrameFuzzTest.HANDSHAKES[3], data)).doesNotThrowAnyException();
    }

    @Test
    void shouldCloseAHandshakeCommandClaiming2To40Bytes() {
        // Our type DEALER (config bits 2-5 = 5), every version; then a long command frame of 2^40 bytes.
        byte[] data = input(5 << 2, READS_OF_UP_TO_63_BYTES, Wire.rawGreeting(1), Wire.hex("06"),
                Wire.u64(1L << 40), Wire.ascii("\u0005READY"), new byte[200 * 1024]);
        assertThatCode(() -> CodecFuzzing.handshake(data, NullMechanism.factory())).doesNotThrowAnyException();
    }
}
