package io.zmtp.socket.transport;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Fuzzes the ws:// decoder: arbitrary WebSocket frames (binary, text, continuation, ping, pong, close, reserved;
 * fragmented, unmasked, with reserved bits, oversized or declaring a huge length) into a ws connection after its
 * upgrade, through {@link WsFrameDecoder}, Netty's WebSocket handlers, {@link WsHandler} and the ZMTP codec. What is
 * checked and the input layout are {@link WsFuzzing}'s. Seeded with one input per kind of frame, each on both sides.
 */
class WsFrameFuzzTest {
    /** Selector bits (byte 0): we are the server; a READY from the peer first; heartbeats; the PUB/SUB types. */
    private static final int SERVER = 0x01;
    private static final int READY = 0x08;
    private static final int HEARTBEATS = 0x10;
    private static final int WE_PUB = 0x04;

    static Stream<Arguments> shouldKeepTheGuaranteesWhateverWebSocketFramesThePeerSends() {
        List<byte[]> ops = List.of(
                ops(0x02, 3, 0x00, 'h', 'i'),                                      // one message, one frame
                ops(0x02, 2, 0x01, 'a', 0x02, 2, 0x00, 'b'),                       // two frames, MORE on the first
                ops(0x0A, 2, 0x00, 'a', 0x00, 1, 'b'),                             // fragmented: then a continuation
                ops(0x00, 1, 'b'),                                                 // a continuation out of the blue
                ops(0x01, 2, 'h', 'i'),                                            // text
                ops(0x05, 0, 0x05, 0, 0x05, 0, 0x05, 0, 0x05, 0, 0x05, 0),         // pings
                ops(0x06, 1, 'x'),                                                 // an unsolicited pong
                ops(0x04, 2, 0x03, 0xE8),                                          // close, 1000
                ops(0xC2, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF),       // a huge declared length
                ops(0xC2, 0, 0x00, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF),       // 2 GiB declared
                oversized(),                                                       // 255 bytes: over 64 and 200
                ops(0x22, 2, 0x00, 'x'),                                           // the wrong masking for the side
                ops(0x12, 2, 0x00, 'x'),                                           // RSV1 without an extension
                ops(0x07, 1, 'x'),                                                 // a reserved opcode
                ops(0x02, 0),                                                      // empty: no flags byte
                ops(0x42, 3, 0x00, 'h', 'i'),                                      // a short frame, 16-bit length
                ops(0x82, 3, 0x00, 'h', 'i'),                                      // a short frame, 64-bit length
                ops(0x02, 8, 0x02, 4, 'P', 'I', 'N', 'G', 0x00, 0x0A),             // PING command
                ops(0x02, 3, 0x00, 0x01, 'A', 0x02, 3, 0x00, 0x00, 'A'),           // SUB's subscribe, cancel
                // Several messages in one read around a ping: rewritten in place, handed on as one run, in order.
                ops(0x02, 2, 0x01, 'a', 0x02, 3, 0x00, 'b', 'c', 0x05, 1, 'p', 0x02, 2, 0x00, 'd'),
                longBinary(0x03, 70, 0x00),                                        // 1,120 B: handed on in place
                longBinary(0x43, 20, 0x01),                                        // 320 B, 16-bit length, MORE
                longBinary(0x83, 40, 0x00));                                       // 640 B, 64-bit length
        List<Arguments> seeds = new ArrayList<>();
        int[] configs = {SERVER | READY, READY, SERVER | READY | HEARTBEATS | WE_PUB, SERVER, READY | WE_PUB};
        int[] reads = {0x00, 0x47, 0xC0, 0x83};
        int n = 0;
        for (byte[] o : ops) {
            for (int config : configs) {
                byte[] input = new byte[o.length + 2];
                input[0] = (byte) config;
                input[1] = (byte) reads[n++ % reads.length];
                System.arraycopy(o, 0, input, 2, o.length);
                seeds.add(Arguments.of((Object) input));
            }
        }
        return seeds.stream();
    }

    @MethodSource
    @FuzzTest(maxDuration = "10s")
    void shouldKeepTheGuaranteesWhateverWebSocketFramesThePeerSends(byte[] data) {
        WsFuzzing.run(data);
    }

    private static byte[] ops(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return b;
    }

    /** A binary frame of the repeated kind: {@code length} bytes (the first a flags byte) sent 16 times over. */
    private static byte[] longBinary(int header, int length, int flags) {
        byte[] b = new byte[2 + length];
        b[0] = (byte) header;
        b[1] = (byte) length;
        b[2] = (byte) flags;
        for (int i = 3; i < b.length; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    private static byte[] oversized() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x42);
        b.write(255);
        b.write(0x00);
        for (int i = 1; i < 255; i++) {
            b.write('z');
        }
        return b.toByteArray();
    }
}
