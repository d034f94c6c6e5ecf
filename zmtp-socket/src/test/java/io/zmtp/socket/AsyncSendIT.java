package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code sendAsync}: queued on the caller's thread when it can be at once, through the async executor when not, and
 * in order from each thread either way.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncSendIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void shouldQueueAnAsyncSendWithRoomBeforeItReturns() {
        ZmtpSocket pull = sockets.socket(PULL);
        ZmtpSocket push = sockets.socket(PUSH);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        CompletionStage<Void> sent = push.sendAsync(ZmtpMessage.of("at once"));
        assertThat(sent.toCompletableFuture()).as("no hand-over to the async executor").isCompleted();
        assertThat(recv(pull)).isEqualTo("at once");
    }

    @Test
    void shouldKeepEachThreadsOrderWhileSendsSwitchBetweenQueuedAndAtOnce() throws Exception {
        ZmtpSocket pull = sockets.socket(PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 5);
        ZmtpSocket push = sockets.socket(PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 5);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        int threads = 3;
        int count = 3000;
        List<CompletableFuture<Void>> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String name = "t" + t;
            senders.add(CompletableFuture.runAsync(() -> {
                List<CompletableFuture<Void>> sent = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    sent.add(push.sendAsync(ZmtpMessage.of(name, Integer.toString(i))).toCompletableFuture());
                    if (i % 500 == 0) {
                        // Let the queue drain now and then, so later sends find room again and go at once.
                        sent.get(i).join();
                    }
                }
                CompletableFuture.allOf(sent.toArray(new CompletableFuture[0])).join();
            }));
        }
        int[] next = new int[threads];
        for (int n = 0; n < threads * count; n++) {
            ZmtpMessage m = pull.receive(WAIT);
            assertThat(m).as("message " + n).isNotNull();
            int t = Integer.parseInt(m.frameString(0).substring(1));
            assertThat(Integer.parseInt(m.frameString(1))).as("order of " + m.frameString(0)).isEqualTo(next[t]++);
            m.release();
        }
        for (CompletableFuture<Void> s : senders) {
            s.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        assertThat(pull.receive(Duration.ofMillis(100))).as("no duplicates").isNull();
    }

    @Test
    void shouldFailAnAsyncSendOnAClosedSocket() {
        ZmtpSocket push = sockets.socket(PUSH);
        push.close();
        assertThatThrownBy(() -> push.sendAsync(ZmtpMessage.of("late")).toCompletableFuture().join())
                .hasCauseInstanceOf(ZmtpSocketException.Closed.class);
    }
}
