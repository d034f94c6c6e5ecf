package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** REQ's rules (rfc 28) on pipes without a network. */
class ReqSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();
    private final ReqSocket req = peers.socket(new ReqSocket(peers.context));

    @AfterEach
    void tearDown() {
        peers.close();
    }

    @Test
    void shouldPrependTheEmptyDelimiterToARequest() {
        Peer rep = peers.connect(req, REP);
        assertThat(req.send(message("hello", "world"), 0)).isTrue();
        assertThat(rep.sent()).containsExactly("|hello|world");
    }

    @Test
    void shouldReturnTheReplyWithoutItsDelimiterAndThenAcceptTheNextRequest() {
        Peer rep = peers.connect(req, REP);
        req.send(message("q1"), 0);
        rep.send("", "r1", "more");
        assertThat(receive(req)).isEqualTo("r1|more");
        assertThat(req.send(message("q2"), 0)).isTrue();
        assertThat(rep.sent()).containsExactly("|q1", "|q2");
    }

    @Test
    void shouldThrowEfsmOnAReceiveBeforeAnyRequest() {
        peers.connect(req, REP);
        assertThatThrownBy(() -> req.receive(0)).isInstanceOf(ZmtpSocketException.IllegalState.class)
                .hasMessageContaining("EFSM");
    }

    @Test
    void shouldThrowEfsmOnASecondRequestBeforeTheReply() {
        Peer rep = peers.connect(req, REP);
        req.send(message("q1"), 0);
        assertThatThrownBy(() -> req.send(message("q2"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class)
                .hasMessageContaining("EFSM");
        assertThat(rep.sent()).containsExactly("|q1");
    }

    @Test
    void shouldLoadBalanceRequestsOverItsPeers() {
        Peer a = peers.connect(req, REP);
        Peer b = peers.connect(req, REP);
        req.send(message("q1"), 0);
        a.send("", "r1");
        assertThat(receive(req)).isEqualTo("r1");
        req.send(message("q2"), 0);
        assertThat(a.sent()).containsExactly("|q1");
        assertThat(b.sent()).containsExactly("|q2");
    }

    @Test
    void shouldDiscardARepliesFromAPeerTheRequestDidNotGoTo() {
        Peer a = peers.connect(req, REP);
        Peer b = peers.connect(req, REP);
        req.send(message("q"), 0);
        assertThat(a.sent()).containsExactly("|q");
        b.send("", "not asked");
        assertThat(receive(req)).isNull();
        a.send("", "answer");
        assertThat(receive(req)).isEqualTo("answer");
        assertThat(b.pipe.hasInput()).isFalse();
    }

    @Test
    void shouldDiscardAReplyWithoutTheDelimiter() {
        Peer rep = peers.connect(req, REP);
        req.send(message("q"), 0);
        rep.send("no delimiter", "x");
        rep.send("");
        assertThat(receive(req)).as("messages without an empty first frame and something after it").isNull();
        rep.send("", "answer");
        assertThat(receive(req)).isEqualTo("answer");
    }

    @Test
    void shouldKeepAReqWhoseReplyAPollHasSeenReadableAndNotWritableUntilItReceivesIt() {
        Peer rep = peers.connect(req, REP);
        assertThat(req.pollOut()).isTrue();
        assertThat(req.pollIn()).isFalse();
        req.send(message("q"), 0);
        assertThat(req.pollOut()).isFalse();
        rep.send("", "r");
        assertThat(req.pollIn()).isTrue();
        assertThat(req.pollIn()).as("polling again changes nothing").isTrue();
        assertThat(req.pollOut()).isFalse();
        assertThatThrownBy(() -> req.send(message("too early"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(receive(req)).isEqualTo("r");
        assertThat(req.pollIn()).isFalse();
        assertThat(req.pollOut()).isTrue();
    }

    @Test
    void shouldNotSendWithNoPeer() {
        assertThat(req.pollOut()).isFalse();
        assertThat(req.send(message("q"), 0)).isFalse();
        assertThatThrownBy(() -> req.receive(0)).as("still waiting to send").isInstanceOf(ZmtpSocketException.IllegalState.class);
    }

    @Test
    void shouldStillWaitForTheReplyWhenThePeerAskedDisconnectsAsLibzmqDoesWithoutReqRelaxed() {
        Peer a = peers.connect(req, REP);
        req.send(message("q"), 0);
        assertThat(a.sent()).containsExactly("|q");
        a.disconnect();
        assertThat(receive(req)).isNull();
        Peer b = peers.connect(req, REP);
        // libzmq without REQ_RELAXED also waits on for a reply that can't come.
        assertThatThrownBy(() -> req.send(message("q2"), 0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(b.sent()).isEmpty();
    }
}
