package io.zmtp.socket;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** Waiting for a socket's monitor events in tests (a queue filled by {@code socket.monitor(events::add)}). */
final class SocketEvents {
    private SocketEvents() {
    }

    /** The next event of {@code type}, skipping others; fails if any one event takes more than 10 s to come. */
    static ZmtpSocketEvent await(BlockingQueue<ZmtpSocketEvent> events, ZmtpSocketEvent.Type type)
            throws InterruptedException {
        List<String> seen = new ArrayList<>();
        for (;;) {
            ZmtpSocketEvent e = events.poll(scaledSeconds(10), TimeUnit.SECONDS);
            assertThat(e).as("waiting for " + type + " after " + seen).isNotNull();
            seen.add(e.type() + ":" + e.endpoint() + ":" + e.detail());
            if (e.type() == type) {
                return e;
            }
        }
    }

    /** The next event of {@code type}, skipping others; fails if none comes within {@code wait} in all. */
    static ZmtpSocketEvent next(BlockingQueue<ZmtpSocketEvent> events, ZmtpSocketEvent.Type type, Duration wait)
            throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            ZmtpSocketEvent e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError("no " + type + " event within " + wait);
            }
            if (e.type() == type) {
                return e;
            }
        }
    }
}
