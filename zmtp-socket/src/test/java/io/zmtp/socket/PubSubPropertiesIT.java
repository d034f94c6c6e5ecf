package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.PropertySockets.Transport;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PUB/SUB filtering, through random sequences of subscriptions, unsubscriptions (repeated ones included), publishes
 * and restarts of a subscriber, between a publisher and two SUBs, against a model of libzmq's rules: a SUB counts its
 * subscriptions (two SUBSCRIBEs of a prefix need two UNSUBSCRIBEs); a message reaches a SUB exactly when one of its
 * prefixes matches the message's first frame, both when it is published (the PUB filters) and when the application
 * receives it (the SUB filters again, so a message already queued when its prefix is unsubscribed is dropped, as in
 * libzmq); a restarted SUB starts with no subscription, whatever its former self
 * had (no stale subscription survives at the publisher); messages to one SUB keep their order, none is duplicated.
 *
 * <p>Subscriptions travel to the publisher asynchronously, so after changing a SUB's subscriptions the model waits
 * until the change is in force: the SUB subscribes to a topic of its own, and the publisher reports that subscription
 * once it has applied it; the SUB's changes travel in order on one connection, so the earlier ones are in force too.
 * The publisher is therefore an XPUB, which routes exactly as PUB does (one class, {@code PubSocket}): a PUB can't
 * say when it has applied a subscription, and the arrival of a message published to the sync topic proves nothing
 * while the SUB still has the empty prefix, which matches every topic (a try once took a sync message that the old
 * {@code ""} let through for proof that the CANCEL of {@code ""} was in force). The publisher then sends the sync
 * topic once, and its arrival proves that what was published to the SUB before has arrived. Those sync messages start
 * with 0x01 and are left out of what is compared.
 */
class PubSubPropertiesIT {
    private static final String[] PREFIXES = {"", "a", "ab", "b"};
    private static final String[] TOPICS = {"a", "ab", "abc", "b", "c"};

    enum Op { SUBSCRIBE, UNSUBSCRIBE, PUBLISH, RESTART }

    record Step(Op op, int sub, int which) {
        @Override
        public String toString() {
            switch (op) {
                case SUBSCRIBE:
                case UNSUBSCRIBE:
                    return op + "(" + sub + ", \"" + PREFIXES[which % PREFIXES.length] + "\")";
                case PUBLISH:
                    return op + "(\"" + TOPICS[which % TOPICS.length] + "\")";
                default:
                    return op + "(" + sub + ")";
            }
        }
    }

    @Test
    void shouldDeliverEachMessageToExactlyTheSubscribersWhosePrefixesMatchIt() {
        RandomSteps.check(10, r -> r.nextBoolean() ? Transport.TCP : Transport.INPROC,
                r -> RandomSteps.listOf(r, 1, 40, x -> new Step(
                        RandomSteps.pick(x, 3, Op.SUBSCRIBE, 2, Op.UNSUBSCRIBE, 6, Op.PUBLISH, 1, Op.RESTART),
                        x.nextInt(2), x.nextInt(Math.max(PREFIXES.length, TOPICS.length)))),
                PubSubPropertiesIT::run);
    }

    private static final class Subscriber {
        final Map<String, Integer> counts = new HashMap<>();
        final List<String> expected = new ArrayList<>();
        /** Published to it (its prefixes matched then), not yet received: the SUB's own filter decides at receive. */
        final List<String> pending = new ArrayList<>();
        final List<String> received = new ArrayList<>();
        ZmtpSocket socket;

