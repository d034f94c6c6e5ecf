package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interop matrix: every compatible pair of socket types, our socket on one side and a foreign one (libzmq or
 * JeroMQ) on the other, each side binding in turn. The scenario of a pair is written once against {@link SocketEnd}
 * and run whichever side is ours:
 * <ul>
 *   <li>REQ/REP, REQ/ROUTER, DEALER/REP, DEALER/ROUTER: three two-frame requests and replies; the ROUTER sees the
 *       client's routing id and the envelope the pattern prescribes, the REP none;</li>
 *   <li>DEALER/DEALER, PAIR/PAIR: three messages each way; PUSH/PULL: ten, in order, contents checked;</li>
 *   <li>PUB/SUB, PUB/XSUB, XPUB/SUB, XPUB/XSUB: prefix filtering (of two-frame messages), then unsubscribe; an XPUB
 *       must see the {@code 01}/{@code 00} subscription messages, and the cancels of what is left when the
 *       subscriber closes (a foreign XPUB only when it bound: see below). A libzmq XSUB does not filter by itself, so with
 *       it the filtering seen is the publisher's alone.</li>
 * </ul>
 */
final class SocketMatrix {
    private static final Logger LOG = LoggerFactory.getLogger(SocketMatrix.class);
    static final Duration WAIT = scaled(Duration.ofSeconds(5));
    static final String CLIENT_ID = "client-1";

    private SocketMatrix() {}

    /** The eleven compatible pairs. */
    enum Pair {
        REQ_REP(REQ, REP), REQ_ROUTER(REQ, ROUTER), DEALER_REP(DEALER, REP), DEALER_ROUTER(DEALER, ROUTER),
        DEALER_DEALER(DEALER, DEALER), PUB_SUB(PUB, SUB), XPUB_XSUB(XPUB, XSUB), PUB_XSUB(PUB, XSUB),
        XPUB_SUB(XPUB, SUB), PUSH_PULL(PUSH, PULL), PAIR_PAIR(PAIR, PAIR);

        final ZmtpSocketType first;
        final ZmtpSocketType second;

        Pair(ZmtpSocketType first, ZmtpSocketType second) {
            this.first = first;
            this.second = second;
        }

        boolean symmetric() {
            return first == second;
        }

        @Override
        public String toString() {
            return first + "/" + second;
        }
    }

    /** One run: which pair, whether ours is the pair's first type, who binds. */
    record Case(SocketPeer.Kind peer, Pair pair, boolean oursFirst, boolean oursBinds) {
        ZmtpSocketType ours() {
            return oursFirst ? pair.first : pair.second;
        }

        ZmtpSocketType theirs() {
            return oursFirst ? pair.second : pair.first;
        }

        @Override
        public String toString() {
            return String.format("%-13s our %-6s <-> %s %-6s bound by %s", pair, ours(), peer, theirs(),
                    oursBinds ? "us" : peer.toString());
        }
    }

    static Stream<Case> cases(SocketPeer.Kind peer) {
        List<Case> cases = new ArrayList<>();
        for (Pair p : Pair.values()) {
            for (boolean oursFirst : p.symmetric() ? new boolean[] {true} : new boolean[] {true, false}) {
                for (boolean oursBinds : new boolean[] {true, false}) {
                    cases.add(new Case(peer, p, oursFirst, oursBinds));
                }
            }
        }
        return cases.stream();
    }

