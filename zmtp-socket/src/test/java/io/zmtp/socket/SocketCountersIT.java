package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket's sent and received totals never go down (they feed Micrometer counters): not while a close lingers
 * over pipes that still count, not after.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketCountersIT {
    private static final int SENT = 40;

    @Test
    void shouldNotCountBackwardsWhileACloseLingers() throws Exception {
        try (ZmtpContext context = ZmtpContext.builder().lingerCapMillis(60_000).build();
             ZmtpContext later = new ZmtpContext()) {
            ZmtpSocket up = context.socket(ZmtpSocketType.PULL);
            ZmtpSocket push = context.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.LINGER, 60_000);
            push.connect(up.bind("tcp://127.0.0.1:*"));
            receiveOne(up, push, "hello");
            // A second peer nobody listens for yet: its share of the messages waits in its connecting pipe, and the
            // close lingers over them until it turns up.
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            push.connect("tcp://127.0.0.1:" + port);
            for (int i = 0; i < SENT; i++) {
                push.send("m" + i);
            }
            long before = push.sentCount();
            assertThat(before).isGreaterThanOrEqualTo(1);

            Thread closer = new Thread(push::close, "closer");
            closer.start();
            while (!push.isClosed()) {
                Thread.onSpinWait();
            }
            assertThat(closer.isAlive()).as("lingering over the messages queued for the absent peer").isTrue();
            assertThat(push.sentCount()).as("during the linger").isGreaterThanOrEqualTo(before);

            ZmtpSocket late = later.socket(ZmtpSocketType.PULL);
            late.bind("tcp://127.0.0.1:" + port);
            long last = push.sentCount();
            int received = 0;
            long deadline = System.nanoTime() + SocketTestSupport.WAIT.toNanos() * 2;
            while (received < SENT) {
                ZmtpMessage m = up.tryReceive();
                if (m == null) {
                    m = late.tryReceive();
                }
                if (m == null) {
                    assertThat(System.nanoTime() - deadline).as("%d of %d received", received, SENT).isNegative();
                    Thread.sleep(1);
                    continue;
                }
                m.release();
                received++;
                long now = push.sentCount();
                assertThat(now).as("after %d received", received).isGreaterThanOrEqualTo(last);
                last = now;
            }
            closer.join();
            assertThat(push.sentCount()).as("after the close").isEqualTo(SENT + 1);
        }
    }

    @Test
    void shouldCountEveryMessageItClearsWhileADrainIsWriting() throws Exception {
        int total = 200_000;
        try (ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build()) {
            ZmtpSocket pull = context.socket(ZmtpSocketType.PULL);
            ZmtpSocket push = context.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.SNDHWM, 0);
            push.connect(pull.bind("tcp://127.0.0.1:*"));
            push.send("first");
            ZmtpMessage first = pull.receive(WAIT);
            assertThat(first).isNotNull();
            first.release();
            ZmtpPeer peer = push.peers().get(0);
            long cleared = 0;
            for (int i = 0; i < total; i++) {
                push.send("m");
                if (i % 1000 == 999) {
                    // The drain is writing to the connection meanwhile: it holds the queue now and then.
                    cleared += peer.clearOutgoing();
                }
            }
            long received = 0;
            while (received + cleared < total) {
                ZmtpMessage m = pull.receive(WAIT);
                assertThat(m).as("received %d, cleared %d of %d", received, cleared, total).isNotNull();
                m.release();
                received++;
            }
            assertThat(received + cleared).isEqualTo(total);
            assertThat(push.droppedCount()).isEqualTo(cleared);
        }
    }

    private static void receiveOne(ZmtpSocket pull, ZmtpSocket push, String text) {
        push.send(text);
        ZmtpMessage m = pull.receive(WAIT);
        assertThat(m).isNotNull();
        assertThat(m.frameString(0)).isEqualTo(text);
        m.release();
    }
}
