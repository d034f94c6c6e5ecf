package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Tracked sends over tcp: the future completes once written, and fails when the message never will be. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeliveryIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private static void assertNotDelivered(CompletionStage<Void> stage, String reason) {
        assertThatThrownBy(() -> stage.toCompletableFuture().get(scaledSeconds(10), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ZmtpSocketException.NotDelivered.class)
                .hasMessageContaining(reason);
    }

    @Test
    void shouldCompleteOnceWrittenToTheConnection() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        List<CompletableFuture<Void>> written = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            written.add(push.sendTracked(ZmtpMessage.of("tracked " + i)).toCompletableFuture());
            push.send("plain " + i);
        }
        CompletableFuture.allOf(written.toArray(new CompletableFuture<?>[0])).get(scaledSeconds(10), TimeUnit.SECONDS);
        for (int i = 0; i < 10; i++) {
            assertThat(recv(pull)).isEqualTo("tracked " + i);
            assertThat(recv(pull)).isEqualTo("plain " + i);
        }
    }

    @Test
    void shouldFailWhenThePeerGoesAwayFirst() {
        ZmtpSocket placeholder = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = placeholder.bind("tcp://127.0.0.1:*");
        placeholder.close();
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect(endpoint);
        CompletionStage<Void> queued = push.sendTracked(ZmtpMessage.of("never"));
        assertThat(queued.toCompletableFuture().isDone()).as("nobody to write it to yet").isFalse();
        push.peers().get(0).disconnect();
        assertNotDelivered(queued, "discarded");
    }

    @Test
    void shouldFailWhenTheSocketClosesFirst() {
        ZmtpSocket placeholder = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = placeholder.bind("tcp://127.0.0.1:*");
        placeholder.close();
        ZmtpSocket dealer = sockets.socket(ZmtpSocketType.DEALER);
        dealer.connect(endpoint);
        CompletionStage<Void> queued = dealer.sendTracked(ZmtpMessage.of("never"));
        dealer.close();
        assertNotDelivered(queued, "discarded");
    }

    @Test
    void shouldFailWhenDroppedOrUnroutable() throws Exception {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        router.bind("tcp://127.0.0.1:*");
        assertNotDelivered(router.sendTracked(ZmtpMessage.of("nobody", "x")), "dropped");

        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, QueuesIT.RCVHWM);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, QueuesIT.SNDHWM);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        ZmtpPeer peer = push.peers().get(0);
        QueuesIT.awaitConnected(peer);
        QueuesIT.fill(push, peer);

        push.setOption(ZmtpSocketOption.OVERFLOW, ZmtpOverflowPolicy.DROP_NEWEST);
        assertNotDelivered(push.sendTracked(QueuesIT.message(0)), "dropped");

        push.setOption(ZmtpSocketOption.OVERFLOW, ZmtpOverflowPolicy.FAIL);
        assertThatThrownBy(() -> push.sendTracked(QueuesIT.message(0)).toCompletableFuture().join())
                .hasCauseInstanceOf(ZmtpSocketException.QueueFull.class);

        // DROP_OLDEST: tracked messages replace the queued ones, then the next evicts the first tracked one.
        push.setOption(ZmtpSocketOption.OVERFLOW, ZmtpOverflowPolicy.DROP_OLDEST);
        List<CompletionStage<Void>> tracked = new ArrayList<>();
        for (int i = 0; i < QueuesIT.SNDHWM + 1; i++) {
            tracked.add(push.sendTracked(QueuesIT.message(i)));
        }
        assertNotDelivered(tracked.get(0), "DROP_OLDEST");
        assertThat(tracked.get(QueuesIT.SNDHWM).toCompletableFuture().isDone()).isFalse();

        // Once the peer reads again, the rest are written.
        CompletableFuture<Void> rest = CompletableFuture.allOf(tracked.subList(1, tracked.size()).stream()
                .map(CompletionStage::toCompletableFuture).toArray(CompletableFuture<?>[]::new));
        while (!rest.isDone()) {
            ZmtpMessage m = pull.receive(java.time.Duration.ofMillis(100));
            if (m != null) {
                m.release();
            }
        }
        rest.get();
    }
}
