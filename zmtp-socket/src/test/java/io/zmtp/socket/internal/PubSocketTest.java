package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PUB's and XPUB's rules (rfc 29) on pipes without a network. Subscriptions arrive as {@code 01}/{@code 00}-prefixed
 * messages, the form PipeHandler gives SUBSCRIBE/CANCEL commands too; XPUB reports them in that form.
 */
class PubSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();

    @AfterEach
    void tearDown() {
        peers.close();
    }

    private PubSocket socket(ZmtpSocketType type) {
        return peers.socket(new PubSocket(peers.context, type));
    }

    private static ZmtpMessage subscribe(String topic) {
        return subscription(1, topic);
    }

    private static ZmtpMessage cancel(String topic) {
        return subscription(0, topic);
    }

    private static ZmtpMessage subscription(int kind, String topic) {
        byte[] t = topic.getBytes(StandardCharsets.ISO_8859_1);
        byte[] body = new byte[t.length + 1];
        body[0] = (byte) kind;
        System.arraycopy(t, 0, body, 1, t.length);
        return ZmtpMessage.ofBytes(body);
    }

    @Test
    void shouldSendOnlyToSubscribersWhosePrefixMatchesTheFirstFrame() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        Peer a = peers.connect(pub, SUB).send(subscribe("A"));
        Peer b = peers.connect(pub, SUB).send(subscribe("B"));
        Peer all = peers.connect(pub, SUB).send(subscribe(""));
        for (String m : new String[] {"A1", "B1", "C1", "AB"}) {
            pub.send(message(m, "body"), 0);
        }
        assertThat(a.sent()).containsExactly("A1|body", "AB|body");
        assertThat(b.sent()).containsExactly("B1|body");
        assertThat(all.sent()).containsExactly("A1|body", "B1|body", "C1|body", "AB|body");
    }

    @Test
    void shouldSendASubscriberAMessageOnceWhateverNumberOfItsPrefixesMatch() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        Peer sub = peers.connect(pub, SUB).send(subscribe("A"), subscribe("AB"), subscribe(""));
        pub.send(message("ABC"), 0);
        assertThat(sub.sent()).containsExactly("ABC");
    }

    @Test
    void shouldStopSendingAPrefixAfterItsCancel() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        Peer sub = peers.connect(pub, SUB).send(subscribe("A"), subscribe("B"));
        pub.send(message("A1"), 0);
        sub.send(cancel("A"));
        pub.send(message("A2"), 0);
        pub.send(message("B2"), 0);
        assertThat(sub.sent()).containsExactly("A1", "B2");
    }

    @Test
    void shouldDropAndCountAMessageForAFullSubscriber() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        Peer slow = peers.connect(pub, SUB, null, 1).send(subscribe(""));
        Peer fast = peers.connect(pub, SUB).send(subscribe(""));
        pub.send(message("m0"), 0);
        assertThat(pub.send(message("m1"), 0)).as("PUB never blocks").isTrue();
        assertThat(pub.droppedCount()).isEqualTo(1);
        assertThat(slow.sent()).containsExactly("m0");
        assertThat(fast.sent()).containsExactly("m0", "m1");
    }

    @Test
    void shouldNotLetAPubReceive() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        peers.connect(pub, SUB).send(subscribe("A")).send("not a subscription");
        assertThatThrownBy(() -> pub.receive(0)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(pub.pollIn()).isFalse();
    }

    @Test
    void shouldReportOnlyTheFirstSubscribeToAPrefixOnAnXpub() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        peers.connect(xpub, SUB).send(subscribe("A"));
        peers.connect(xpub, SUB).send(subscribe("A"), subscribe("B"));
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isEqualTo("\u0001B");
        assertThat(receive(xpub)).isNull();
    }

    @Test
    void shouldReportEverySubscribeOnAnXpubWithXpubVerbose() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        xpub.setOption(ZmtpSocketOption.XPUB_VERBOSE, true);
        peers.connect(xpub, SUB).send(subscribe("A"));
        peers.connect(xpub, SUB).send(subscribe("A"), subscribe("A"));
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isNull();
    }

    @Test
    void shouldReportACancelOnAnXpubOnlyWhenThePrefixLosesItsLastSubscriber() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        Peer a = peers.connect(xpub, SUB).send(subscribe("A"));
        Peer b = peers.connect(xpub, SUB).send(subscribe("A"));
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        a.send(cancel("A"));
        assertThat(receive(xpub)).as("b still subscribes").isNull();
        b.send(cancel("A"));
        assertThat(receive(xpub)).isEqualTo("\u0000A");
        assertThat(receive(xpub)).isNull();
    }

    @Test
    void shouldReportACancelOnAnXpubForEachPrefixOnlyTheDisconnectedSubscriberHad() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        Peer leaving = peers.connect(xpub, SUB).send(subscribe("A"), subscribe("B"));
        Peer staying = peers.connect(xpub, SUB).send(subscribe("B"));
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isEqualTo("\u0001B");
        leaving.disconnect();
        assertThat(receive(xpub)).isEqualTo("\u0000A");
        assertThat(receive(xpub)).isNull();
        xpub.send(message("B1"), 0);
        assertThat(staying.sent()).containsExactly("B1");
    }

    @Test
    void shouldDeliverAnXsubsOtherMessagesToTheXpubApplication() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        peers.connect(xpub, XSUB).send("hello from xsub", "2");
        assertThat(receive(xpub)).isEqualTo("hello from xsub|2");
    }

    @Test
    void shouldMakeAnXpubWithNodropWaitForAFullSubscriberInsteadOfDropping() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        xpub.setOption(ZmtpSocketOption.XPUB_NODROP, true);
        Peer slow = peers.connect(xpub, SUB, null, 1).send(subscribe(""));
        assertThat(xpub.send(message("m0"), 0)).isTrue();
        assertThat(xpub.send(message("m1"), 0)).isFalse();
        assertThat(xpub.droppedCount()).isZero();
        assertThat(slow.sent()).containsExactly("m0");
        assertThat(xpub.send(message("m1"), 0)).isTrue();
        assertThat(slow.sent()).containsExactly("m1");
    }

    private static int cost(String topic) {
        return (int) ConnectionBudget.subscriptionCost(topic.length());
    }

    @Test
    void shouldChargeARepeatedSubscribeOnceAndRefundCancelsAndADisconnection() {
        PubSocket pub = socket(ZmtpSocketType.PUB);
        Peer sub = peers.connect(pub, SUB);
        ConnectionBudget budget = sub.pipe.budget();
        budget.limitSubscriptions(cost("A") + cost("BB"));
        sub.send(subscribe("A"), subscribe("A"), subscribe("A"), subscribe("BB"));
        pub.send(message("x"), 0);
        assertThat(budget.subscriptionBytes()).as("a set: A charged once").isEqualTo(cost("A") + cost("BB"));
        sub.send(cancel("A"), cancel("A"), cancel("unknown"));
        pub.send(message("x"), 0);
        assertThat(budget.subscriptionBytes()).as("one refund for A, none for what it never had")
                .isEqualTo(cost("BB"));
        sub.send(subscribe("C"));
        pub.send(message("C1"), 0);
        assertThat(sub.isOpen()).isTrue();
        assertThat(sub.sent()).containsExactly("C1");
        sub.disconnect();
        pub.send(message("x"), 0);
        assertThat(budget.subscriptionBytes()).as("everything refunded at the disconnection").isZero();
    }

    @Test
    void shouldCloseAPeerWhoseSubscriptionsWouldPassItsBudgetAndNoOtherPeer() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        Peer good = peers.connect(xpub, SUB).send(subscribe("A"));
        Peer hostile = peers.connect(xpub, SUB);
        hostile.pipe.budget().limitSubscriptions(2L * cost("H1"));
        hostile.send(subscribe("H1"), subscribe("H2"), subscribe("H3"), subscribe("H4"));
        assertThat(receive(xpub)).isEqualTo("\u0001A");
        assertThat(receive(xpub)).isEqualTo("\u0001H1");
        assertThat(receive(xpub)).isEqualTo("\u0001H2");
        assertThat(receive(xpub)).as("H3 passed the budget: nothing after it is applied").isNull();
        assertThat(hostile.isOpen()).isFalse();
        assertThat(hostile.pipe.budget().isExceeded()).isTrue();
        xpub.send(message("A1"), 0);
        xpub.send(message("H4"), 0);
        assertThat(good.sent()).containsExactly("A1");
        hostile.disconnect();
        assertThat(receive(xpub)).isEqualTo("\u0000H1");
        assertThat(receive(xpub)).isEqualTo("\u0000H2");
        assertThat(receive(xpub)).isNull();
        assertThat(hostile.pipe.budget().subscriptionBytes()).isZero();
        xpub.send(message("A2"), 0);
        assertThat(good.sent()).containsExactly("A2");
    }

    @Test
    void shouldLeaveAPeersSubscriptionsInItsPipeWhileRcvhwmOfItsReportsAwaitTheApplication() {
        PubSocket xpub = socket(ZmtpSocketType.XPUB);
        xpub.setOption(ZmtpSocketOption.XPUB_VERBOSE, true);
        xpub.setOption(ZmtpSocketOption.RCVHWM, 4);
        Peer flood = peers.connect(xpub, SUB);
        Peer other = peers.connect(xpub, SUB);
        for (int i = 0; i < 10; i++) {
            flood.send(subscribe("A"));
        }
        other.send(subscribe("B"));
        for (int i = 0; i < 3; i++) {
            xpub.send(message("B1"), 0);
        }
        assertThat(flood.pipe.inDepth()).as("beyond 4 reports waiting, the rest stays in the peer's pipe")
                .isEqualTo(6);
        assertThat(other.sent()).as("another peer's subscription still applies").containsExactly("B1", "B1", "B1");
        List<String> reports = new ArrayList<>();
        for (String r = receive(xpub); r != null; r = receive(xpub)) {
            reports.add(r);
        }
        assertThat(reports.remove("\u0001B")).as("the other peer's report").isTrue();
        assertThat(reports).as("every report, none lost").hasSize(10).containsOnly("\u0001A");
    }
}
