package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One socket, two threads: one sends in a tight loop, the other serves a peer through the same socket. The busy
 * thread must not keep the other off the socket (SocketLock: a thread that finds others waiting goes behind them).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SharedSocketFairnessIT {
    private static final int ROUND_TRIPS = 20;
    /** Far more sends than the busy thread makes while the other thread takes its turns, unless it is locked out. */
    private static final long BUSY_SENDS_CAP = 20_000_000;

    @Test
    void shouldLetAThreadServeAPeerWhileAnotherSendsInATightLoopOnTheSameSocket() throws Exception {
        try (ZmtpContext context = new ZmtpContext()) {
            ZmtpSocket router = context.socket(ZmtpSocketType.ROUTER);
            router.setOption(ZmtpSocketOption.LINGER, 0);
            ZmtpSocket client = context.socket(ZmtpSocketType.DEALER);
            client.setOption(ZmtpSocketOption.LINGER, 0);
            client.setOption(ZmtpSocketOption.ROUTING_ID, "client".getBytes());
            client.connect(router.bind("tcp://127.0.0.1:*"));
            client.send("hello");
            ZmtpMessage hello = router.receive(WAIT);
            assertThat(hello).isNotNull();
            hello.release();

            AtomicBoolean served = new AtomicBoolean();
            AtomicLong busySends = new AtomicLong();
            byte[] nobody = "nobody".getBytes();
            Thread busy = new Thread(() -> {
                long n = 0;
                // Unroutable: ROUTER drops each, under the lock, at once.
                while (!served.get() && n < BUSY_SENDS_CAP) {
                    router.send(ZmtpMessage.ofBytes(nobody, nobody));
                    n++;
                }
                busySends.set(n);
            }, "busy sender");
            busy.start();

            for (int i = 0; i < ROUND_TRIPS; i++) {
                client.send("ping-" + i);
                ZmtpMessage request = router.receive(WAIT);
                assertThat(request).as("request %d reached the shared socket's other thread", i).isNotNull();
                assertThat(request.frameString(1)).isEqualTo("ping-" + i);
                router.send(request);
                ZmtpMessage reply = client.receive(WAIT);
                assertThat(reply).as("reply %d", i).isNotNull();
                assertThat(reply.frameString(0)).isEqualTo("ping-" + i);
                reply.release();
            }
            served.set(true);
            busy.join();
            assertThat(busySends.get()).as("sends the busy thread made before the other thread was done")
                    .isLessThan(BUSY_SENDS_CAP);
        }
    }
}
