package io.zmtp.codec;

import io.zmtp.testkit.ZmtpVector;
import io.zmtp.testkit.ZmtpVectors;
import org.junit.jupiter.params.provider.Arguments;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Seeds for the fuzz targets, from the libzmq wire captures in zmtp-testkit: each side's whole byte stream (for the
 * handshake) and the frames each side sent (for frames), behind the two bytes of {@link CodecFuzzing}'s input
 * layout. In regression mode every seed runs as a test case; when fuzzing, they start the corpus.
 */
final class FuzzSeeds {
    /** Every wire vector (curve_test_keys holds keys, not bytes on a wire). */
    private static final List<String> VECTORS = List.of("a_req_null_handshake", "b_router_routing_id_connect",
            "b2_router_bound_identities", "c_plain_client_hello", "c2_plain_server_zap",
            "c3_plain_server_reject_error", "d1_downgrade_zmtp10", "d2_downgrade_zmtp10_identity",
            "d3_downgrade_zmtp20", "d4_downgrade_zmtp20_pubsub", "e_sub_subscribe_zmtp31", "e2_sub_subscribe_zmtp30",
            "e3_pub_receives_both_subscription_forms", "f_heartbeat_ping_pong", "g_long_frame_multipart",
            "h_socket_type_mismatch", "i_curve_handshake");

    private FuzzSeeds() {
    }

    /**
     * Each side's stream of each vector (its complete blocks in wire order), under a configuration byte that walks
     * through the configurations, read whole and in reads of up to 7 bytes.
     */
    static Stream<Arguments> streams() {
        List<Arguments> seeds = new ArrayList<>();
        int n = 0;
        for (String name : VECTORS) {
            List<ZmtpVector> blocks = ZmtpVectors.load(name);
            for (ZmtpVector.Direction side : ZmtpVector.Direction.values()) {
                ByteArrayOutputStream stream = new ByteArrayOutputStream();
                for (ZmtpVector block : blocks) {
                    if (block.direction() == side && block.complete()) {
                        stream.writeBytes(block.bytes());
                    }
                }
                if (stream.size() > 0) {
                    seeds.add(seed(n * 37, n % 2 == 0 ? 0x00 : 0x47, stream.toByteArray()));
                    n++;
                }
            }
        }
        return seeds.stream();
    }

    /**
     * The frames each side of each vector sent (its complete blocks captured as frames, or all its blocks where none
     * are), as one stream, through every configuration byte from 0 to 7 in turn. One seed per side, not per block:
     * every test case costs the leak check's GC in regression mode.
     */
    static Stream<Arguments> frames() {
        List<Arguments> seeds = new ArrayList<>();
        int n = 0;
        for (String name : VECTORS) {
            List<ZmtpVector> blocks = ZmtpVectors.load(name);
            for (ZmtpVector.Direction side : ZmtpVector.Direction.values()) {
                ByteArrayOutputStream frames = new ByteArrayOutputStream();
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                for (ZmtpVector block : blocks) {
                    if (block.direction() == side && block.complete()) {
                        all.writeBytes(block.bytes());
                        if (block.header().toLowerCase(java.util.Locale.ROOT).contains("frame")) {
                            frames.writeBytes(block.bytes());
                        }
                    }
                }
                byte[] stream = frames.size() > 0 ? frames.toByteArray() : all.toByteArray();
                if (stream.length > 0) {
                    seeds.add(seed(n % 8, n % 3 == 0 ? 0x85 : 0x00, stream));
                    n++;
                }
            }
        }
        return seeds.stream();
    }

    private static Arguments seed(int config, int reads, byte[] stream) {
        byte[] data = new byte[stream.length + 2];
        data[0] = (byte) config;
        data[1] = (byte) reads;
        System.arraycopy(stream, 0, data, 2, stream.length);
        return Arguments.of((Object) data);
    }
}
