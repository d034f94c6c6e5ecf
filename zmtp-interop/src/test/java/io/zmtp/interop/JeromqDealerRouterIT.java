package io.zmtp.interop;

import static io.zmtp.interop.Interop.COUNT;
import static io.zmtp.interop.Interop.SEED;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.interop.Interop.JeroLink;
import io.zmtp.interop.Interop.Side;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;

/**
 * Our DEALER and ROUTER against JeroMQ 0.6.0's ROUTER and DEALER (in-process), each side binding in turn: we send
 * 10,000 messages of 1 to 3 frames (0 B to 1 MiB), JeroMQ checks every one and echoes it, and we check the echoes.
 */
class JeromqDealerRouterIT {
    private static final Logger LOG = LoggerFactory.getLogger(JeromqDealerRouterIT.class);

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER, Side.THEY_BIND),
                Arguments.of(ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.ROUTER, ZmtpSocketType.DEALER, Side.THEY_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.DEALER, Side.WE_BIND),
                Arguments.of(ZmtpSocketType.DEALER, ZmtpSocketType.DEALER, Side.THEY_BIND));
    }

    @ParameterizedTest(name = "our {0} <-> JeroMQ {1}, {2}")
    @MethodSource("pairs")
    void everyMessageIsEchoedIntact(ZmtpSocketType ours, ZmtpSocketType theirs, Side side) throws Exception {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("our {} <-> {} {}, {}: {} messages", ours, JeroMq.version(), theirs, side, COUNT);
        Handlers.EchoChecker checker = new Handlers.EchoChecker(payloads, COUNT, Interop.WINDOW);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            JeroLink link = Interop.linkJeroMq(netty, side, ZmtpConfig.builder(ours).build(), checker,
                    SocketType.valueOf(theirs.name()),
                    JeroMq.echo(payloads, COUNT, theirs == ZmtpSocketType.ROUTER));
            try (JeroMq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(checker.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(checker, peer));
                assertThat(handshake.peerSocketType()).isEqualTo(theirs);
                Interop.await(checker.done, Interop.STREAM_WAIT, "echo of " + COUNT + " messages",
                        Interop.context(checker, peer));
                String result = Interop.await(peer.result, Interop.STREAM_WAIT, "JeroMQ peer",
                        Interop.context(checker, peer));
                assertThat(result).contains("received=" + COUNT);
                // More than one only when JeroMQ stalled on a connection and reconnected (see Interop.linkJeroMq).
                int accepted = link.server() == null ? 0 : link.server().acceptedCount();
                LOG.info("our {} <-> JeroMQ {}, {} ({}): {} in {} ms; connections accepted: {}; peer: {}", ours,
                        theirs, side, handshake.version(), checker.progress(), (System.nanoTime() - start) / 1_000_000,
                        accepted, result);
            }
        }
    }
}
