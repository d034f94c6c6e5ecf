package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.drain;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/** PUB/SUB and XPUB/XSUB over tcp: filtering, fan-out, subscription reporting, HWM. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PubSubIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldDeliverOnlySubscribedPrefixesAndStopAfterUnsubscribe() {
        ZmtpSocket pub = socket(PUB);
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("A"));
        sub.connect(pub.bind("tcp://127.0.0.1:*"));
        assertThat(awaitFirst(pub, sub, "A-sync")).isEqualTo("A-sync");
        drain(sub);
        pub.send(ZmtpMessage.of("B1"));
        pub.send(ZmtpMessage.of("AB", "two"));
        pub.send(ZmtpMessage.of("C1"));
        pub.send(ZmtpMessage.of("A2"));
        assertThat(recv(sub)).isEqualTo("AB|two");
        assertThat(recv(sub)).isEqualTo("A2");
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("C"));
        assertThat(awaitFirst(pub, sub, "C-sync")).isEqualTo("C-sync");
        drain(sub);
        sub.setOption(ZmtpSocketOption.UNSUBSCRIBE, b("A"));
        // Once C-messages flow after the cancel, A-messages must no longer arrive.
        assertThat(awaitFirst(pub, sub, "C-after")).isEqualTo("C-after");
        drain(sub);
        pub.send(ZmtpMessage.of("A3"));
        pub.send(ZmtpMessage.of("C3"));
        assertThat(recv(sub)).isEqualTo("C3");
    }

    @Test
    void shouldFanOutFromAPubToThreeSubscribers() {
        ZmtpSocket pub = socket(PUB);
        String ep = pub.bind("tcp://127.0.0.1:*");
        List<ZmtpSocket> subs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ZmtpSocket sub = socket(SUB);
            sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
            sub.connect(ep);
            subs.add(sub);
        }
        for (ZmtpSocket sub : subs) {
            awaitFirst(pub, sub, "sync");
        }
        for (ZmtpSocket sub : subs) {
            drain(sub);
        }
        for (int i = 0; i < 10; i++) {
            pub.send(ZmtpMessage.of("n" + i));
        }
        for (ZmtpSocket sub : subs) {
            for (int i = 0; i < 10; i++) {
                assertThat(recv(sub)).isEqualTo("n" + i);
            }
        }
    }

    @Test
    void shouldPassSubscriptionsFromAnXsubToAnXpubAndFilterByThem() {
        ZmtpSocket xpub = socket(XPUB);
        ZmtpSocket xsub = socket(XSUB);
        xsub.connect(xpub.bind("tcp://127.0.0.1:*"));
        xsub.send(ZmtpMessage.ofBytes(new byte[] {1, 'T'}));
        ZmtpMessage sub = xpub.receive(WAIT);
        assertThat(sub).isNotNull();
        assertThat(sub.frameBytes(0)).containsExactly(1, 'T');
        sub.release();
        xpub.send(ZmtpMessage.of("Tx"));
        xpub.send(ZmtpMessage.of("Ux"));
        xpub.send(ZmtpMessage.of("Ty"));
        assertThat(recv(xsub)).isEqualTo("Tx");
        assertThat(recv(xsub)).isEqualTo("Ty");
        xsub.send(ZmtpMessage.ofBytes(new byte[] {0, 'T'}));
        ZmtpMessage cancel = xpub.receive(WAIT);
        assertThat(cancel).isNotNull();
        assertThat(cancel.frameBytes(0)).containsExactly(0, 'T');
        cancel.release();
    }

    @Test
    void shouldReportACancelOnAnXpubWhenItsSubscriberLeaves() {
        ZmtpSocket xpub = socket(XPUB);
        String ep = xpub.bind("tcp://127.0.0.1:*");
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, b("K"));
        sub.connect(ep);
        ZmtpMessage m = xpub.receive(WAIT);
        assertThat(m.frameBytes(0)).containsExactly(1, 'K');
        m.release();
        sub.close();
        m = xpub.receive(WAIT);
        assertThat(m).isNotNull();
        assertThat(m.frameBytes(0)).containsExactly(0, 'K');
        m.release();
    }

    @Test
    void shouldDropAndCountOnAPubWhenASubscriberStopsReading() {
        ZmtpSocket pub = socket(PUB);
        pub.setOption(ZmtpSocketOption.SNDHWM, 10);
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.RCVHWM, 10);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
        sub.connect(pub.bind("tcp://127.0.0.1:*"));
        awaitFirst(pub, sub, "sync");
        byte[] big = new byte[64 * 1024];
        for (int i = 0; i < 2000 && pub.droppedCount() == 0; i++) {
            assertThat(pub.trySend(ZmtpMessage.ofBytes(big))).isTrue();
        }
        assertThat(pub.droppedCount()).isPositive();
    }

    @Test
    void shouldMakeAnXpubWithNodropWaitInsteadOfDropping() {
        ZmtpSocket pub = socket(XPUB);
        pub.setOption(ZmtpSocketOption.SNDHWM, 10);
        pub.setOption(ZmtpSocketOption.XPUB_NODROP, true);
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.RCVHWM, 10);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
        sub.connect(pub.bind("tcp://127.0.0.1:*"));
        pub.receive(scaled(Duration.ofSeconds(5))).release();
        byte[] big = new byte[64 * 1024];
        boolean refused = false;
        for (int i = 0; i < 2000 && !refused; i++) {
            refused = !pub.trySend(ZmtpMessage.ofBytes(big));
        }
        assertThat(refused).isTrue();
        assertThat(pub.droppedCount()).isZero();
    }
}
