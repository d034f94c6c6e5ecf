package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.PropertySockets.Transport;
import org.junit.jupiter.api.Test;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PUSH -> PULL against ZeroMQ's guarantee, through random sequences of sends, receives, polls, binds and restarts of
 * the puller: the pusher connects, so what it still queues is delivered after a reconnection and only messages in
 * flight (written to a connection the puller then closed, or waiting in the closed puller) can be lost. Checked:
 * <ul>
 *   <li>nothing duplicated and nothing reordered (one pusher, one puller: sequence numbers only grow);</li>
 *   <li>a message goes missing only across a restart of the puller (a gap between two messages received in the same
 *       life of the puller is a loss ZeroMQ doesn't allow), and the last one sent always arrives: it is sent once
 *       the pusher has seen the last restart, so it is queued or written to the new puller, not in flight to the
 *       old one (a message written to a connection the peer has closed, before its close reaches us, is lost with
 *       libzmq too);</li>
 *   <li>before the puller first binds, the pusher queues exactly SNDHWM messages and refuses the next;</li>
 *   <li>a poll that says readable means a message can be taken at once.</li>
 * </ul>
 */
class PushPullPropertiesIT {
    private static final int SNDHWM = 20;

    enum Op { SEND, RECEIVE, POLL, BIND, RESTART }

    record Step(Op op, int count) {
        @Override
        public String toString() {
            return op + (op == Op.SEND || op == Op.RECEIVE ? "(" + count + ")" : "");
        }
    }

    static List<Step> steps(SplittableRandom r) {
        return RandomSteps.listOf(r, 1, 25, x -> new Step(RandomSteps.pick(x, 5, Op.SEND, 4, Op.RECEIVE, 2, Op.POLL,
                2, Op.BIND, 2, Op.RESTART), 1 + x.nextInt(30)));
    }

    @Test
    void shouldLoseOnlyWhatWasInFlightWhenThePullerRestarts() {
        RandomSteps.check(16, r -> r.nextBoolean() ? Transport.TCP : Transport.INPROC, PushPullPropertiesIT::steps,
                PushPullPropertiesIT::run);
    }

    private static void run(Transport transport, List<Step> steps) {
        try (PropertySockets sockets = new PropertySockets()) {
            String endpoint = transport.endpoint();
            ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.SNDHWM, SNDHWM);
            push.connect(endpoint);
            ZmtpSocket pull = null;
            int epoch = 0;
            boolean everBound = false;
            int sent = 0;
            int refusedBeforeBind = 0;
            List<int[]> received = new ArrayList<>(); // {sequence number, epoch}
            for (Step step : steps) {
                switch (step.op()) {
                    case SEND:
                        for (int i = 0; i < step.count(); i++) {
                            // Before the first bind nothing drains the queue: don't wait for room that can't come.
                            Duration wait = everBound ? Duration.ofMillis(50) : Duration.ZERO;
                            if (push.send(ZmtpMessage.of(Integer.toString(sent)), wait)) {
                                sent++;
                            } else if (!everBound) {
                                refusedBeforeBind++;
                            }
                        }
                        if (!everBound) {
                            assertThat(sent).as("messages queued before the puller bound (SNDHWM %d)", SNDHWM)
                                    .isEqualTo(Math.min(SNDHWM, sent + refusedBeforeBind));
                        }
                        break;
                    case RECEIVE:
                        for (int i = 0; pull != null && i < step.count(); i++) {
                            String m = PropertySockets.receive(pull, Duration.ofMillis(20));
                            if (m == null) {
                                break;
                            }
                            received.add(new int[] {Integer.parseInt(m), epoch});
                        }
                        break;
                    case POLL:
                        if (pull != null) {
                            try (ZmtpPoller poller = new ZmtpPoller()) {
                                poller.register(pull, ZmtpPoller.Interest.IN);
                                if (poller.poll(Duration.ZERO) > 0) {
                                    assertThat(poller.isReadable(pull)).isTrue();
                                    ZmtpMessage m = pull.tryReceive();
                                    assertThat(m).as("a message after a poll said readable").isNotNull();
                                    received.add(new int[] {Integer.parseInt(SocketTestSupport.text(m)), epoch});
                                }
                            }
                        }
                        break;
                    case BIND:
                        if (pull == null) {
                            pull = sockets.socket(ZmtpSocketType.PULL);
                            pull.bind(endpoint);
                            everBound = true;
                        }
                        break;
                    case RESTART:
                        if (pull != null) {
                            pull.close();
                            pull = null;
                            epoch++;
                        }
                        break;
                    default:
                        throw new AssertionError(step);
                }
            }
            if (pull == null) {
                pull = sockets.socket(ZmtpSocketType.PULL);
                pull.bind(endpoint);
            }
            awaitRestartSeen(push, pull);
            int last = sent;
            push.send(ZmtpMessage.of(Integer.toString(last)));
            for (String m; (m = PropertySockets.receive(pull, WAIT)) != null; ) {
                received.add(new int[] {Integer.parseInt(m), epoch});
                if (Integer.parseInt(m) == last) {
                    break;
                }
            }
            checkOnlyInFlightLost(received, last, describe(push, "pusher") + "; " + describe(pull, "puller"));
        }
    }

    /**
     * Waits until the pusher is not connected to a puller that is gone: it is between connections (what it sends is
     * queued for the next) or connected to {@code pull}, whose peer's address is the pusher's end of the connection.
     */
    private static void awaitRestartSeen(ZmtpSocket push, ZmtpSocket pull) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ZmtpPeer pusher = push.peers().get(0);
            if (pusher.state() != ZmtpPeer.State.CONNECTED) {
                return;
            }
            SocketAddress local = pusher.localAddress();
            for (ZmtpPeer p : pull.peers()) {
                if (p.state() == ZmtpPeer.State.CONNECTED && local != null && local.equals(p.remoteAddress())) {
                    return;
                }
            }
            assertThat(System.nanoTime() - deadline).as("the pusher noticing the puller's restart").isNegative();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static String describe(ZmtpSocket socket, String name) {
        StringBuilder b = new StringBuilder(name).append(':');
        for (ZmtpPeer p : socket.peers()) {
            b.append(" ").append(p.state()).append(" local ").append(p.localAddress()).append(" remote ")
                    .append(p.remoteAddress()).append(" sent ").append(p.sentCount()).append(" received ")
                    .append(p.receivedCount()).append(" queued ").append(p.outgoingMessages());
        }
        return b.toString();
    }

    private static void checkOnlyInFlightLost(List<int[]> received, int last, String peers) {
        int[] previous = {-1, 0};
        for (int[] r : received) {
            assertThat(r[0]).as("message after %s (duplicated or reordered)", previous[0]).isGreaterThan(previous[0]);
            if (r[0] != previous[0] + 1) {
                assertThat(r[1]).as("messages %d..%d lost without a restart of the puller", previous[0] + 1, r[0] - 1)
                        .isGreaterThan(previous[1]);
            }
            previous = r;
        }
        assertThat(previous[0]).as("the last message sent, received after everything settled (%s)", peers)
                .isEqualTo(last);
    }
}
