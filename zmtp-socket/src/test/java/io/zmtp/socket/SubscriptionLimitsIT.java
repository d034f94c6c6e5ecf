package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bound PUB against a raw subscriber that sends what a hostile peer would: topics of megabytes, a CANCEL of one, a
 * disconnection right after one, more subscriptions than its budget. Each time the publisher's sends keep working, a
 * well-behaved subscriber keeps receiving, and the hostile peer's pipe goes away with its connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriptionLimitsIT {
    private static final int HUGE = 4 << 20;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(1000, 0);

    private final List<ZmtpSocketEvent> events = new CopyOnWriteArrayList<>();
    private ZmtpSocket pub;
    private ZmtpSocket good;

    @BeforeEach
    void createPublisher() {
        pub = sockets.socket(ZmtpSocketType.PUB);
        pub.monitor(events::add);
    }

    private String bindWithAGoodSubscriber() {
        String endpoint = pub.bind("tcp://127.0.0.1:*");
        good = sockets.socket(ZmtpSocketType.SUB);
        good.setOption(ZmtpSocketOption.SUBSCRIBE, b("G"));
        good.connect(endpoint);
        assertThat(awaitFirst(pub, good, "G0")).isEqualTo("G0");
        return endpoint;
    }

    /** A ZMTP 3.1 command frame, short or long as its size needs. */
    private static byte[] command(String name, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long size = 1 + name.length() + body.length;
        if (size <= 255) {
            out.write(0x04);
            out.write((int) size);
        } else {
            out.write(0x06);
            out.writeBytes(ByteBuffer.allocate(8).putLong(size).array());
        }
        out.write(name.length());
        out.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] huge(byte fill) {
        byte[] t = new byte[HUGE];
        Arrays.fill(t, fill);
        return t;
    }

    /**
     * Publishes {@code topic} until the raw peer receives it, which tells that everything it sent before subscribing
     * to it has been applied. Returns the message's body as the peer read it.
     */
    private String publishUntilReceived(HostileWire wire, String topic) throws IOException {
        long deadline = System.nanoTime() + scaled(Duration.ofSeconds(20)).toNanos();
        while (System.nanoTime() < deadline) {
            pub.send(ZmtpMessage.of(topic));
            wire.socket.setSoTimeout(25);
            int flags;
            try {
                flags = wire.in.read();
            } catch (SocketTimeoutException e) {
                continue;
            }
            wire.socket.setSoTimeout(5000);
            assertThat(flags).as("a short message frame").isEqualTo(0);
            int size = wire.in.read();
            return new String(wire.in.readNBytes(size), StandardCharsets.ISO_8859_1);
        }
        throw new AssertionError("the raw subscriber never got " + topic);
    }

    private void assertGoodSubscriberStillReceives() {
        pub.send(ZmtpMessage.of("G1"));
        // Anything published before (awaitFirst's extra G0s) comes first.
        for (;;) {
            ZmtpMessage m = good.receive(scaled(Duration.ofSeconds(5)));
            assertThat(m).as("the good subscriber still receives").isNotNull();
            String text = m.frameString(0);
            m.release();
            if (text.equals("G1")) {
                return;
            }
        }
    }

    private void awaitPeers(int n) throws InterruptedException {
        long deadline = System.nanoTime() + scaled(Duration.ofSeconds(10)).toNanos();
        while (pub.peers().size() != n && System.nanoTime() < deadline) {
            pub.send(ZmtpMessage.of("tick"));
            Thread.sleep(10);
        }
        assertThat(pub.peers()).as("peers").hasSize(n);
    }

    @Test
    void shouldTakeACancelOfAFourMegabyteTopicAndKeepServing() throws Exception {
        String endpoint = bindWithAGoodSubscriber();
        try (HostileWire wire = new HostileWire(endpoint).handshake("SUB")) {
            byte[] topic = huge((byte) 'h');
            wire.out.write(command("SUBSCRIBE", topic));
            wire.out.write(command("CANCEL", topic));
            wire.out.write(command("SUBSCRIBE", b("H")));
            wire.out.flush();
            assertThat(publishUntilReceived(wire, "H1")).isEqualTo("H1");
            assertGoodSubscriberStillReceives();
            assertThat(pub.peers()).hasSize(2);
        }
        awaitPeers(1);
        assertGoodSubscriberStillReceives();
    }

    @Test
    void shouldDetachAPeerThatDisconnectsAfterAFourMegabyteSubscribe() throws Exception {
        String endpoint = bindWithAGoodSubscriber();
        try (HostileWire wire = new HostileWire(endpoint).handshake("SUB")) {
            wire.out.write(command("SUBSCRIBE", huge((byte) 'h')));
            wire.out.write(command("SUBSCRIBE", b("H")));
            wire.out.flush();
            assertThat(publishUntilReceived(wire, "H1")).isEqualTo("H1");
        }
        awaitPeers(1);
        assertGoodSubscriberStillReceives();
    }

    @Test
    void shouldDisconnectAPeerWhoseSubscriptionsPassMaxSubscriptionBytes() throws Exception {
        pub.setOption(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES, 1L << 20);
        String endpoint = bindWithAGoodSubscriber();
        try (HostileWire wire = new HostileWire(endpoint).handshake("SUB")) {
            wire.out.write(command("SUBSCRIBE", b("H")));
            wire.out.flush();
            assertThat(publishUntilReceived(wire, "H1")).isEqualTo("H1");
            // 4,000 distinct topics of 300 bytes: 2.2 MB charged with the per-entry cost, past the 1 MiB budget.
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int i = 0; i < 4000; i++) {
                byte[] topic = new byte[300];
                Arrays.fill(topic, (byte) 'x');
                ByteBuffer.wrap(topic).putInt(i);
                flood.writeBytes(command("SUBSCRIBE", topic));
            }
            wire.out.write(flood.toByteArray());
            wire.out.flush();
            boolean closed = false;
            for (int i = 0; i < 400 && !closed; i++) {
                pub.send(ZmtpMessage.of("G-" + i));
                closed = wire.closedBySocketWithin(25);
            }
            assertThat(closed).as("the socket closed the peer's connection").isTrue();
        }
        awaitPeers(1);
        assertThat(events).filteredOn(e -> e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR)
                .singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("MAX_SUBSCRIPTION_BYTES"));
        // The good subscriber kept everything published while the hostile peer was disconnected.
        int got = 0;
        for (ZmtpMessage m = good.receive(Duration.ofMillis(200)); m != null; m = good.receive(Duration.ZERO)) {
            got += m.frameString(0).startsWith("G-") ? 1 : 0;
            m.release();
        }
        assertThat(got).isPositive();
        assertGoodSubscriberStillReceives();
    }
}
