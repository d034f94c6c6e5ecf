package io.zmtp.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zmtp.testkit.ZmtpVector.Direction;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ZmtpVectorsTest {

    private static byte[] hex(String s) {
        return HexFormat.ofDelimiter(" ").parseHex(s);
    }

    @Test
    void parsesReqNullHandshakeInWireOrder() {
        List<ZmtpVector> blocks = ZmtpVectors.load("a_req_null_handshake");

        ZmtpVector first = blocks.get(0);
        assertThat(first.direction()).isEqualTo(Direction.LIBZMQ);
        assertThat(first.header()).isEqualTo("10 bytes");
        assertThat(first.bytes()).isEqualTo(hex("ff 00 00 00 00 00 00 00 01 7f"));
        assertThat(first.annotations()).hasSize(2)
                .first().asString().startsWith("libzmq sends ONLY the 10-byte signature");

        assertThat(blocks.get(1).direction()).isEqualTo(Direction.RAW_PEER);
        assertThat(blocks.get(1).bytes()).isEqualTo(hex("ff 00 00 00 00 00 00 00 00 7f"));

        ZmtpVector ready = blocks.get(6);
        assertThat(ready.header()).isEqualTo("frame, 40 bytes on the wire");
        assertThat(ready.wireLength()).isEqualTo(40);
        assertThat(ready.bytes()).startsWith(hex("04 26 05 52 45 41 44 59"));

        ZmtpVector last = blocks.get(blocks.size() - 1);
        assertThat(last.notes()).contains("REQ application received: [b'world']  (delimiter stripped by REQ)");
    }

    @Test
    void concatenatesOneSidesStream() {
        byte[] libzmq = ZmtpVectors.bytesFrom("a_req_null_handshake", Direction.LIBZMQ);

        // Signature, major version, rest of greeting: libzmq's 64-byte greeting sent in three parts.
        assertThat(libzmq).startsWith(hex("ff 00 00 00 00 00 00 00 01 7f 03 01 4e 55 4c 4c"));
        assertThat(libzmq[64]).isEqualTo((byte) 0x04);
    }

    @Test
    void zeroByteBlock() {
        List<ZmtpVector> blocks = ZmtpVectors.load("h_socket_type_mismatch");
        ZmtpVector last = blocks.get(blocks.size() - 1);

        assertThat(last.header()).isEqualTo("0 bytes");
        assertThat(last.bytes()).isEmpty();
        assertThat(last.annotations()).isNotEmpty();
    }

    @Test
    void truncatedLongFrame() {
        List<ZmtpVector> blocks = ZmtpVectors.load("g_long_frame_multipart");
        ZmtpVector longFrame = blocks.stream().filter(b -> !b.complete()).findFirst().orElseThrow();

        assertThat(longFrame.wireLength()).isEqualTo(309);
        assertThat(longFrame.bytes()).hasSize(64).startsWith(hex("02 00 00 00 00 00 00 01 2c 42"));
        assertThatThrownBy(() -> ZmtpVectors.bytesFrom(blocks, Direction.LIBZMQ))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_req_null_handshake", "b2_router_bound_identities", "b_router_routing_id_connect",
            "c2_plain_server_zap", "c3_plain_server_reject_error", "c_plain_client_hello", "d1_downgrade_zmtp10",
            "d2_downgrade_zmtp10_identity", "d3_downgrade_zmtp20", "d4_downgrade_zmtp20_pubsub",
            "e2_sub_subscribe_zmtp30", "e3_pub_receives_both_subscription_forms", "e_sub_subscribe_zmtp31",
            "f_heartbeat_ping_pong", "g_long_frame_multipart", "h_socket_type_mismatch", "i_curve_handshake"})
    void everyShippedVectorParses(String name) {
        assertThat(ZmtpVectors.load(name)).isNotEmpty();
    }

    @Test
    void rejectsLengthMismatch() {
        assertThatThrownBy(() -> ZmtpVectors.parse("bad", "L> 3 bytes\n   01 02\n"))
                .hasMessageContaining("bad:1");
    }

    @Test
    void unknownVector() {
        assertThatThrownBy(() -> ZmtpVectors.load("nope")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rawText() {
        assertThat(ZmtpVectors.text("curve_test_keys")).contains("HelloWorld");
    }
}
