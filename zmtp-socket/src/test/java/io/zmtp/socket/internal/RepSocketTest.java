package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** REP's rules (rfc 28) on pipes without a network. */
class RepSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();
    private final RepSocket rep = peers.socket(new RepSocket(peers.context));

    @AfterEach
    void tearDown() {
        peers.close();
    }

    @Test
    void shouldStripTheEnvelopeFromARequestAndPutItBackOnTheReply() {
        Peer dealer = peers.connect(rep, DEALER);
        dealer.send("hop2", "hop1", "", "request", "part 2");
        assertThat(receive(rep)).isEqualTo("request|part 2");
        assertThat(rep.send(message("reply"), 0)).isTrue();
        assertThat(dealer.sent()).containsExactly("hop2|hop1||reply");
    }

    @Test
    void shouldSendTheReplyToThePeerTheRequestCameFrom() {
        Peer a = peers.connect(rep, REQ);
        Peer b = peers.connect(rep, REQ);
        b.send("", "from b");
        assertThat(receive(rep)).isEqualTo("from b");
        rep.send(message("to b"), 0);
        assertThat(b.sent()).containsExactly("|to b");
        assertThat(a.sent()).isEmpty();
    }

    @Test
    void shouldFairQueueRequestsFromItsPeers() {
        Peer a = peers.connect(rep, REQ);
        Peer b = peers.connect(rep, REQ);
        a.send(message("", "a1"), message("", "a2"));
        b.send("", "b1");
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            String q = receive(rep);
            order.append(q).append(' ');
            rep.send(message("re " + q), 0);
        }
        assertThat(order.toString()).isEqualTo("a1 b1 a2 ");
        assertThat(a.sent()).containsExactly("|re a1", "|re a2");
        assertThat(b.sent()).containsExactly("|re b1");
    }

    @Test
    void shouldDropARequestWithoutADelimiter() {
        Peer dealer = peers.connect(rep, DEALER);
        dealer.send("no", "delimiter");
        assertThat(receive(rep)).isNull();
        dealer.send("", "well formed");
        assertThat(receive(rep)).isEqualTo("well formed");
    }

    @Test
    void shouldDropARequestWithNothingAfterTheDelimiter() {
        Peer dealer = peers.connect(rep, DEALER);
        dealer.send("id", "");
        assertThat(rep.pollIn()).isFalse();
        dealer.send("id", "", "body");
        assertThat(receive(rep)).isEqualTo("body");
        rep.send(message("ok"), 0);
        assertThat(dealer.sent()).containsExactly("id||ok");
    }

    @Test
    void shouldThrowEfsmOnAReplyBeforeARequest() {
        peers.connect(rep, REQ);
        assertThatThrownBy(() -> rep.send(message("x"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class)
                .hasMessageContaining("EFSM");
    }

    @Test
    void shouldThrowEfsmOnASecondReceiveBeforeTheReply() {
        Peer req = peers.connect(rep, REQ);
        req.send("", "q1");
        assertThat(receive(rep)).isEqualTo("q1");
        assertThatThrownBy(() -> rep.receive(0)).isInstanceOf(ZmtpSocketException.IllegalState.class)
                .hasMessageContaining("EFSM");
        assertThat(rep.pollIn()).isFalse();
        assertThat(rep.pollOut()).isTrue();
    }

    @Test
    void shouldKeepARepWhoseRequestAPollHasSeenNotWritableUntilItReceivesIt() {
        Peer req = peers.connect(rep, REQ);
        req.send("", "q");
        assertThat(rep.pollIn()).isTrue();
        assertThat(rep.pollOut()).isFalse();
        assertThatThrownBy(() -> rep.send(message("too early"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(receive(rep)).isEqualTo("q");
        assertThat(rep.pollOut()).isTrue();
    }

    @Test
    void shouldDropTheReplyToAPeerThatHasGoneAndTakeTheNextRequest() {
        Peer gone = peers.connect(rep, REQ);
        Peer other = peers.connect(rep, REQ);
        gone.send("", "q");
        assertThat(receive(rep)).isEqualTo("q");
        gone.disconnect();
        assertThat(rep.send(message("lost"), 0)).isTrue();
        assertThat(gone.sent()).isEmpty();
        other.send("", "next");
        assertThat(receive(rep)).isEqualTo("next");
        rep.send(message("delivered"), 0);
        assertThat(other.sent()).containsExactly("|delivered");
    }
}
