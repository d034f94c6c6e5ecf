package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpVersion;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Routing strategies on pipes with no connection. */
class RoutingTest {
    private static final PipeListener NO_OP = new CountingPipeListener();

    private static Pipe pipe(int sndHwm) {
        // A connecting pipe with no connection yet queues up to its HWM, which is all a strategy needs.
        return new Pipe(NO_OP, true, "test://", sndHwm, 1000);
    }

    /** What the pipe sends once a connection comes up, as text; the pipe is done with afterwards. */
    private static List<String> drainOut(Pipe p) {
        EmbeddedChannel ch = new EmbeddedChannel();
        p.onHandshake(ch, new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL", ZmtpMetadata.EMPTY, null));
        ch.runPendingTasks();
        List<String> out = new ArrayList<>();
        for (Object o : EmbeddedPeers.readOutbound(ch)) {
            ZmtpMessage m = (ZmtpMessage) o;
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < m.size(); i++) {
                sb.append(i > 0 ? "|" : "").append(m.frameString(i));
            }
            out.add(sb.toString());
            m.release();
        }
        p.terminate();
        ch.finishAndReleaseAll();
        return out;
    }

    @Test
    void shouldRoundRobinWholeMessagesInALoadBalancer() {
        LoadBalancer lb = new LoadBalancer();
        Pipe a = pipe(10);
        Pipe b = pipe(10);
        Pipe c = pipe(10);
        lb.add(a);
        lb.add(b);
        lb.add(c);
        for (int i = 0; i < 6; i++) {
            assertThat(lb.send(ZmtpMessage.of("m" + i, "part2"))).isNotNull();
        }
        assertThat(drainOut(a)).containsExactly("m0|part2", "m3|part2");
        assertThat(drainOut(b)).containsExactly("m1|part2", "m4|part2");
        assertThat(drainOut(c)).containsExactly("m2|part2", "m5|part2");
    }

    @Test
    void shouldSkipFullPipesInALoadBalancerAndReportWhenAllAreFull() {
        LoadBalancer lb = new LoadBalancer();
        Pipe a = pipe(1);
        Pipe b = pipe(3);
        lb.add(a);
        lb.add(b);
        for (int i = 0; i < 4; i++) {
            assertThat(lb.send(ZmtpMessage.of("m" + i))).isNotNull();
        }
        assertThat(lb.hasRoom()).isFalse();
        ZmtpMessage refused = ZmtpMessage.of("x");
        assertThat(lb.send(refused)).isNull();
        assertThat(refused.refCnt()).isEqualTo(1);
        refused.release();
        assertThat(drainOut(a)).containsExactly("m0");
        assertThat(drainOut(b)).containsExactly("m1", "m2", "m3");
    }

    @Test
    void shouldRefuseAMessageInALoadBalancerWithNoPipe() {
        LoadBalancer lb = new LoadBalancer();
        ZmtpMessage m = ZmtpMessage.of("x");
        assertThat(lb.send(m)).isNull();
        m.release();
    }

