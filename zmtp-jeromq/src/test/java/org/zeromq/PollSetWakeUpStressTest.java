package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.channels.Pipe;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket-wakes-selector path of {@link PollSet} under many rounds: a poll that waits on an idle channel and a
 * socket, and a sender that sends the socket one message per round at a random moment around the poll's look and
 * select. Every round's poll must end with the socket readable (a lost wake-up leaves it waiting until its deadline,
 * and it returns 0), and the message must come exactly once (nothing readable after it is read).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PollSetWakeUpStressTest {
    private static final long DEADLINE_MS = TestTimeouts.scaledMillis(20_000);

    private final ZContext ctx = new ZContext();

    @AfterEach
    void close() {
        ctx.close();
    }

    @Test
    void shouldNeverLoseAWakeUpFromAnInprocSender() throws Exception {
        ZMQ.Socket receiver = ctx.createSocket(SocketType.PAIR);
        receiver.bind("inproc://wake-stress");
        ZMQ.Socket sender = ctx.createSocket(SocketType.PAIR);
        sender.connect("inproc://wake-stress");
        runRounds(sender, receiver, 3000);
    }

    @Test
    void shouldNeverLoseAWakeUpFromAnIoThread() throws Exception {
        ZMQ.Socket receiver = ctx.createSocket(SocketType.PULL);
        int port = receiver.bindToRandomPort("tcp://127.0.0.1");
        ZMQ.Socket sender = ctx.createSocket(SocketType.PUSH);
        sender.connect("tcp://127.0.0.1:" + port);
        runRounds(sender, receiver, 1000);
    }

    private void runRounds(ZMQ.Socket sender, ZMQ.Socket receiver, int rounds) throws Exception {
        Pipe idle = Pipe.open();
        idle.source().configureBlocking(false);
        Semaphore turn = new Semaphore(0);
        CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < rounds; i++) {
                turn.acquireUninterruptibly();
                // Land the send anywhere from before the poll's first look to well inside its select.
                int spins = ThreadLocalRandom.current().nextInt(20_000);
                for (int j = 0; j < spins; j++) {
                    Thread.onSpinWait();
                }
                sender.send("m" + i);
            }
        });
        ZMQ.Poller poller = ctx.createPoller(2);
        try {
            poller.register(idle.source(), ZMQ.Poller.POLLIN);
            poller.register(receiver, ZMQ.Poller.POLLIN);
            for (int i = 0; i < rounds; i++) {
                turn.release();
                assertThat(poller.poll(DEADLINE_MS)).as("round %d: the poll missed the message", i).isEqualTo(1);
                assertThat(poller.pollin(1)).isTrue();
                assertThat(poller.pollin(0)).isFalse();
                assertThat(receiver.recvStr(ZMQ.DONTWAIT)).isEqualTo("m" + i);
                assertThat(poller.poll(0)).as("round %d: readable again after its message", i).isZero();
            }
            assertThat(idle.source().isRegistered()).as("the poll went through the selector").isTrue();
            sending.get();
        } finally {
            poller.close();
            closeQuietly(idle);
        }
    }

    private static void closeQuietly(Pipe pipe) throws IOException {
        pipe.source().close();
        pipe.sink().close();
    }
}
