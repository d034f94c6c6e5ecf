package io.zmtp.socket;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.SocketTestSupport.RawPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;

/** Subscriptions between our sockets and a bare-codec peer that shows exactly what crosses the wire. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriptionIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(1000, 0);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldTakeARepeatedSubscribeAsOneAndRemoveItWithOneCancel() {
        ZmtpSocket xpub = socket(XPUB);
        String endpoint = xpub.bind("tcp://127.0.0.1:*");
        try (RawPeer sub = new RawPeer(ZmtpConfig.builder(SUB).build())) {
            Channel ch = sub.connect(endpoint);
            ch.write(ZmtpCommand.subscribe(Unpooled.wrappedBuffer(b("A"))));
            ch.write(ZmtpCommand.subscribe(Unpooled.wrappedBuffer(b("A"))));
            ch.writeAndFlush(ZmtpCommand.cancel(Unpooled.wrappedBuffer(b("A"))));
            assertThat(recv(xpub)).isEqualTo("\u0001A");
            assertThat(recv(xpub)).as("one CANCEL undoes both SUBSCRIBEs").isEqualTo("\u0000A");

            ch.writeAndFlush(ZmtpCommand.subscribe(Unpooled.wrappedBuffer(b("B"))));
            assertThat(recv(xpub)).isEqualTo("\u0001B");
            xpub.send(ZmtpMessage.of("A: not subscribed any more"));
            xpub.send(ZmtpMessage.of("B: subscribed"));
            assertThat(sub.next()).isEqualTo("B: subscribed");
        }
    }

    /**
     * Stress: subscriptions made on a bound SUB while a publisher connects to it. Whether the connection's handshake
     * sends the set before or after each change, the publisher must end up with every topic. A large set makes each
     * change slow, which widens the window in which the connection can come up mid-change.
     */
    @Test
    void shouldDeliverEverySubscriptionMadeWhileAPublisherConnects() {
        int early = 3_000;
        int late = 100;
        for (int round = 0; round < 10; round++) {
            try (RawPeer pub = new RawPeer(ZmtpConfig.builder(ZmtpSocketType.PUB).build());
                 ZmtpSocket sub = socket(SUB)) {
                String endpoint = sub.bind("tcp://127.0.0.1:*");
                Set<String> expected = new HashSet<>();
                for (int i = 0; i < early; i++) {
                    sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("early-" + i));
                    expected.add("SUBSCRIBE:early-" + i);
                }
                pub.startConnect(endpoint);
                for (int i = 0; i < late; i++) {
                    sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("late-" + i));
                    expected.add("SUBSCRIBE:late-" + i);
                }
                Set<String> seen = new HashSet<>();
                while (!seen.containsAll(expected)) {
                    String next = pub.received.poll();
                    if (next == null) {
                        next = pub.next();
                    }
                    seen.add(next);
                }
                assertThat(seen).isEqualTo(expected);
            }
        }
    }

    private static ZmtpMessage subscription(int kind, String topic) {
        byte[] t = b(topic);
        byte[] body = new byte[t.length + 1];
        body[0] = (byte) kind;
        System.arraycopy(t, 0, body, 1, t.length);
        return ZmtpMessage.ofBytes(body);
    }

    /**
     * libzmq's XSUB (xsub.cpp, xsend) counts subscriptions and forwards every SUBSCRIBE (an XPUB_VERBOSE behind a
     * proxy sees each one), but a CANCEL only when it undoes the last count of its topic: the publisher keeps a set
     * per connection, so an earlier CANCEL would end a subscription the XSUB still holds.
     */
    @Test
    void shouldForwardEveryXsubSubscribeAndACancelOnlyForTheLastCount() {
        ZmtpSocket xpub = socket(XPUB);
        xpub.setOption(ZmtpSocketOption.XPUB_VERBOSE, true);
        String endpoint = xpub.bind("tcp://127.0.0.1:*");
        ZmtpSocket xsub = socket(ZmtpSocketType.XSUB);
        xsub.send(subscription(1, "S"));
        xsub.connect(endpoint);
        assertThat(recv(xpub)).as("the set, sent as the connection comes up").isEqualTo("\u0001S");

        xsub.send(subscription(1, "A"));
        xsub.send(subscription(1, "A"));
        xsub.send(subscription(0, "A"));
        xsub.send(subscription(0, "unknown"));
        xsub.send(subscription(1, "B"));
        assertThat(recv(xpub)).isEqualTo("\u0001A");
        assertThat(recv(xpub)).as("a repeated SUBSCRIBE is forwarded").isEqualTo("\u0001A");
        assertThat(recv(xpub)).as("no CANCEL while A is held once more, nor for what was never held")
                .isEqualTo("\u0001B");
        xpub.send(ZmtpMessage.of("A1"));
        assertThat(recv(xsub)).isEqualTo("A1");

        xsub.send(subscription(0, "A"));
        assertThat(recv(xpub)).as("the last count's CANCEL is forwarded").isEqualTo("\u0000A");
    }

    /**
     * A PUB that connects, and a SUB that comes back while the PUB's application is idle: the new connection's
     * SUBSCRIBE reaches the PUB's pipe before the application next calls in and learns the old connection went away,
     * and must survive the old connection's subscriptions being dropped.
     */
    @Test
    void shouldKeepTheSubscriptionsOfANewConnectionThatArriveBeforeTheOldOnesEnd() throws Exception {
        ZmtpSocket sub = sockets.socket(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, "t".getBytes());
        String ep = sub.bind("tcp://127.0.0.1:*");
        ZmtpSocket pub = sockets.socket(ZmtpSocketType.PUB);
        pub.connect(ep);
        SocketTestSupport.awaitFirst(pub, sub, "t-first");
        sub.close();
        ZmtpSocket again = sockets.socket(ZmtpSocketType.SUB);
        again.setOption(ZmtpSocketOption.SUBSCRIBE, "t".getBytes());
        again.bind(ep);
        // The PUB reconnects (RECONNECT_IVL 100 ms) and reads the new SUBSCRIBE while its application does nothing.
        assertThat(SocketTestSupport.eventually(
                () -> again.peers().stream().anyMatch(p -> p.state() == ZmtpPeer.State.CONNECTED)))
                .as("the PUB reconnected").isTrue();
        Thread.sleep(300);
        assertThat(SocketTestSupport.awaitFirst(pub, again, "t-again")).isEqualTo("t-again");
    }
}
