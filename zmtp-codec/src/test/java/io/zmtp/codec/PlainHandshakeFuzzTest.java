package io.zmtp.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zmtp.codec.mechanism.PlainMechanism;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/**
 * Fuzzes the PLAIN handshake (rfc 24) from the peer's first byte, as the client (byte 0's bit 0 clear) and as the
 * server (set; libzmq's default authenticator lets any user in), through {@link NullHandshakeFuzzTest}'s harness.
 * Seeded from the same libzmq captures, the PLAIN ones among them.
 */
class PlainHandshakeFuzzTest {

    static Stream<Arguments> shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte() {
        return FuzzSeeds.streams();
    }

    @MethodSource
    @FuzzTest(maxDuration = "10s")
    void shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte(byte[] data) {
        CodecFuzzing.handshake(data, PlainMechanism.client("admin", "secret"), PlainMechanism.server());
    }
}
