package io.zmtp.interop;

import static io.zmtp.interop.Interop.COUNT;
import static io.zmtp.interop.Interop.SEED;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.interop.Interop.Link;
import io.zmtp.interop.Interop.Side;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our DEALER and ROUTER (zmtp-codec on plain Netty) against libzmq's ROUTER and DEALER through pyzmq, each side
 * binding in turn: we send 10,000 messages of 1 to 3 frames (0 B to 1 MiB), libzmq checks every one and echoes it,
 * and we check every echo, byte for byte and in order.
 */
class LibzmqDealerRouterIT {
    private static final Logger LOG = LoggerFactory.getLogger(LibzmqDealerRouterIT.class);

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, Side.THEY_BIND),
                Arguments.of(ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, Side.THEY_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.DEALER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.DEALER, Side.THEY_BIND));
    }

    @ParameterizedTest(name = "our {0} <-> libzmq {1}, {2}")
    @MethodSource("pairs")
    void everyMessageIsEchoedIntact(ZmtpSocketType ours, ZmtpSocketType theirs, Side side) {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("our {} <-> {} {}, {}: {} messages, {} payload bytes each way", ours, Interop.libzmq(), theirs,
                side, COUNT, payloads.totalBytes(COUNT));
        Handlers.EchoChecker checker = new Handlers.EchoChecker(payloads, COUNT, Interop.WINDOW);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, side, ZmtpConfig.builder(ours).build(), checker, false,
                    "echo_peer.py", theirs.name(), "{endpoint}", "{mode}", String.valueOf(COUNT),
                    String.valueOf(SEED));
            try (PyZmq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(checker.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(checker, peer));
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_31);
                assertThat(handshake.peerSocketType()).isEqualTo(theirs);

                Interop.await(checker.done, Interop.STREAM_WAIT, "echo of " + COUNT + " messages",
                        Interop.context(checker, peer));
                String result = Interop.result(peer);
                assertThat(result).startsWith("RESULT OK").contains("received=" + COUNT);
                peer.awaitExit(Duration.ofSeconds(15));
                if (link.server() != null) {
                    assertThat(link.server().acceptedCount()).as("connections accepted").isEqualTo(1);
                }
                LOG.info("our {} <-> libzmq {}, {}: {} in {} ms; peer: {}", ours, theirs, side, checker.progress(),
                        (System.nanoTime() - start) / 1_000_000, result);
            }
        }
    }
}
