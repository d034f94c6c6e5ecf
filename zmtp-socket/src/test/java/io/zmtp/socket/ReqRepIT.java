package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.socket.SocketTestSupport.b;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** REQ and REP over tcp, with each other and with the envelope-aware DEALER and ROUTER. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ReqRepIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldExchangeRequestsAndRepliesBetweenReqAndRep() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket req = socket(REQ);
        req.connect(rep.bind("tcp://127.0.0.1:*"));
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("hello", "" + i));
            assertThat(recv(rep)).isEqualTo("hello|" + i);
            rep.send(ZmtpMessage.of("world", "" + i));
            assertThat(recv(req)).isEqualTo("world|" + i);
        }
    }

    @Test
    void shouldEnforceLockStepOnReqAndRep() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket req = socket(REQ);
        req.connect(rep.bind("tcp://127.0.0.1:*"));
        assertThatThrownBy(req::tryReceive).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThatThrownBy(() -> rep.send(ZmtpMessage.of("x"))).isInstanceOf(ZmtpSocketException.IllegalState.class);
        req.send(ZmtpMessage.of("1"));
        assertThatThrownBy(() -> req.send(ZmtpMessage.of("2"))).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(recv(rep)).isEqualTo("1");
        rep.send(ZmtpMessage.of("r"));
        assertThat(recv(req)).isEqualTo("r");
    }

    @Test
    void shouldDeliverAReqRequestToARouterUnderTheReqRoutingIdAndRouteTheReplyBack() {
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket req = socket(REQ);
        req.setOption(ZmtpSocketOption.ROUTING_ID, b("client-1"));
        req.connect(router.bind("tcp://127.0.0.1:*"));
        req.send(ZmtpMessage.of("ping"));
        assertThat(recv(router)).isEqualTo("client-1||ping");
        router.send(ZmtpMessage.of("client-1", "", "pong"));
        assertThat(recv(req)).isEqualTo("pong");
    }

    @Test
    void shouldHandARepTheRequestWithoutTheDealerEnvelopeAndPutItBackOnTheReply() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket dealer = socket(DEALER);
        dealer.connect(rep.bind("tcp://127.0.0.1:*"));
        dealer.send(ZmtpMessage.of("env", "", "q"));
        assertThat(recv(rep)).isEqualTo("q");
        rep.send(ZmtpMessage.of("a"));
        assertThat(recv(dealer)).isEqualTo("env||a");
    }
}
