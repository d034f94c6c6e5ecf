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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PUB/SUB with libzmq through pyzmq, each side binding in turn, 10,000 messages ({@code data} + 1 to 3 frames of
 * 0 B to 1 MiB) per run:
 * <ul>
 *   <li>libzmq PUB -> our SUB-typed peer, which subscribes with a SUBSCRIBE command after the handshake; libzmq's
 *       filter must pass every {@code data} message and none of the {@code skip} ones it interleaves;</li>
 *   <li>our PUB-typed peer -> libzmq SUB: we publish only once libzmq's SUBSCRIBE for {@code data} has arrived,
 *       and libzmq checks every message.</li>
 * </ul>
 */
class LibzmqPubSubIT {
    private static final Logger LOG = LoggerFactory.getLogger(LibzmqPubSubIT.class);

    @ParameterizedTest(name = "libzmq PUB -> our SUB, {0}")
    @EnumSource(Side.class)
    void libzmqPublisherFeedsOurSubscriber(Side side) {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("{} PUB -> our SUB, {}: {} messages", Interop.libzmq(), side, COUNT);
        Handlers.Subscriber subscriber = new Handlers.Subscriber(payloads, COUNT);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, side, ZmtpConfig.builder(ZmtpSocketType.SUB).build(), subscriber, true,
                    "pub_peer.py", "{endpoint}", "{mode}", String.valueOf(COUNT), String.valueOf(SEED));
            try (PyZmq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(subscriber.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(subscriber, peer));
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_31);
                assertThat(handshake.peerSocketType()).isEqualTo(ZmtpSocketType.PUB);
                // A warm-up message got through libzmq's filter: our SUBSCRIBE is in place.
                Interop.await(subscriber.warm, Duration.ofSeconds(15), "first warm-up message",
                        Interop.context(subscriber, peer));
                peer.writeLine("GO");

                Interop.await(subscriber.done, Interop.STREAM_WAIT, COUNT + " published messages",
                        Interop.context(subscriber, peer));
                String result = Interop.result(peer);
                assertThat(result).startsWith("RESULT OK").contains("sent=" + COUNT);
                peer.awaitExit(Duration.ofSeconds(15));
                LOG.info("libzmq PUB -> our SUB, {}: {} in {} ms; peer: {}", side, subscriber.progress(),
                        (System.nanoTime() - start) / 1_000_000, result);
            }
        }
    }

    @ParameterizedTest(name = "our PUB -> libzmq SUB, {0}")
    @EnumSource(Side.class)
    void ourPublisherFeedsLibzmqSubscriber(Side side) {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("our PUB -> {} SUB, {}: {} messages", Interop.libzmq(), side, COUNT);
        Handlers.Publisher publisher = new Handlers.Publisher(payloads, COUNT);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, side, ZmtpConfig.builder(ZmtpSocketType.PUB).build(), publisher, false,
                    "sub_peer.py", "{endpoint}", "{mode}", String.valueOf(COUNT), String.valueOf(SEED));
            try (PyZmq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(publisher.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(publisher, peer));
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_31);
                assertThat(handshake.peerSocketType()).isEqualTo(ZmtpSocketType.SUB);

                Interop.await(publisher.done, Interop.STREAM_WAIT, "publishing " + COUNT + " messages",
                        Interop.context(publisher, peer));
                String result = Interop.result(peer);
                assertThat(result).startsWith("RESULT OK").contains("received=" + COUNT);
                assertThat(publisher.subscriptions).containsExactly("data");
                // libzmq speaks ZMTP 3.1: the subscription comes as a SUBSCRIBE command.
                assertThat(publisher.subscriptionForms).containsExactly("command");
                peer.awaitExit(Duration.ofSeconds(15));
                LOG.info("our PUB -> libzmq SUB, {}: {} in {} ms; peer: {}", side, publisher.progress(),
                        (System.nanoTime() - start) / 1_000_000, result);
            }
        }
    }
}
