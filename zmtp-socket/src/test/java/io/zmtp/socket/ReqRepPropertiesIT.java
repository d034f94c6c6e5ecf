package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.PropertySockets.Transport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * REQ and REP in lock-step, through random sequences of sends, receives and polls on either side, against a model of
 * their rules (rfc 28): a REQ sends, then must receive the reply before it sends again; a REP receives, then must
 * reply before it receives again; anything else is refused ({@link ZmtpSocketException.IllegalState}, libzmq's
 * EFSM) without changing the state; a poll reports OUT exactly when a send is allowed and IN when the message to
 * receive is there, and changes nothing. Every request and reply arrives once, whole, to the right side.
 */
class ReqRepPropertiesIT {
    private static final Duration NOTHING = Duration.ofMillis(10);

    enum Step { REQ_SEND, REQ_RECEIVE, REQ_POLL, REP_RECEIVE, REP_SEND, REP_POLL }

    @Test
    void shouldKeepReqAndRepInLockStepWhateverTheApplicationCalls() {
        RandomSteps.check(12, r -> r.nextBoolean() ? Transport.TCP : Transport.INPROC,
                r -> RandomSteps.listOf(r, 1, 40, x -> Step.values()[x.nextInt(Step.values().length)]),
                ReqRepPropertiesIT::run);
    }

    private static void run(Transport transport, List<Step> steps) {
        try (PropertySockets sockets = new PropertySockets()) {
            String endpoint = transport.endpoint();
            ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
            rep.bind(endpoint);
            ZmtpSocket req = sockets.socket(ZmtpSocketType.REQ);
            req.connect(endpoint);
            int n = 0;
            boolean reqWaiting = false;     // the REQ sent request n and has not received its reply
            boolean requestPending = false; // request n is on its way to the REP
            boolean repHolding = false;     // the REP received request n and has not replied
            boolean replyPending = false;   // reply n is on its way to the REQ
            for (Step step : steps) {
                switch (step) {
                    case REQ_SEND:
                        if (reqWaiting) {
                            assertThatThrownBy(() -> req.send(ZmtpMessage.of("extra")))
                                    .isInstanceOf(ZmtpSocketException.IllegalState.class);
                        } else {
                            n++;
                            req.send(ZmtpMessage.of("q" + n));
                            reqWaiting = true;
                            requestPending = true;
                        }
                        break;
                    case REQ_RECEIVE:
                        if (!reqWaiting) {
                            assertThatThrownBy(() -> req.receive(NOTHING))
                                    .isInstanceOf(ZmtpSocketException.IllegalState.class);
                        } else if (replyPending) {
                            assertThat(PropertySockets.receive(req, WAIT)).isEqualTo("r" + n);
                            reqWaiting = false;
                            replyPending = false;
                        } else {
                            assertThat(PropertySockets.receive(req, NOTHING)).as("a reply never sent").isNull();
                        }
                        break;
                    case REP_RECEIVE:
                        if (repHolding) {
                            assertThatThrownBy(() -> rep.receive(NOTHING))
                                    .isInstanceOf(ZmtpSocketException.IllegalState.class);
                        } else if (requestPending) {
                            assertThat(PropertySockets.receive(rep, WAIT)).isEqualTo("q" + n);
                            repHolding = true;
                            requestPending = false;
                        } else {
                            assertThat(PropertySockets.receive(rep, NOTHING)).as("a request never sent").isNull();
                        }
                        break;
                    case REP_SEND:
                        if (!repHolding) {
                            assertThatThrownBy(() -> rep.send(ZmtpMessage.of("extra")))
                                    .isInstanceOf(ZmtpSocketException.IllegalState.class);
                        } else {
                            rep.send(ZmtpMessage.of("r" + n));
                            repHolding = false;
                            replyPending = true;
                        }
                        break;
                    case REQ_POLL:
                        poll(req, !reqWaiting, replyPending);
                        break;
                    case REP_POLL:
                        poll(rep, repHolding, requestPending);
                        break;
                    default:
                        throw new AssertionError(step);
                }
            }
        }
    }

    /** Polls for IN and OUT, waiting for IN when a message is due, and compares with the model. */
    private static void poll(ZmtpSocket socket, boolean writable, boolean readable) {
        try (ZmtpPoller poller = new ZmtpPoller()) {
            poller.register(socket, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
            poller.poll(Duration.ZERO);
            if (readable && !poller.isReadable(socket)) {
                poller.register(socket, ZmtpPoller.Interest.IN);
                poller.poll(WAIT);
                assertThat(poller.isReadable(socket)).as("%s readable once the message is there", socket).isTrue();
                poller.register(socket, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
                poller.poll(Duration.ZERO);
            }
            assertThat(poller.isWritable(socket)).as("%s writable", socket.type()).isEqualTo(writable);
            assertThat(poller.isReadable(socket)).as("%s readable", socket.type()).isEqualTo(readable);
        }
    }
}
