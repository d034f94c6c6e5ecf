package io.zmtp.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.CurveTestKeys;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

/**
 * Fuzzes the CURVE handshake (rfc 26) from the peer's first byte, as the client (byte 0's bit 0 clear) and as the
 * server (set), with the key pairs of the testkit's {@code curve_test_keys.txt} (those of the libzmq capture
 * {@code i_curve_handshake}, which is among the seeds). Random bytes rarely open a box, so this mostly exercises the
 * command parsing and size checks before and around the crypto; the frames after a CURVE handshake are encrypted and
 * have no target yet.
 */
class CurveHandshakeFuzzTest {
    private static final CurveKeyPair SERVER = CurveKeyPair.fromZ85(CurveTestKeys.SERVER_PUBLIC_Z85,
            CurveTestKeys.SERVER_SECRET_Z85);
    private static final CurveKeyPair CLIENT = CurveKeyPair.fromZ85(CurveTestKeys.CLIENT_PUBLIC_Z85,
            CurveTestKeys.CLIENT_SECRET_Z85);

    static Stream<Arguments> shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte() {
        return FuzzSeeds.streams();
    }

    @MethodSource
    @FuzzTest(maxDuration = "10s")
    void shouldKeepTheCodecGuaranteesWhateverThePeerSendsFromItsFirstByte(byte[] data) {
        CodecFuzzing.handshake(data, CurveMechanism.client(CLIENT, SERVER.publicKey()),
                CurveMechanism.server(SERVER));
    }
}