    static void run(Case c) {
        long start = System.nanoTime();
        try (SocketPeer peer = c.peer().start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(2000).build()) {
            boolean clientServer = c.pair() == Pair.REQ_REP || c.pair() == Pair.REQ_ROUTER
                    || c.pair() == Pair.DEALER_REP || c.pair() == Pair.DEALER_ROUTER;
            ZmtpSocket socket = ctx.socket(c.ours());
            socket.setOption(ZmtpSocketOption.LINGER, 1000);
            List<String> theirOptions = new ArrayList<>();
            if (clientServer) {
                // The client (REQ or DEALER) names itself; a ROUTER must route by that name.
                if (c.oursFirst()) {
                    socket.setOption(ZmtpSocketOption.ROUTING_ID, SocketPeer.bytes(CLIENT_ID));
                } else {
                    theirOptions.add("id=" + SocketPeer.hex(SocketPeer.bytes(CLIENT_ID)));
                }
            }
            SocketEnd ours = new SocketEnd.Ours(socket);
            SocketEnd theirs = new SocketEnd.Theirs(peer, "s", c.theirs(), theirOptions.toArray(new String[0]));
            SocketEnd first = c.oursFirst() ? ours : theirs;
            SocketEnd second = c.oursFirst() ? theirs : ours;
            SocketEnd binder = c.oursBinds() ? ours : theirs;
            SocketEnd connector = c.oursBinds() ? theirs : ours;

            String endpoint = binder.bind("tcp://127.0.0.1:*");
            connector.connect(endpoint);
            switch (c.pair()) {
                case REQ_REP, REQ_ROUTER, DEALER_REP, DEALER_ROUTER -> requestReply(first, second);
                case DEALER_DEALER, PAIR_PAIR -> {
                    oneWay(first, second, 3);
                    oneWay(second, first, 3);
                }
                case PUSH_PULL -> oneWay(first, second, 10);
                case PUB_SUB, XPUB_XSUB, PUB_XSUB, XPUB_SUB -> publishSubscribe(first, second, binder);
                default -> throw new IllegalStateException(c.toString());
            }
            LOG.info("{}: passed in {} ms", c, (System.nanoTime() - start) / 1_000_000);
        }
    }

    // ------------------------------------------------------------------------------------------- request/reply

    static void requestReply(SocketEnd client, SocketEnd server) {
        // A DEALER talking to a REP writes the delimiter itself, and reads it back.
        List<String> prefix = client.type() == DEALER && server.type() == REP ? List.of("") : List.of();
        List<String> envelope = server.type() == REP ? List.of()
                : client.type() == REQ ? List.of(CLIENT_ID, "") : List.of(CLIENT_ID);
        for (int round = 0; round < 3; round++) {
            client.send(concat(prefix, List.of("request-" + round, "part 2")).toArray(new String[0]));
            List<String> request = texts(recv(server, "request " + round));
            assertThat(request).as("%s receiving from %s", server.describe(), client.describe())
                    .isEqualTo(concat(envelope, List.of("request-" + round, "part 2")));
            server.send(concat(envelope, List.of("reply-" + round, "part 2")).toArray(new String[0]));
            List<String> reply = texts(recv(client, "reply " + round));
            assertThat(reply).as("%s receiving from %s", client.describe(), server.describe())
                    .isEqualTo(concat(prefix, List.of("reply-" + round, "part 2")));
        }
    }

    // ------------------------------------------------------------------------------------------- one way

    static void oneWay(SocketEnd from, SocketEnd to, int count) {
        for (int i = 0; i < count; i++) {
            List<byte[]> m = List.of(SocketPeer.bytes("m"), SocketPeer.bytes(Integer.toString(i)), SocketPeer.payload(i));
            from.send(m);
        }
        for (int i = 0; i < count; i++) {
            List<byte[]> got = recv(to, "message " + i + " from " + from.describe());
            assertThat(SocketPeer.check(got, SocketPeer.bytes("m"), i)).as("%s from %s", to.describe(),
                    from.describe()).isNull();
        }
    }

    // ------------------------------------------------------------------------------------------- pub/sub