    @Test
    void shouldTakeOneMessageFromEachPipeInTurnInAFairQueue() {
        FairQueue fq = new FairQueue();
        Pipe a = pipe(10);
        Pipe b = pipe(10);
        Pipe c = pipe(10);
        fq.add(a);
        fq.add(b);
        fq.add(c);
        for (int i = 0; i < 3; i++) {
            a.onInbound(ZmtpMessage.of("a" + i));
            a.onReadComplete();
        }
        b.onInbound(ZmtpMessage.of("b0"));
        b.onReadComplete();
        c.onInbound(ZmtpMessage.of("c0", "more"));
        c.onReadComplete();
        List<String> got = new ArrayList<>();
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            got.add(m.frameString(0) + "/" + m.size());
            m.release();
        }
        assertThat(got).containsExactly("a0/1", "b0/1", "c0/2", "a1/1", "a2/1");
        assertThat(fq.hasInput()).isFalse();
    }

    @Test
    void shouldRememberInAFairQueueWhereTheMessageCameFrom() {
        FairQueue fq = new FairQueue();
        Pipe a = pipe(10);
        Pipe b = pipe(10);
        fq.add(a);
        fq.add(b);
        b.onInbound(ZmtpMessage.of("x"));
        b.onReadComplete();
        ZmtpMessage m = fq.recv();
        assertThat(fq.lastPipe()).isSameAs(b);
        m.release();
    }

    @Test
    void shouldSkipPipesWithoutAConnectionInADistributorAndReleaseTheMessage() {
        Distributor d = new Distributor();
        Pipe a = pipe(1);
        Pipe b = pipe(10);
        ZmtpMessage m = ZmtpMessage.of("t");
        assertThat(d.send(m, sink -> List.of(a, b).forEach(sink))).isZero();
        assertThat(m.refCnt()).isZero();
        assertThat(a.outDepth()).isZero();
        assertThat(d.dropped()).isZero();
    }

    @Test
    void shouldGiveSharedCopiesTheirOwnIndexes() {
        ZmtpMessage m = ZmtpMessage.of("hello", "world");
        ZmtpMessage copy = Distributor.share(m);
        copy.frame(0).skipBytes(2);
        assertThat(m.frameString(0)).isEqualTo("hello");
        assertThat(copy.frameString(0)).isEqualTo("llo");
        m.release();
        assertThat(copy.frameString(1)).isEqualTo("world");
        copy.release();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> match(SubscriptionTrie<String> t, String data) {
        List<String> out = new ArrayList<>();
        t.match(Unpooled.wrappedBuffer(b(data)), out::add);
        return out;
    }

    @Test
    void shouldMatchATrieByPrefixOncePerOwner() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        assertThat(t.add(b("A"), "p1")).isTrue();
        assertThat(t.add(b("AB"), "p1")).isTrue();
        assertThat(t.add(b("AB"), "p2")).isFalse();
        assertThat(t.add(b("B"), "p3")).isTrue();
        assertThat(match(t, "ABC")).containsExactlyInAnyOrder("p1", "p2");
        assertThat(match(t, "A")).containsExactly("p1");
        assertThat(match(t, "BA")).containsExactly("p3");
        assertThat(match(t, "C")).isEmpty();
        assertThat(match(t, "")).isEmpty();
    }

    @Test
    void shouldMatchEverythingWithAnEmptySubscription() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        t.add(new byte[0], "p");
        assertThat(match(t, "")).containsExactly("p");
        assertThat(match(t, "anything")).containsExactly("p");
        assertThat(t.matches(Unpooled.wrappedBuffer(b("x")))).isTrue();
    }

    @Test
    void shouldCountSubscriptionsInASubscribersOwnFilter() {
        SubscriptionTrie<String> t = SubscriptionTrie.counted();
        t.add(b("A"), "p");
        t.add(b("A"), "p");
        assertThat(t.remove(b("A"), "p")).isFalse();
        assertThat(match(t, "A1")).containsExactly("p");
        assertThat(t.remove(b("A"), "p")).isTrue();
        assertThat(match(t, "A1")).isEmpty();
        assertThat(t.remove(b("A"), "p")).isFalse();
        assertThat(t.prefixes()).isEmpty();
    }

    @Test
    void shouldKeepOneSubscriptionPerPrefixAndSubscriberOnAPublisherAsLibzmqDoes() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        assertThat(t.add(b("A"), "p")).isTrue();
        assertThat(t.add(b("A"), "p")).isFalse();
        assertThat(t.add(b("A"), "q")).isFalse();
        assertThat(t.count(b("A"))).isEqualTo(2);
        assertThat(t.remove(b("A"), "p")).isFalse();
        assertThat(match(t, "A1")).containsExactly("q");
        assertThat(t.remove(b("A"), "p")).isFalse();
        assertThat(t.remove(b("A"), "q")).isTrue();
        assertThat(match(t, "A1")).isEmpty();
        assertThat(t.prefixes()).isEmpty();
    }

    @Test
    void shouldReportPrefixesLeftUnusedWhenAnOwnerIsRemoved() {
        SubscriptionTrie<String> t = SubscriptionTrie.perOwnerSet();
        t.add(b("A"), "p1");
        t.add(b("AB"), "p1");
        t.add(b("AB"), "p2");
        List<String> unused = new ArrayList<>();
        t.removeOwner("p1", topic -> unused.add(new String(topic, StandardCharsets.UTF_8)));
        assertThat(unused).containsExactly("A");
        assertThat(match(t, "ABC")).containsExactly("p2");
        assertThat(t.count(b("AB"))).isEqualTo(1);
    }
}