        boolean matches(String message) {
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                if (e.getValue() > 0 && message.startsWith(e.getKey())) {
                    return true;
                }
            }
            return false;
        }
    }

    private static void run(Transport transport, List<Step> steps) {
        try (PropertySockets sockets = new PropertySockets()) {
            String endpoint = transport.endpoint();
            ZmtpSocket pub = sockets.socket(ZmtpSocketType.XPUB);
            pub.bind(endpoint);
            Subscriber[] subs = {new Subscriber(), new Subscriber()};
            int[] n = {0};
            for (int i = 0; i < subs.length; i++) {
                start(sockets, endpoint, subs[i]);
                sync(pub, subs[i], i, n);
            }
            for (Step step : steps) {
                Subscriber s = subs[step.sub()];
                switch (step.op()) {
                    case SUBSCRIBE: {
                        String prefix = PREFIXES[step.which() % PREFIXES.length];
                        s.socket.setOption(ZmtpSocketOption.SUBSCRIBE, prefix.getBytes(StandardCharsets.US_ASCII));
                        s.counts.merge(prefix, 1, Integer::sum);
                        sync(pub, s, step.sub(), n);
                        break;
                    }
                    case UNSUBSCRIBE: {
                        String prefix = PREFIXES[step.which() % PREFIXES.length];
                        s.socket.setOption(ZmtpSocketOption.UNSUBSCRIBE, prefix.getBytes(StandardCharsets.US_ASCII));
                        s.counts.computeIfPresent(prefix, (k, c) -> c > 1 ? c - 1 : null);
                        sync(pub, s, step.sub(), n);
                        break;
                    }
                    case PUBLISH: {
                        String message = TOPICS[step.which() % TOPICS.length] + "/" + (++n[0]);
                        pub.send(ZmtpMessage.of(message));
                        for (Subscriber each : subs) {
                            if (each.matches(message)) {
                                each.pending.add(message);
                            }
                        }
                        break;
                    }
                    case RESTART:
                        sync(pub, s, step.sub(), n);
                        assertThat(s.received).as("messages at subscriber %d before its restart", step.sub())
                                .isEqualTo(s.expected);
                        s.socket.close();
                        s.counts.clear();
                        s.expected.clear();
                        s.received.clear();
                        s.pending.clear();
                        start(sockets, endpoint, s);
                        sync(pub, s, step.sub(), n);
                        break;
                    default:
                        throw new AssertionError(step);
                }
            }
            for (int i = 0; i < subs.length; i++) {
                sync(pub, subs[i], i, n);
                assertThat(subs[i].received).as("messages at subscriber %d", i).isEqualTo(subs[i].expected);
            }
        }
    }

    private static void start(PropertySockets sockets, String endpoint, Subscriber s) {
        s.socket = sockets.socket(ZmtpSocketType.SUB);
        s.socket.connect(endpoint);
    }

    /**
     * Waits until the subscriber's subscription changes so far are in force at the publisher, and until what the
     * publisher sent it before now has arrived (one connection keeps both in order); records what arrives meanwhile.
     */
    private static void sync(ZmtpSocket pub, Subscriber s, int index, int[] n) {
        String topic = "\u0001sync-" + index + "-" + (++n[0]);
        byte[] topicBytes = topic.getBytes(StandardCharsets.US_ASCII);
        s.socket.setOption(ZmtpSocketOption.SUBSCRIBE, topicBytes);
        // The XPUB reports each prefix's first subscription as "\u0001" + prefix once it has applied it.
        String applied = "\u0001" + topic;
        long deadline = System.nanoTime() + SocketTestSupport.WAIT.toNanos();
        while (!applied.equals(PropertySockets.receive(pub, Duration.ofMillis(10)))) {
            assertThat(System.nanoTime()).as("subscriber %d's subscription applied within %s", index,
                    SocketTestSupport.WAIT).isLessThan(deadline);
        }
        pub.send(ZmtpMessage.of(topic));
        while (true) {
            assertThat(System.nanoTime()).as("subscriber %d in sync within %s", index, SocketTestSupport.WAIT)
                    .isLessThan(deadline);
            for (String m; (m = PropertySockets.receive(s.socket, Duration.ofMillis(10))) != null; ) {
                if (m.equals(topic)) {
                    s.socket.setOption(ZmtpSocketOption.UNSUBSCRIBE, topicBytes);
                    // Everything published to it before now has arrived, and was received under today's prefixes.
                    for (String p : s.pending) {
                        if (s.matches(p)) {
                            s.expected.add(p);
                        }
                    }
                    s.pending.clear();
                    return;
                }
                if (m.charAt(0) != '\u0001') {
                    s.received.add(m);
                }
            }
        }
    }
}
