package io.zmtp.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zmtp.codec.mechanism.NullMechanism;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/**
 * Fuzzes the handshake with the NULL mechanism from the peer's first byte, for every version a peer can pick with
 * its bytes (staged detection of 1.0, 2.0, 3.0 and 3.1) and for handlers restricted to 3.x, 2.0 or 1.0. Seeded from
 * the libzmq captures; what is checked is in {@link CodecFuzzing}. Other mechanisms get a class like this one that
 * passes their factories ({@link PlainHandshakeFuzzTest}, {@link CurveHandshakeFuzzTest}).
 */
class NullHandshakeFuzzTest {

    static Stream<Arguments> shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte() {
        return FuzzSeeds.streams();
    }

    @MethodSource
    @FuzzTest(maxDuration = "10s")
    void shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte(byte[] data) {
        CodecFuzzing.handshake(data, NullMechanism.factory());
    }
}
