package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DEALER and ROUTER over tcp: routing ids, ROUTER_MANDATORY and ROUTER_HANDOVER, fair queueing. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DealerRouterIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldGiveADealerWithoutRoutingIdAGeneratedFiveByteIdOnARouter() {
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket dealer = socket(DEALER);
        dealer.connect(router.bind("tcp://127.0.0.1:*"));
        dealer.send(ZmtpMessage.of("hi"));
        ZmtpMessage m = router.receive(WAIT);
        assertThat(m).isNotNull();
        byte[] id = m.frameBytes(0);
        assertThat(id).hasSize(5);
        assertThat(id[0]).isZero();
        assertThat(m.frameString(1)).isEqualTo("hi");
        m.release();
        router.send(ZmtpMessage.ofBytes(id, b("back")));
        assertThat(recv(dealer)).isEqualTo("back");
    }

    @Test
    void shouldDropAMessageForAnUnknownPeerOrThrowHostUnreachableWithRouterMandatory() {
        ZmtpSocket router = socket(ROUTER);
        router.bind("tcp://127.0.0.1:*");
        assertThat(router.trySend(ZmtpMessage.of("nobody", "x"))).isTrue();
        assertThat(router.droppedCount()).isEqualTo(1);
        router.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
        assertThatThrownBy(() -> router.send(ZmtpMessage.of("nobody", "x")))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
    }

    @Test
    void shouldIgnoreASecondPeerWithARoutingIdInUseWithoutHandover() {
        ZmtpSocket router = socket(ROUTER);
        String ep = router.bind("tcp://127.0.0.1:*");
        ZmtpSocket d1 = socket(DEALER);
        d1.setOption(ZmtpSocketOption.ROUTING_ID, b("same"));
        d1.connect(ep);
        d1.send(ZmtpMessage.of("from1"));
        assertThat(recv(router)).isEqualTo("same|from1");
        ZmtpSocket d2 = socket(DEALER);
        d2.setOption(ZmtpSocketOption.ROUTING_ID, b("same"));
        d2.connect(ep);
        d2.send(ZmtpMessage.of("from2"));
        d1.send(ZmtpMessage.of("again1"));
        assertThat(recv(router)).isEqualTo("same|again1");
        assertThat(router.receive(Duration.ofMillis(200))).isNull();
    }

    @Test
    void shouldMoveARoutingIdToTheNewPeerWithRouterHandover() {
        ZmtpSocket router = socket(ROUTER);
        router.setOption(ZmtpSocketOption.ROUTER_HANDOVER, true);
        String ep = router.bind("tcp://127.0.0.1:*");
        ZmtpSocket d1 = socket(DEALER);
        d1.setOption(ZmtpSocketOption.ROUTING_ID, b("same"));
        d1.connect(ep);
        d1.send(ZmtpMessage.of("from1"));
        assertThat(recv(router)).isEqualTo("same|from1");
        ZmtpSocket d2 = socket(DEALER);
        d2.setOption(ZmtpSocketOption.ROUTING_ID, b("same"));
        d2.connect(ep);
        d2.send(ZmtpMessage.of("from2"));
        assertThat(recv(router)).isEqualTo("same|from2");
        router.send(ZmtpMessage.of("same", "to2"));
        assertThat(recv(d2)).isEqualTo("to2");
    }

    @Test
    void shouldExchangeMessagesBetweenTwoDealers() {
        ZmtpSocket a = socket(DEALER);
        ZmtpSocket b = socket(DEALER);
        b.connect(a.bind("tcp://127.0.0.1:*"));
        b.send(ZmtpMessage.of("x", "y"));
        assertThat(recv(a)).isEqualTo("x|y");
        a.send(ZmtpMessage.of("z"));
        assertThat(recv(b)).isEqualTo("z");
    }

    @Test
    void shouldFairQueueARoutersInputFromThreeDealers() {
        ZmtpSocket router = socket(ROUTER);
        String ep = router.bind("tcp://127.0.0.1:*");
        ZmtpSocket dealer = socket(DEALER);
        List<ZmtpSocket> reps = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ZmtpSocket d = socket(DEALER);
            d.setOption(ZmtpSocketOption.ROUTING_ID, b("d" + i));
            d.connect(ep);
            reps.add(d);
        }
        for (int i = 0; i < 3; i++) {
            reps.get(i).send(ZmtpMessage.of("hello"));
        }
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            counts.merge(recv(router).split("\\|")[0], 1, Integer::sum);
        }
        assertThat(counts).containsOnlyKeys("d0", "d1", "d2");
        dealer.close();
    }
}
