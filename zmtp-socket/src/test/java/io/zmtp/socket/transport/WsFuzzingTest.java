package io.zmtp.socket.transport;

import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fuzz harness reaches what it is meant to fuzz: on either side, a good upgrade and READY complete the ZMTP
 * handshake and a message arrives, so the fuzzer's frames meet the codec and not a failed upgrade; a fragment and a
 * huge declared length are refused with a protocol error.
 */
class WsFuzzingTest {
    /** Byte 0: READY first, and the side; byte 1: a 1024-byte limit, one read. */
    private static byte[] input(boolean server, int... ops) {
        byte[] b = new byte[ops.length + 2];
        b[0] = (byte) (0x08 | (server ? 0x01 : 0));
        b[1] = (byte) 0x80;
        for (int i = 0; i < ops.length; i++) {
            b[i + 2] = (byte) ops[i];
        }
        return b;
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldCompleteTheHandshakeAndDeliverAMessageOnEitherSide(boolean server) {
        WsFuzzing.Outcome o = WsFuzzing.run(input(server, 0x02, 3, 0x00, 'h', 'i', 0x02, 2, 0x01, 'a', 0x02, 1, 0x00));
        assertThat(o.handshakes()).isOne();
        assertThat(o.events()).hasAtLeastOneElementOfType(ZmtpHandshakeSuccessEvent.class);
        assertThat(o.messages()).isEqualTo(2);
    }

    @Test
    void shouldRefuseAFragmentWithAProtocolError() {
        WsFuzzing.Outcome o = WsFuzzing.run(input(true, 0x0A, 2, 0x00, 'a', 0x00, 1, 'b'));
        assertThat(o.messages()).isZero();
        assertThat(o.events()).hasAtLeastOneElementOfType(ZmtpProtocolErrorEvent.class);
    }

    @Test
    void shouldRefuseAHugeDeclaredLengthWithAProtocolError() {
        WsFuzzing.Outcome o = WsFuzzing.run(input(false, 0xC2, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF));
        assertThat(o.events()).hasAtLeastOneElementOfType(ZmtpProtocolErrorEvent.class);
    }
}