    static void publishSubscribe(SocketEnd pub, SocketEnd sub, SocketEnd binder) {
        sub.subscribe("ab");
        sub.subscribe("sync");
        // Until a "sync" gets through, the publisher may not have the subscriptions yet.
        warmUp(pub, sub, "sync");
        if (pub.type() == XPUB) {
            assertThat(subscriptionMessages(pub, 2)).as("%s: subscriptions from %s", pub.describe(), sub.describe())
                    .containsExactlyInAnyOrder("\u0001ab", "\u0001sync");
        }
        for (String topic : List.of("a", "ab", "abc", "b", "xab", "", "abab")) {
            pub.send(topic, "body");
        }
        pub.send("syncE");
        assertThat(collectUntil(sub, "syncE", Set.of("sync"))).as("%s, subscribed to ab, from %s", sub.describe(),
                pub.describe()).containsExactly("ab", "abc", "abab");

        sub.unsubscribe("ab");
        sub.subscribe("t2");
        // The cancel travels before the new subscription, so once a "t2" gets through, "ab" is gone.
        warmUp(pub, sub, "t2");
        if (pub.type() == XPUB) {
            assertThat(subscriptionMessages(pub, 2)).as("%s: changes from %s", pub.describe(), sub.describe())
                    .containsExactlyInAnyOrder("\u0000ab", "\u0001t2");
            assertThat(pub.recv(Duration.ofMillis(100))).as("%s: nothing more", pub.describe()).isNull();
        }
        for (String topic : List.of("ab", "abc", "t2x", "a", "sync")) {
            pub.send(topic, "body");
        }
        pub.send("syncE");
        assertThat(collectUntil(sub, "syncE", Set.of("t2"))).as("%s, unsubscribed from ab, from %s",
                sub.describe(), pub.describe()).containsExactly("t2x", "sync");
        // A subscriber that goes away takes its subscriptions with it: the XPUB hears the cancels. Ours does whether
        // it bound or connected. libzmq and JeroMQ only when they bound: a connecting XPUB's pipe outlives the
        // connection (it waits to reconnect), and so do the subscriptions on it, silently.
        if (pub.type() == XPUB && (pub instanceof SocketEnd.Ours || pub == binder)) {
            sub.close();
            assertThat(subscriptionMessages(pub, 2)).as("%s: when %s closes", pub.describe(), sub.describe())
                    .containsExactlyInAnyOrder("\u0000sync", "\u0000t2");
        }
    }

    /** Publishes {@code topic} every 50 ms until one reaches {@code sub} (10 s at most). */
    static void warmUp(SocketEnd pub, SocketEnd sub, String topic) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            pub.send(topic, "warm-up");
            List<byte[]> m = sub.recv(Duration.ofMillis(50));
            if (m != null) {
                assertThat(SocketPeer.text(m.get(0))).as("first message through to %s", sub.describe())
                        .isEqualTo(topic);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + topic + "' from " + pub.describe() + " reached " + sub.describe()
                        + " in 10 s: the subscription never took effect");
            }
        }
    }

    /** The next {@code n} messages of an XPUB, as strings (each must be a single frame). */
    private static Set<String> subscriptionMessages(SocketEnd xpub, int n) {
        Set<String> got = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            List<byte[]> m = recv(xpub, "subscription message " + i + " (got " + got + ")");
            assertThat(m).as("subscription message").hasSize(1);
            got.add(SocketPeer.text(m.get(0)));
        }
        return got;
    }

    /** First frames of the messages before {@code end}, leaving out the warm-up topics {@code skip}. */
    private static List<String> collectUntil(SocketEnd sub, String end, Set<String> skip) {
        List<String> topics = new ArrayList<>();
        while (true) {
            List<byte[]> m = recv(sub, "'" + end + "' (so far " + topics + ")");
            String topic = SocketPeer.text(m.get(0));
            if (topic.equals(end)) {
                return topics;
            }
            if (!skip.contains(topic)) {
                assertThat(texts(m)).as("message %s", topic).containsExactly(topic, "body");
                topics.add(topic);
            }
        }
    }

    // ------------------------------------------------------------------------------------------- helpers

    static List<byte[]> recv(SocketEnd end, String what) {
        List<byte[]> m = end.recv(WAIT);
        if (m == null) {
            throw new AssertionError(end.describe() + ": nothing within " + WAIT + ", waiting for " + what);
        }
        return m;
    }

    static List<String> texts(List<byte[]> frames) {
        List<String> out = new ArrayList<>();
        for (byte[] f : frames) {
            out.add(SocketPeer.text(f));
        }
        return out;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
