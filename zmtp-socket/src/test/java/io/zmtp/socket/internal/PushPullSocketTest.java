package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PUSH's and PULL's rules (rfc 30) on pipes without a network. */
class PushPullSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();

    @AfterEach
    void tearDown() {
        peers.close();
    }

    @Test
    void shouldLoadBalanceWholeMessagesFromAPushOverItsPeers() {
        PushSocket push = peers.socket(new PushSocket(peers.context));
        Peer a = peers.connect(push, PULL);
        Peer b = peers.connect(push, PULL);
        for (int i = 0; i < 4; i++) {
            assertThat(push.send(message("m" + i, "part"), 0)).isTrue();
        }
        assertThat(a.sent()).containsExactly("m0|part", "m2|part");
        assertThat(b.sent()).containsExactly("m1|part", "m3|part");
    }

    @Test
    void shouldSkipAFullPeerAndBlockAPushWhenEveryPeerIsFull() {
        PushSocket push = peers.socket(new PushSocket(peers.context));
        Peer small = peers.connect(push, PULL, null, 1);
        Peer big = peers.connect(push, PULL, null, 2);
        for (int i = 0; i < 3; i++) {
            assertThat(push.send(message("m" + i), 0)).isTrue();
        }
        assertThat(push.pollOut()).isFalse();
        assertThat(push.send(message("m3"), 0)).isFalse();
        assertThat(small.sent()).containsExactly("m0");
        assertThat(big.sent()).containsExactly("m1", "m2");
        assertThat(push.pollOut()).isTrue();
    }

    @Test
    void shouldNotLetAPushReceive() {
        PushSocket push = peers.socket(new PushSocket(peers.context));
        peers.connect(push, PULL);
        assertThatThrownBy(() -> push.receive(0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(push.pollIn()).isFalse();
    }

    @Test
    void shouldNotSendFromAPushWithNoPeer() {
        PushSocket push = peers.socket(new PushSocket(peers.context));
        assertThat(push.pollOut()).isFalse();
        assertThat(push.send(message("nowhere"), 0)).isFalse();
    }

    @Test
    void shouldFairQueueMessagesFromAPullsPeers() {
        PullSocket pull = peers.socket(new PullSocket(peers.context));
        Peer a = peers.connect(pull, PUSH);
        Peer b = peers.connect(pull, PUSH);
        a.send(message("a0"), message("a1"), message("a2"));
        b.send(message("b0", "two frames"));
        assertThat(receive(pull)).isEqualTo("a0");
        assertThat(receive(pull)).isEqualTo("b0|two frames");
        assertThat(receive(pull)).isEqualTo("a1");
        assertThat(receive(pull)).isEqualTo("a2");
        assertThat(receive(pull)).isNull();
    }

    @Test
    void shouldDeliverWhatADisconnectedPeerSentBeforeItWent() {
        PullSocket pull = peers.socket(new PullSocket(peers.context));
        Peer gone = peers.connect(pull, PUSH);
        gone.send(message("last words"));
        gone.disconnect();
        assertThat(receive(pull)).isEqualTo("last words");
        assertThat(receive(pull)).isNull();
    }

    @Test
    void shouldNotLetAPullSend() {
        PullSocket pull = peers.socket(new PullSocket(peers.context));
        peers.connect(pull, PUSH);
        assertThatThrownBy(() -> pull.send(message("x"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(pull.pollOut()).isFalse();
    }
}
