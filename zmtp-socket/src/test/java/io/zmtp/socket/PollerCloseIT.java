package io.zmtp.socket;

import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link ZmtpPoller#close()} from another thread ends a poll waiting for ever (JeroMQ's Poller.close does). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PollerCloseIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void shouldEndAPollWaitingForEverWhenAnotherThreadClosesThePoller() throws Exception {
        ZmtpSocket pair = sockets.socket(ZmtpSocketType.PAIR);
        ZmtpPoller poller = new ZmtpPoller();
        poller.register(pair, ZmtpPoller.Interest.IN);
        CompletableFuture<Integer> polled = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                polled.complete(poller.poll(null));
            } catch (Throwable e) {
                polled.completeExceptionally(e);
            }
        }, "poll-forever");
        t.setDaemon(true);
        t.start();
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING
                && !polled.isDone()) {
            Thread.onSpinWait();
        }
        assertThat(polled).isNotDone();

        poller.close();

        assertThat(polled.get(scaledSeconds(10), TimeUnit.SECONDS)).isZero();
        // Registered again, it polls again.
        poller.register(pair, ZmtpPoller.Interest.OUT);
        assertThat(poller.poll(java.time.Duration.ZERO)).isZero();
    }
}
