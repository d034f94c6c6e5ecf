package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A dead link, for real: the peer (our ROUTER echo, {@code zmtp soak-peer}) runs in a network namespace of the test's
 * own, which then drops every packet (no FIN, no reset: what a pulled cable or a dead host looks like). Our DEALER's
 * heartbeats (HEARTBEAT_IVL, HEARTBEAT_TIMEOUT) must declare the connection dead within the timeout; messages sent
 * while it is down wait in the DEALER, and once the namespace lets packets through again the DEALER reconnects and
 * they are delivered. Needs root and {@code ip netns}: fails, with how to get them, where they are missing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DeadLinkIT {
    private static final int HEARTBEAT_IVL = 250;
    private static final int HEARTBEAT_TIMEOUT = 1000;

    @Test
    void shouldDeclareADeadLinkDeadWithinTheHeartbeatTimeoutAndDeliverWhatWaitedWhenItComesBack() throws Exception {
        try (NetNamespace ns = NetNamespace.create()) {
            String endpoint = "tcp://" + ns.peerAddress + ":5555";
            Process peer = ns.start(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.zmtp.tools.Zmtp", "soak-peer",
                    "dealer-router", endpoint));
            BufferedReader peerOut = new BufferedReader(new InputStreamReader(peer.getInputStream(),
                    StandardCharsets.US_ASCII));
            assertThat(peerOut.readLine()).as("the peer in namespace %s", ns.name).isEqualTo("READY");

            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            try (ZmtpContext context = new ZmtpContext();
                 ZmtpSocket dealer = context.socket(ZmtpSocketType.DEALER)) {
                dealer.setOption(ZmtpSocketOption.LINGER, 0);
                dealer.setOption(ZmtpSocketOption.HEARTBEAT_IVL, HEARTBEAT_IVL);
                dealer.setOption(ZmtpSocketOption.HEARTBEAT_TIMEOUT, HEARTBEAT_TIMEOUT);
                dealer.monitor(events::add);
                dealer.connect(endpoint);
                assertThat(next(events, ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED, scaledMillis(30_000)))
                        .as("connected").isNotNull();
                exchange(dealer, 0, 10, scaled(Duration.ofSeconds(10)));

                ns.dropAll();
                long dropped = System.nanoTime();
                // The heartbeat's timing is the behaviour; the 3 s past it (and the 3 s for DISCONNECTED after it),
                // slack for a busy machine.
                ZmtpSocketEvent why = next(events, ZmtpSocketEvent.Type.PROTOCOL_ERROR, HEARTBEAT_IVL
                        + HEARTBEAT_TIMEOUT + scaledMillis(3000));
                assertThat(why).as("the heartbeat's verdict").isNotNull();
                assertThat(why.detail()).contains("heartbeat");
                ZmtpSocketEvent lost = next(events, ZmtpSocketEvent.Type.DISCONNECTED, scaledMillis(3000));
                long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - dropped);
                assertThat(lost).as("DISCONNECTED within HEARTBEAT_IVL + HEARTBEAT_TIMEOUT (+3 s for a busy machine)")
                        .isNotNull();

                for (int i = 10; i < 20; i++) {
                    assertThat(dealer.send(ZmtpMessage.of("m-" + i), scaled(Duration.ofSeconds(1))))
                            .as("queued while the link is dead").isTrue();
                }
                Thread.sleep(1000);
                ns.restore();
                long restored = System.nanoTime();
                for (int i = 10; i < 20; i++) {
                    ZmtpMessage m = dealer.receive(scaled(Duration.ofSeconds(60)));
                    assertThat(m).as("echo of m-%d after the link came back", i).isNotNull();
                    try {
                        assertThat(m.frameString(0)).isEqualTo("m-" + i);
                    } finally {
                        m.release();
                    }
                }
                long resumedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restored);
                exchange(dealer, 20, 30, scaled(Duration.ofSeconds(10)));
                System.out.printf("[dead-link] heartbeat %d ms, timeout %d ms: declared dead %d ms after the drop"
                        + " (%s); delivery resumed %d ms after the link came back%n", HEARTBEAT_IVL,
                        HEARTBEAT_TIMEOUT, detectedMillis, why.detail(), resumedMillis);
            }
        }
    }

    private static void exchange(ZmtpSocket dealer, int from, int to, Duration wait) {
        for (int i = from; i < to; i++) {
            dealer.send(ZmtpMessage.of("m-" + i));
        }
        for (int i = from; i < to; i++) {
            ZmtpMessage m = dealer.receive(wait);
            assertThat(m).as("echo of m-%d", i).isNotNull();
            try {
                assertThat(m.frameString(0)).isEqualTo("m-" + i);
            } finally {
                m.release();
            }
        }
    }

    private static ZmtpSocketEvent next(BlockingQueue<ZmtpSocketEvent> events, ZmtpSocketEvent.Type type,
                                        long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = millis; left > 0; left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            ZmtpSocketEvent e = events.poll(left, TimeUnit.MILLISECONDS);
            if (e != null && e.type() == type) {
                return e;
            }
        }
        return null;
    }
}
