package io.zmtp.interop;

import static io.zmtp.interop.Interop.COUNT;
import static io.zmtp.interop.Interop.SEED;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.interop.Interop.JeroLink;
import io.zmtp.interop.Interop.Side;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;

/**
 * PUB/SUB with JeroMQ 0.6.0 (in-process), each side binding in turn, 10,000 messages per run: JeroMQ PUB -> our
 * SUB-typed peer (which subscribes to {@code data}; JeroMQ's filter must drop the interleaved {@code skip}
 * messages), and our PUB-typed peer -> JeroMQ SUB (we publish only after its subscription arrived).
 */
class JeromqPubSubIT {
    private static final Logger LOG = LoggerFactory.getLogger(JeromqPubSubIT.class);

    @ParameterizedTest(name = "JeroMQ PUB -> our SUB, {0}")
    @EnumSource(Side.class)
    void jeromqPublisherFeedsOurSubscriber(Side side) throws Exception {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("{} PUB -> our SUB, {}: {} messages", JeroMq.version(), side, COUNT);
        Handlers.Subscriber subscriber = new Handlers.Subscriber(payloads, COUNT);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            JeroLink link = Interop.linkJeroMq(netty, side, ZmtpConfig.builder(ZmtpSocketType.SUB).build(),
                    subscriber, SocketType.PUB, JeroMq.publisher(payloads, COUNT, subscriber.warm::isDone));
            try (JeroMq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(subscriber.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(subscriber, peer));
                assertThat(handshake.peerSocketType()).isEqualTo(ZmtpSocketType.PUB);
                // JeroMQ 0.6.0 speaks ZMTP 3.0: our SUBSCRIBE command goes out as a 0x01-prefixed message.
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_30);
                Interop.await(subscriber.done, Interop.STREAM_WAIT, COUNT + " published messages",
                        Interop.context(subscriber, peer));
                String result = Interop.await(peer.result, Interop.STREAM_WAIT, "JeroMQ peer",
                        Interop.context(subscriber, peer));
                assertThat(result).contains("sent=" + COUNT);
                LOG.info("JeroMQ PUB -> our SUB, {} ({}): {} in {} ms; peer: {}", side, handshake.version(),
                        subscriber.progress(), (System.nanoTime() - start) / 1_000_000, result);
            }
        }
    }

    @ParameterizedTest(name = "our PUB -> JeroMQ SUB, {0}")
    @EnumSource(Side.class)
    void ourPublisherFeedsJeromqSubscriber(Side side) throws Exception {
        Payloads payloads = Payloads.of(SEED);
        LOG.info("our PUB -> {} SUB, {}: {} messages", JeroMq.version(), side, COUNT);
        Handlers.Publisher publisher = new Handlers.Publisher(payloads, COUNT);
        long start = System.nanoTime();
        try (NettyZmtp netty = new NettyZmtp()) {
            JeroLink link = Interop.linkJeroMq(netty, side, ZmtpConfig.builder(ZmtpSocketType.PUB).build(),
                    publisher, SocketType.SUB, JeroMq.subscriber(payloads, COUNT));
            try (JeroMq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(publisher.handshake, Interop.HANDSHAKE_WAIT,
                        "handshake", Interop.context(publisher, peer));
                assertThat(handshake.peerSocketType()).isEqualTo(ZmtpSocketType.SUB);
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_30);
                Interop.await(publisher.done, Interop.STREAM_WAIT, "publishing " + COUNT + " messages",
                        Interop.context(publisher, peer));
                String result = Interop.await(peer.result, Interop.STREAM_WAIT, "JeroMQ peer",
                        Interop.context(publisher, peer));
                assertThat(result).contains("received=" + COUNT);
                assertThat(publisher.subscriptions).containsExactly("data");
                // JeroMQ 0.6.0 speaks ZMTP 3.0: the subscription comes as a 0x01-prefixed message.
                assertThat(publisher.subscriptionForms).containsExactly("message");
                LOG.info("our PUB -> JeroMQ SUB, {} ({}): {} in {} ms; peer: {}", side, handshake.version(),
                        publisher.progress(), (System.nanoTime() - start) / 1_000_000, result);
            }
        }
    }
}
