package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.PropertySockets.Transport;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ROUTER routing, through random sequences of sends and receives between a ROUTER and three DEALERs with routing ids,
 * sends to an id nobody has, polls, and restarts of a DEALER (a new socket with the same id, taken over with
 * ROUTER_HANDOVER), against a model: the ROUTER hands each message up with its sender's id, in each sender's order;
 * a message routed to an id reaches that DEALER (its current socket) and no other; an unknown id is dropped, or
 * refused with ROUTER_MANDATORY. Nothing lost, duplicated or misdelivered: a restart happens after what was under
 * way to and from that DEALER has arrived, so nothing is in flight.
 */
class RouterPropertiesIT {
    private static final int DEALERS = 3;
    private static final Duration NOTHING = Duration.ofMillis(10);

    enum Op { DEALER_SEND, ROUTER_RECEIVE, ROUTER_SEND, DEALER_RECEIVE, ROUTER_POLL, DEALER_RESTART }

    /** {@code dealer} is 0..2, or 3 for an id nobody has (ROUTER_SEND only). */
    record Step(Op op, int dealer) {
        @Override
        public String toString() {
            return op + "(" + dealer + ")";
        }
    }

    record Setting(Transport transport, boolean mandatory) {
    }

    @Test
    void shouldRouteEachMessageToItsPeerOnlyAndHandUpEachWithItsSendersId() {
        RandomSteps.check(12, r -> new Setting(r.nextBoolean() ? Transport.TCP : Transport.INPROC, r.nextBoolean()),
                r -> RandomSteps.listOf(r, 1, 40, x -> {
                    Op op = RandomSteps.pick(x, 4, Op.DEALER_SEND, 3, Op.ROUTER_RECEIVE, 4, Op.ROUTER_SEND,
                            3, Op.DEALER_RECEIVE, 1, Op.ROUTER_POLL, 1, Op.DEALER_RESTART);
                    return new Step(op, x.nextInt(op == Op.ROUTER_SEND ? DEALERS + 1 : DEALERS));
                }),
                RouterPropertiesIT::run);
    }

    private static final class Model {
        final ZmtpSocket router;
        final ZmtpSocket[] dealers = new ZmtpSocket[DEALERS];
        @SuppressWarnings("unchecked")
        final ArrayDeque<String>[] toRouter = new ArrayDeque[DEALERS];
        @SuppressWarnings("unchecked")
        final ArrayDeque<String>[] toDealer = new ArrayDeque[DEALERS];
        final PropertySockets sockets;
        final String endpoint;
        int n;

        Model(PropertySockets sockets, String endpoint, ZmtpSocket router) {
            this.sockets = sockets;
            this.endpoint = endpoint;
            this.router = router;
            for (int i = 0; i < DEALERS; i++) {
                toRouter[i] = new ArrayDeque<>();
                toDealer[i] = new ArrayDeque<>();
            }
        }

        static byte[] id(int dealer) {
            return ("dealer-" + dealer).getBytes(StandardCharsets.US_ASCII);
        }

        /** A new DEALER with the id, connected, and known to the ROUTER (its first message has arrived). */
        void start(int i) {
            dealers[i] = sockets.socket(ZmtpSocketType.DEALER);
            dealers[i].setOption(ZmtpSocketOption.ROUTING_ID, id(i));
            dealers[i].connect(endpoint);
            String hello = "hello-" + (++n);
            dealers[i].send(ZmtpMessage.of(hello));
            toRouter[i].add(hello);
            while (toRouter[i].contains(hello)) {
                routerReceive(WAIT);
            }
        }

        /** Receives at the ROUTER; the message must be the next from the DEALER whose id it carries. */
        void routerReceive(Duration timeout) {
            ZmtpMessage m = router.receive(timeout);
            assertThat(m).as("a message at the ROUTER").isNotNull();
            String text = SocketTestSupport.text(m);
            int bar = text.indexOf('|');
            assertThat(bar).as("id and body in %s", text).isPositive();
            int dealer = Integer.parseInt(text.substring("dealer-".length(), bar));
            assertThat(text.substring(bar + 1)).as("next message from dealer %d", dealer)
                    .isEqualTo(toRouter[dealer].poll());
        }

        boolean anyToRouter() {
            for (ArrayDeque<String> q : toRouter) {
                if (!q.isEmpty()) {
                    return true;
                }
            }
            return false;
        }

        void dealerReceive(int i) {
            if (toDealer[i].isEmpty()) {
                assertThat(PropertySockets.receive(dealers[i], NOTHING)).as("dealer %d got a message nobody sent it", i)
                        .isNull();
            } else {
                assertThat(PropertySockets.receive(dealers[i], WAIT)).as("dealer %d", i).isEqualTo(toDealer[i].poll());
            }
        }
    }

    private static void run(Setting setting, List<Step> steps) {
        try (PropertySockets sockets = new PropertySockets()) {
            String endpoint = setting.transport().endpoint();
            ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
            router.setOption(ZmtpSocketOption.ROUTER_HANDOVER, true);
            router.setOption(ZmtpSocketOption.ROUTER_MANDATORY, setting.mandatory());
            router.bind(endpoint);
            Model model = new Model(sockets, endpoint, router);
            for (int i = 0; i < DEALERS; i++) {
                model.start(i);
            }
            for (Step step : steps) {
                int d = step.dealer();
                switch (step.op()) {
                    case DEALER_SEND: {
                        String body = "up-" + (++model.n);
                        model.dealers[d].send(ZmtpMessage.of(body));
                        model.toRouter[d].add(body);
                        break;
                    }
                    case ROUTER_RECEIVE:
                        if (model.anyToRouter()) {
                            model.routerReceive(WAIT);
                        } else {
                            assertThat(PropertySockets.receive(router, NOTHING)).as("ROUTER got a message nobody sent")
                                    .isNull();
                        }
                        break;
                    case ROUTER_SEND: {
                        String body = "down-" + (++model.n);
                        ZmtpMessage m = ZmtpMessage.of("dealer-" + d, body);
                        if (d < DEALERS) {
                            router.send(m);
                            model.toDealer[d].add(body);
                        } else if (setting.mandatory()) {
                            assertThatThrownBy(() -> router.send(m))
                                    .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
                        } else {
                            router.send(m);
                        }
                        break;
                    }
                    case DEALER_RECEIVE:
                        model.dealerReceive(d);
                        break;
                    case ROUTER_POLL:
                        try (ZmtpPoller poller = new ZmtpPoller()) {
                            poller.register(router, ZmtpPoller.Interest.IN);
                            poller.poll(model.anyToRouter() ? WAIT : Duration.ZERO);
                            assertThat(poller.isReadable(router)).as("ROUTER readable").isEqualTo(model.anyToRouter());
                        }
                        break;
                    case DEALER_RESTART:
                        while (!model.toDealer[d].isEmpty()) {
                            model.dealerReceive(d);
                        }
                        while (!model.toRouter[d].isEmpty()) {
                            model.routerReceive(WAIT);
                        }
                        model.dealers[d].close();
                        model.start(d);
                        break;
                    default:
                        throw new AssertionError(step);
                }
            }
            for (int i = 0; i < DEALERS; i++) {
                while (!model.toDealer[i].isEmpty()) {
                    model.dealerReceive(i);
                }
                model.dealerReceive(i);
            }
            while (model.anyToRouter()) {
                model.routerReceive(WAIT);
            }
            assertThat(PropertySockets.receive(router, NOTHING)).as("ROUTER got a message nobody sent").isNull();
        }
    }
}
