package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code ZMQ.Poller} closed by one thread while another waits in {@code poll(-1)} ends that wait with -1, as
 * JeroMQ's (jeromq#580, its TestPoller.testExitPollerIssue580), whether or not the context closes after.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PollerCloseTest {

    /** Polls {@code poller} forever on a thread of its own, and returns once that thread waits in the poll. */
    private static CompletableFuture<Integer> pollForever(ZMQ.Poller poller) throws InterruptedException {
        CompletableFuture<Integer> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(poller.poll(-1));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "poll-forever");
        t.setDaemon(true);
        t.start();
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING
                && !result.isDone()) {
            Thread.onSpinWait();
        }
        return result;
    }

    @Test
    void closingThePollerEndsAPollWaitingInAnotherThreadWithMinusOne() throws Exception {
        try (ZContext ctx = new ZContext(1)) {
            ZMQ.Poller poller = ctx.createPoller(1);
            ZMQ.Socket socket = ctx.createSocket(SocketType.PAIR);
            assertThat(poller.register(socket, ZMQ.Poller.POLLIN)).isZero();
            CompletableFuture<Integer> polled = pollForever(poller);
            assertThat(polled).isNotDone();

            poller.close();

            assertThat(polled.get(TestTimeouts.scaledSeconds(10), TimeUnit.SECONDS)).isEqualTo(-1);
            assertThat(poller.poll(0)).isEqualTo(-1);
        }
    }

    @Test
    void thePollerAndThenItsContextClosedAroundAWaitingPollGiveMinusOne() throws Exception {
        CompletableFuture<Integer> polled;
        try (ZContext ctx = new ZContext(1);
             ZMQ.Poller poller = ctx.createPoller(1)) {
            ZMQ.Socket socket = ctx.createSocket(SocketType.PAIR);
            poller.register(socket, ZMQ.Poller.POLLIN);
            polled = pollForever(poller);
        }
        assertThat(polled.get(TestTimeouts.scaledSeconds(10), TimeUnit.SECONDS)).isEqualTo(-1);
    }
}
