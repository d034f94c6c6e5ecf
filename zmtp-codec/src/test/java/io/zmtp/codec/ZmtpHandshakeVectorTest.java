package io.zmtp.codec;

import io.netty.buffer.Unpooled;
import io.zmtp.testkit.ZmtpVector;
import io.zmtp.testkit.ZmtpVector.Direction;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

import static io.zmtp.codec.VectorSupport.blocks;
import static io.zmtp.codec.VectorSupport.feedAllWays;
import static io.zmtp.codec.VectorSupport.libzmq;
import static io.zmtp.codec.VectorSupport.load;
import static io.zmtp.codec.VectorSupport.raw;
import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.libzmqGreeting;
import static io.zmtp.codec.Wire.rawGreeting;
import static io.zmtp.codec.Wire.ready;
import static io.zmtp.codec.Wire.withPadding;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The libzmq 4.3.5 wire vectors (ZMTP 3.x ones), both ways round:
 * <ul>
 *   <li>our handler plays the raw peer's role and is fed what libzmq sent ('L>'): it must write what the raw peer
 *   wrote ('R>'), report the handshake, and decode what followed;</li>
 *   <li>our handler plays libzmq's role and is fed the raw peer's bytes: everything it writes, including frames the
 *   application writes after the handshake, must be exactly libzmq's bytes.</li>
 * </ul>
 * Every input is fed whole, one byte at a time, and split in two at every position.
 *
 * <p>Where a vector leaves something out (f, g and h show no greeting; e and e2 show only bytes 10-11 of libzmq's;
 * raw peers' READY is missing in e, f, g), it is rebuilt from the conventions the other vectors show: libzmq's
 * greeting carries padding = identity length + 1, raw peers' carries 0. Our greeting follows libzmq, so where the
 * raw peer's padding differs (it is "not significant", rfc 23) the expected bytes get our padding.
 */
class ZmtpHandshakeVectorTest {

    private static ZmtpConfig config(ZmtpSocketType type) {
        return ZmtpConfig.builder(type).build();
    }

    private static ZmtpConfig config(ZmtpSocketType type, String identity) {
        return ZmtpConfig.builder(type).identity(ascii(identity)).build();
    }

    /** g's 300-byte frame, which the capture shows only in part, rebuilt and checked against the part shown. */
    private static byte[] longFrameOfVectorG() {
        ZmtpVector shown = load("g_long_frame_multipart").stream().filter(b -> !b.complete()).findFirst()
                .orElseThrow();
        byte[] full = Wire.frame(0, Wire.repeat('B', 300));
        assertThat(full).startsWith(shown.bytes()).hasSize(shown.wireLength());
        return full;
    }

    private static byte[] vectorGStream() {
        return concat(blocks("g_long_frame_multipart", Direction.LIBZMQ, "3 bytes"), longFrameOfVectorG());
    }

    private static byte[] errorReason(byte[] errorFrame) {
        assertThat(errorFrame).startsWith(hex("04"));
        assertThat(Arrays.copyOfRange(errorFrame, 2, 8)).isEqualTo(concat(new byte[] {5}, ascii("ERROR")));
        int reasonLength = errorFrame[8] & 0xFF;
        assertThat(errorFrame).hasSize(9 + reasonLength);
        assertThat(errorFrame[1] & 0xFF).isEqualTo(7 + reasonLength);
        return Arrays.copyOfRange(errorFrame, 9, errorFrame.length);
    }

    // ---- our handler in the raw peer's role, fed libzmq's bytes ----

    @Test
    void shouldStageGreetingLikeLibzmqWhenReplayingVectorA() {
        List<ZmtpVector> blocks = load("a_req_null_handshake");
        try (TestPeer rep = new TestPeer(config(ZmtpSocketType.REP))) {
            Deque<byte[]> written = new ArrayDeque<>(rep.outboundChunks());
            boolean first = true;
            // Up to both READYs: each raw-peer block must be exactly one write of ours, in the same order (the raw
            // peer held its stages back; we send the signature at once, like libzmq, and the rest as libzmq does).
            for (ZmtpVector block : blocks.subList(0, 8)) {
                if (block.direction() == Direction.LIBZMQ) {
                    rep.feed(block.bytes());
                    written.addAll(rep.outboundChunks());
                    continue;
                }
                byte[] expected = first ? withPadding(block.bytes(), 1) : block.bytes();
                first = false;
                assertThat(written.poll()).as("our write matching %s", block).isEqualTo(expected);
            }
            assertThat(written).isEmpty();
            assertThat(rep.success().peerSocketType()).isEqualTo(ZmtpSocketType.REQ);
        }
    }

    @Test
    void shouldHandshakeAsRepWithLibzmqReqAndDecodeRequest() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.REP), libzmq("a_req_null_handshake"),
                p -> p.write(ZmtpMessage.of("", "world")));

        assertThat(o.output).isEqualTo(hex(withPadding(raw("a_req_null_handshake"), 1)));
        assertThat(o.open).isTrue();
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_31);
        assertThat(o.success.mechanism()).isEqualTo("NULL");
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.REQ);
        assertThat(o.success.peerIdentity()).isEmpty();
        assertThat(o.success.peerMetadata().asMap()).containsOnlyKeys("Socket-Type", "Identity");
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[, 68656c6c6f]");
    }

    @Test
    void shouldHandshakeAsRouterWithLibzmqRouterAnnouncingRoutingId() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.ROUTER, "srv"),
                libzmq("b_router_routing_id_connect"));

        // The raw peer sent its 64 bytes at once; ours come as 10 + 1 + 53, so compare the concatenation.
        assertThat(o.output).isEqualTo(hex(withPadding(raw("b_router_routing_id_connect"), 4)));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.ROUTER);
        assertThat(o.success.peerIdentity()).isEqualTo(ascii("client-1"));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[70696e67]");
    }

    @Test
    void shouldHandshakeAsDealerWithIdentityWithBoundLibzmqRouter() {
        byte[] input = blocks("b2_router_bound_identities", Direction.LIBZMQ, "!peer #");
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.DEALER, "PEER-A"), input,
                p -> p.write(ZmtpMessage.of("", "hi")));

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(6),
                blocks("b2_router_bound_identities", Direction.RAW_PEER, "!peer #"))));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.ROUTER);
        assertThat(o.success.peerMetadata().value("Identity")).isEmpty();
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldHandshakeAsPubAndDecodeSubscribeAndCancelCommands() {
        byte[] greeting = libzmqGreeting(0);
        assertThat(Arrays.copyOfRange(greeting, 10, 12))
                .isEqualTo(Wire.blocks(load("e_sub_subscribe_zmtp31"), Direction.LIBZMQ, h -> h.equals("2 bytes")));
        byte[] input = concat(greeting, blocks("e_sub_subscribe_zmtp31", Direction.LIBZMQ, "frame"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUB), input);

        assertThat(o.output).isEqualTo(hex(concat(withPadding(raw("e_sub_subscribe_zmtp31"), 1),
                ready("Socket-Type", "PUB"))));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_31);
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.SUB);
        assertThat(o.success.peerMetadata().asMap()).containsOnlyKeys("Socket-Type");
        assertThat(o.log).containsExactly(TestPeer.describe(o.success),
                "cmd SUBSCRIBE 616263", "cmd CANCEL 616263", "msg[0178797a]");
    }

    @Test
    void shouldHandshakeAsPubAndDecodeSubscriptionMessagesMeantForZmtp30() {
        byte[] input = concat(libzmqGreeting(0), blocks("e2_sub_subscribe_zmtp30", Direction.LIBZMQ, "frame"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUB), input);

        // The raw peer announced 3.0; we announce 3.1, as libzmq does.
        byte[] expectedGreeting = withPadding(raw("e2_sub_subscribe_zmtp30"), 1);
        expectedGreeting[11] = 1;
        assertThat(o.output).isEqualTo(hex(concat(expectedGreeting, ready("Socket-Type", "PUB"))));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success),
                "msg[01616263]", "msg[00616263]", "msg[0178797a]");
    }

    @Test
    void shouldAnswerLibzmqPingWithPongAndSwallowHeartbeats() {
        byte[] input = concat(libzmqGreeting(0), libzmq("f_heartbeat_ping_pong"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.DEALER), input,
                p -> p.write(ZmtpCommand.ping(0, ascii("ctx-1234"))));

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0),
                ready("Socket-Type", "DEALER", "Identity", ""),
                Wire.command("PONG", new byte[0]),
                raw("f_heartbeat_ping_pong"))));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.DEALER);
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
        assertThat(o.open).isTrue();
    }

    @Test
    void shouldDecodeLongFrameMultipartFromLibzmqDealer() {
        byte[] input = concat(libzmqGreeting(0), ready("Socket-Type", "DEALER", "Identity", ""), vectorGStream());
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.ROUTER), input);

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0), ready("Socket-Type", "ROUTER", "Identity", ""))));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success),
                "msg[41, " + hex(Wire.repeat('B', 300)) + "]");
    }

    @Test
    void shouldRefuseLibzmqPullAsPubWithErrorAfterReady() {
        byte[] input = concat(libzmqGreeting(0), libzmq("h_socket_type_mismatch"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUB), input);

        byte[] expectedStart = concat(libzmqGreeting(0), raw("h_socket_type_mismatch"));
        assertThat(o.outputBytes).startsWith(expectedStart);
        byte[] error = Arrays.copyOfRange(o.outputBytes, expectedStart.length, o.outputBytes.length);
        assertThat(new String(errorReason(error))).contains("PULL");
        assertThat(o.failure.reason()).isEqualTo(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE);
        assertThat(o.log).containsExactly("failure INCOMPATIBLE_SOCKET_TYPE");
        assertThat(o.open).isFalse();
    }

    // ---- our handler in libzmq's role, fed the raw peer's bytes: we must write what libzmq wrote ----

    @Test
    void shouldWriteExactlyWhatLibzmqReqWrites() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.REQ), raw("a_req_null_handshake"),
                p -> p.write(ZmtpMessage.of("", "hello")));

        assertThat(o.output).isEqualTo(hex(libzmq("a_req_null_handshake")));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.REP);
        assertThat(o.success.peerMetadata().asMap()).containsOnlyKeys("Socket-Type");
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[, 776f726c64]");
    }

    @Test
    void shouldWriteExactlyWhatLibzmqRouterWithRoutingIdWrites() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.ROUTER, "client-1"),
                raw("b_router_routing_id_connect"), p -> p.write(ZmtpMessage.of("ping")));

        assertThat(o.output).isEqualTo(hex(libzmq("b_router_routing_id_connect")));
        assertThat(o.success.peerIdentity()).isEqualTo(ascii("srv"));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldWriteExactlyWhatBoundLibzmqRouterWritesToDealerWithIdentity() {
        byte[] input = concat(rawGreeting(1), blocks("b2_router_bound_identities", Direction.RAW_PEER, "!peer #"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.ROUTER), input);

        assertThat(o.output).isEqualTo(hex(blocks("b2_router_bound_identities", Direction.LIBZMQ, "!peer #")));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.DEALER);
        assertThat(o.success.peerIdentity()).isEqualTo(ascii("PEER-A"));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[, 6869]");
    }

    @Test
    void shouldWriteExactlyWhatBoundLibzmqRouterWritesToAnonymousDealer() {
        byte[] input = concat(rawGreeting(1), blocks("b2_router_bound_identities", Direction.RAW_PEER, "(peer #2)"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.ROUTER), input,
                p -> p.write(ZmtpMessage.of("reply")));

        assertThat(o.output).isEqualTo(hex(concat(
                blocks("b2_router_bound_identities", Direction.LIBZMQ, "!peer #"),
                blocks("b2_router_bound_identities", Direction.LIBZMQ, "(to peer #2)"))));
        assertThat(o.success.peerIdentity()).isEmpty();
        assertThat(o.success.peerMetadata().value("Identity")).isNull();
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[78]");
    }

    @Test
    void shouldWriteSubscribeAndCancelAsCommandsToZmtp31Peer() {
        byte[] input = concat(raw("e_sub_subscribe_zmtp31"), ready("Socket-Type", "PUB"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.SUB), input, p -> {
            p.write(ZmtpCommand.subscribe(Unpooled.copiedBuffer(ascii("abc"))));
            p.write(ZmtpCommand.cancel(Unpooled.copiedBuffer(ascii("abc"))));
            p.write(ZmtpMessage.ofBytes(Wire.hex("0178797a")));
        });

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0),
                blocks("e_sub_subscribe_zmtp31", Direction.LIBZMQ, "frame"))));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_31);
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldWriteSubscribeAndCancelAsMessagesToZmtp30Peer() {
        byte[] input = concat(raw("e2_sub_subscribe_zmtp30"), ready("Socket-Type", "PUB"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.SUB), input, p -> {
            p.write(ZmtpCommand.subscribe(Unpooled.copiedBuffer(ascii("abc"))));
            p.write(ZmtpCommand.cancel(Unpooled.copiedBuffer(ascii("abc"))));
            p.write(ZmtpMessage.ofBytes(Wire.hex("0178797a")));
        });

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0),
                blocks("e2_sub_subscribe_zmtp30", Direction.LIBZMQ, "frame"))));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_30);
    }

    @Test
    void shouldWritePingWithTtlAndPongEchoingContextLikeLibzmq() {
        ZmtpConfig dealer = ZmtpConfig.builder(ZmtpSocketType.DEALER).heartbeatIntervalMillis(300)
                .heartbeatTtlMillis(2500).heartbeatTimeoutMillis(5000).build();
        byte[] input = concat(rawGreeting(1), ready("Socket-Type", "DEALER", "Identity", ""));
        VectorSupport.Outcome o = feedAllWays(dealer, input, p -> {
            p.advance(300);
            p.feed(raw("f_heartbeat_ping_pong"));
        });

        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0), libzmq("f_heartbeat_ping_pong"))));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldWriteLongFrameMultipartLikeLibzmq() {
        byte[] input = concat(rawGreeting(1), ready("Socket-Type", "ROUTER", "Identity", ""));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.DEALER), input,
                p -> p.write(ZmtpMessage.ofBytes(ascii("A"), Wire.repeat('B', 300))));

        // The capture starts after the handshake; libzmq's greeting and READY are rebuilt.
        assertThat(o.output).isEqualTo(hex(concat(libzmqGreeting(0), ready("Socket-Type", "DEALER", "Identity", ""),
                vectorGStream())));
    }

    @Test
    void shouldCloseOnSocketTypeMismatchAfterOwnReadyAndError() {
        byte[] input = concat(rawGreeting(1), raw("h_socket_type_mismatch"));
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PULL), input);

        // libzmq just closes; we also send ERROR first, as rfc 23 asks.
        byte[] expectedStart = concat(libzmqGreeting(0), blocks("h_socket_type_mismatch", Direction.LIBZMQ, "frame"));
        assertThat(o.outputBytes).startsWith(expectedStart);
        byte[] error = Arrays.copyOfRange(o.outputBytes, expectedStart.length, o.outputBytes.length);
        assertThat(new String(errorReason(error))).contains("PUB");
        assertThat(o.failure.reason()).isEqualTo(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE);
        assertThat(o.open).isFalse();
    }
}
