package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.socket.SocketTestSupport.text;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code receiveAsync}: a future the application gives up on never takes a message from the ones it still waits on. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncReceiveIT {
    private ZmtpContext ctx;
    private ZmtpSocket push;
    private ZmtpSocket pull;

    @BeforeEach
    void setUp() {
        ctx = ZmtpContext.builder().lingerCapMillis(1000).build();
        pull = socket(PULL);
        push = socket(PUSH);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    @Test
    void shouldLeaveTheMessageToTheNextReceiveWhenOneIsCancelled() throws Exception {
        CompletableFuture<ZmtpMessage> abandoned = pull.receiveAsync().toCompletableFuture();
        assertThat(abandoned.cancel(false)).isTrue();
        CompletableFuture<ZmtpMessage> waiting = pull.receiveAsync().toCompletableFuture();
        push.send(ZmtpMessage.of("only one"));
        assertThat(text(waiting.get(scaledSeconds(5), TimeUnit.SECONDS))).isEqualTo("only one");
        assertThat(abandoned.isCancelled()).isTrue();
    }

    @Test
    void shouldLeaveTheMessageToTheNextReceiveWhenOneTimesOut() throws Exception {
        CompletableFuture<ZmtpMessage> timedOut =
                pull.receiveAsync().toCompletableFuture().orTimeout(1, TimeUnit.MILLISECONDS);
        assertThat(timedOut).failsWithin(scaledSeconds(5), TimeUnit.SECONDS);
        CompletableFuture<ZmtpMessage> waiting = pull.receiveAsync().toCompletableFuture();
        push.send(ZmtpMessage.of("only one"));
        assertThat(text(waiting.get(scaledSeconds(5), TimeUnit.SECONDS))).isEqualTo("only one");
    }

    /**
     * Stress: receives with random, tiny timeouts race the messages' arrival. Every message must come out exactly
     * once, through some future that did not time out: none lost to an abandoned future, none twice.
     */
    @Test
    void shouldLoseAndDuplicateNothingWhenReceivesTimeOutWhileMessagesArrive() throws Exception {
        int count = 20_000;
        Thread sender = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                push.send(ZmtpMessage.of(Integer.toString(i)));
                if ((i & 255) == 0) {
                    Thread.yield();
                }
            }
        }, "stress-sender");
        sender.start();
        BitSet seen = new BitSet(count);
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger timeouts = new AtomicInteger();
        int received = 0;
        while (received < count) {
            List<CompletableFuture<ZmtpMessage>> batch = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                long micros = ThreadLocalRandom.current().nextLong(1, 200);
                batch.add(pull.receiveAsync().toCompletableFuture().orTimeout(micros, TimeUnit.MICROSECONDS));
            }
            for (CompletableFuture<ZmtpMessage> f : batch) {
                try {
                    ZmtpMessage m = f.get(scaledSeconds(10), TimeUnit.SECONDS);
                    int i = Integer.parseInt(text(m));
                    if (seen.get(i)) {
                        duplicates.incrementAndGet();
                    }
                    seen.set(i);
                    received++;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(TimeoutException.class);
                    timeouts.incrementAndGet();
                }
            }
        }
        sender.join();
        assertThat(duplicates.get()).isZero();
        assertThat(seen.cardinality()).isEqualTo(count);
        assertThat(timeouts.get()).as("the race was exercised").isPositive();
        assertThat(pull.tryReceive()).isNull();
    }
}
