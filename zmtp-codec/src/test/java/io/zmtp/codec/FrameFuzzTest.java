package io.zmtp.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/**
 * Fuzzes the frame decoder and heartbeats after a NULL handshake, for each version: byte 0's bits 1-2 pick ZMTP
 * 1.0, 2.0, 3.0 or 3.1 (we are a DEALER, the peer a ROUTER), bit 0 heartbeats. Seeded with the frames of the libzmq
 * captures; what is checked is in {@link CodecFuzzing}.
 */
class FrameFuzzTest {
    static final byte[][] HANDSHAKES = {
        Wire.hex("01 00"),                                              // 1.0: an anonymous identity frame
        Wire.concat(Wire.signature(0), Wire.hex("01 06 00 00")),        // 2.0: revision 1, ROUTER, no identity
        Wire.concat(Wire.rawGreeting(0), Wire.ready("Socket-Type", "ROUTER")),
        Wire.concat(Wire.rawGreeting(1), Wire.ready("Socket-Type", "ROUTER")),
    };

    static Stream<Arguments> shouldKeepTheCodecGuaranteesWhateverThePeerSendsAfterTheHandshake() {
        return FuzzSeeds.frames();
    }

    @MethodSource
    @FuzzTest(maxDuration = "10s")
    void shouldKeepTheCodecGuaranteesWhateverThePeerSendsAfterTheHandshake(byte[] data) {
        if (data.length < 1) {
            return;
        }
        CodecFuzzing.frames(ZmtpConfig.builder(ZmtpSocketType.DEALER), HANDSHAKES[(data[0] >> 1) & 0x03], data);
    }
}
