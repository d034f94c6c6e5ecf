package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SUB's rules (rfc 29) on pipes without a network: its own filtering (what a ZMTP 1.0 publisher needs) and the
 * subscriptions it sends a publisher that connects. Changes made while a publisher is connected reach it through
 * the socket's endpoints, which these pipes are not part of; the tcp tests (PubSubIT, SubscriptionIT) cover them.
 */
class SubSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();
    private final SubSocket sub = peers.socket(new SubSocket(peers.context, ZmtpSocketType.SUB));

    @AfterEach
    void tearDown() {
        peers.close();
    }

    private void subscribe(String topic) {
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, topic.getBytes(StandardCharsets.ISO_8859_1));
    }

    private void unsubscribe(String topic) {
        sub.setOption(ZmtpSocketOption.UNSUBSCRIBE, topic.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void shouldDeliverOnlyMessagesWhoseFirstFrameMatchesASubscription() {
        subscribe("A");
        subscribe("C");
        Peer pub = peers.connect(sub, PUB);
        pub.send(message("A1", "x"), message("B1"), message("AB"), message("C"), message(""));
        assertThat(receive(sub)).isEqualTo("A1|x");
        assertThat(receive(sub)).isEqualTo("AB");
        assertThat(receive(sub)).isEqualTo("C");
        assertThat(receive(sub)).isNull();
    }

    @Test
    void shouldDeliverNothingWithoutASubscription() {
        Peer pub = peers.connect(sub, PUB);
        pub.send("A1");
        assertThat(receive(sub)).isNull();
        assertThat(pub.pipe.hasInput()).as("released, not kept").isFalse();
    }

    @Test
    void shouldDeliverEverythingWithTheEmptySubscription() {
        subscribe("");
        Peer pub = peers.connect(sub, PUB);
        pub.send(message("anything"), message(""));
        assertThat(receive(sub)).isEqualTo("anything");
        assertThat(receive(sub)).isEqualTo("");
    }

    @Test
    void shouldStopDeliveringAPrefixOnlyWhenItsLastSubscriptionIsUndone() {
        subscribe("A");
        subscribe("A");
        Peer pub = peers.connect(sub, PUB);
        unsubscribe("A");
        pub.send("A1");
        assertThat(receive(sub)).as("subscribed twice, unsubscribed once").isEqualTo("A1");
        unsubscribe("A");
        pub.send("A2");
        assertThat(receive(sub)).isNull();
    }

    @Test
    void shouldSendItsSubscriptionsToAPublisherThatConnects() {
        subscribe("A");
        subscribe("B");
        subscribe("A");
        unsubscribe("B");
        subscribe("C");
        Peer pub = peers.connect(sub, PUB);
        assertThat(pub.sent()).containsExactlyInAnyOrder("SUBSCRIBE:A", "SUBSCRIBE:C");
    }

    @Test
    void shouldFairQueueMatchingMessagesFromItsPublishers() {
        subscribe("");
        Peer a = peers.connect(sub, PUB);
        Peer b = peers.connect(sub, PUB);
        a.send(message("a1"), message("a2"));
        b.send("b1");
        assertThat(receive(sub)).isEqualTo("a1");
        assertThat(receive(sub)).isEqualTo("b1");
        assertThat(receive(sub)).isEqualTo("a2");
    }

    @Test
    void shouldNotLetASubSend() {
        peers.connect(sub, PUB);
        assertThatThrownBy(() -> sub.send(message("x"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(sub.pollOut()).isFalse();
    }
}
