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

import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.socket.SocketTestSupport.retry;
import static io.zmtp.socket.SocketTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;

/** PUSH and PULL over tcp: queueing before the peer exists, load balancing, fair queueing, HWM, reconnection. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PushPullIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldQueueOnAConnectingPushUntilThePullBinds() throws Exception {
        ZmtpSocket push = socket(PUSH);
        ZmtpSocket probe = socket(PULL);
        String ep = probe.bind("tcp://127.0.0.1:*");
        probe.close();
        // Nothing listens: the connecting pipe queues.
        push.connect(ep);
        for (int i = 0; i < 5; i++) {
            assertThat(push.trySend(ZmtpMessage.of("m" + i))).isTrue();
        }
        ZmtpSocket pull = socket(PULL);
        pull.bind(ep);
        for (int i = 0; i < 5; i++) {
            assertThat(recv(pull)).isEqualTo("m" + i);
        }
    }

    @Test
    void shouldRoundRobinFromAPushToThreePulls() {
        ZmtpSocket push = socket(PUSH);
        List<ZmtpSocket> pulls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ZmtpSocket pull = socket(PULL);
            push.connect(pull.bind("tcp://127.0.0.1:*"));
            pulls.add(pull);
        }
        for (int i = 0; i < 30; i++) {
            push.send(ZmtpMessage.of("m" + i));
        }
        for (ZmtpSocket pull : pulls) {
            for (int i = 0; i < 10; i++) {
                recv(pull);
            }
            assertThat(pull.receive(Duration.ofMillis(100))).isNull();
        }
    }

    @Test
    void shouldFairQueueFromThreePushesOnAPull() {
        ZmtpSocket pull = socket(PULL);
        String ep = pull.bind("tcp://127.0.0.1:*");
        List<ZmtpSocket> pushes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ZmtpSocket push = socket(PUSH);
            push.connect(ep);
            pushes.add(push);
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 20; j++) {
                pushes.get(i).send(ZmtpMessage.of("p" + i, "" + j));
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        Map<String, Integer> lastSeq = new HashMap<>();
        for (int n = 0; n < 60; n++) {
            String[] parts = recv(pull).split("\\|");
            counts.merge(parts[0], 1, Integer::sum);
            int seq = Integer.parseInt(parts[1]);
            assertThat(seq).isEqualTo(lastSeq.getOrDefault(parts[0], -1) + 1);
            lastSeq.put(parts[0], seq);
        }
        assertThat(counts).containsOnly(Map.entry("p0", 20), Map.entry("p1", 20), Map.entry("p2", 20));
    }

    @Test
    void shouldReconnectAfterTheBoundPeerRestarts() {
        ZmtpSocket pull = socket(PULL);
        String ep = pull.bind("tcp://127.0.0.1:*");
        ZmtpSocket push = socket(PUSH);
        push.connect(ep);
        push.send(ZmtpMessage.of("before"));
        assertThat(recv(pull)).isEqualTo("before");
        pull.close();
        ZmtpSocket pull2 = socket(PULL);
        pull2.bind(ep);
        // A message written just before the push side notices the old connection died is lost with it (as in
        // libzmq), so keep sending until the new connection delivers.
        String got = retry(() -> {
            push.send(ZmtpMessage.of("after"));
            ZmtpMessage m = pull2.receive(Duration.ofMillis(50));
            return m == null ? null : text(m);
        });
        assertThat(got).isEqualTo("after");
    }

    @Test
    void shouldBlockAPushAtItsHwmUntilTheSendTimesOut() {
        ZmtpSocket push = socket(PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 10);
        push.setOption(ZmtpSocketOption.LINGER, 0);
        ZmtpSocket pull = socket(PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 10);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        push.send(ZmtpMessage.of("sync"));
        assertThat(recv(pull)).isEqualTo("sync");
        byte[] big = new byte[64 * 1024];
        boolean timedOut = false;
        for (int i = 0; i < 5000 && !timedOut; i++) {
            timedOut = !push.send(ZmtpMessage.ofBytes(big), Duration.ofMillis(100));
        }
        assertThat(timedOut).isTrue();
        assertThat(push.trySend(ZmtpMessage.ofBytes(big))).isFalse();
        // Reading resumes the flow.
        for (int i = 0; i < 5; i++) {
            recv(pull);
        }
    }
}
