package io.zmtp.socket.internal;

import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;

/** DEALER's (rfc 28) and PAIR's rules on pipes without a network. */
class DealerPairSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();

    @AfterEach
    void tearDown() {
        peers.close();
    }

    @Test
    void shouldLoadBalanceAndFairQueueOnADealerWithoutTouchingTheFrames() {
        DealerSocket dealer = peers.socket(new DealerSocket(peers.context));
        Peer a = peers.connect(dealer, ROUTER);
        Peer b = peers.connect(dealer, DEALER);
        dealer.send(message("", "to a"), 0);
        dealer.send(message("to b", ""), 0);
        assertThat(a.sent()).containsExactly("|to a");
        assertThat(b.sent()).containsExactly("to b|");
        a.send(message("a0"), message("a1"));
        b.send("", "b0");
        assertThat(receive(dealer)).isEqualTo("a0");
        assertThat(receive(dealer)).isEqualTo("|b0");
        assertThat(receive(dealer)).isEqualTo("a1");
    }

    @Test
    void shouldNotSendFromADealerWithNoPeer() {
        DealerSocket dealer = peers.socket(new DealerSocket(peers.context));
        assertThat(dealer.pollOut()).isFalse();
        assertThat(dealer.send(message("nowhere"), 0)).isFalse();
        assertThat(dealer.receive(0)).isNull();
    }

    @Test
    void shouldExchangeMessagesWithOnePairPeerAndRefuseASecond() {
        PairSocket pair = peers.socket(new PairSocket(peers.context));
        Peer first = peers.connect(pair, PAIR);
        Peer second = peers.connect(pair, PAIR);
        assertThat(second.isOpen()).as("the second peer's connection is closed").isFalse();
        assertThat(first.isOpen()).isTrue();
        pair.send(message("1"), 0);
        pair.send(message("2"), 0);
        assertThat(first.sent()).containsExactly("1", "2");
        assertThat(second.sent()).isEmpty();
        first.send("back");
        assertThat(receive(pair)).isEqualTo("back");
    }

    @Test
    void shouldAcceptAnotherPairPeerOnceTheFirstHasGone() {
        PairSocket pair = peers.socket(new PairSocket(peers.context));
        Peer first = peers.connect(pair, PAIR);
        assertThat(pair.pollOut()).isTrue();
        first.disconnect();
        assertThat(pair.pollOut()).isFalse();
        Peer next = peers.connect(pair, PAIR);
        assertThat(next.isOpen()).isTrue();
        pair.send(message("to next"), 0);
        assertThat(next.sent()).containsExactly("to next");
    }
}
