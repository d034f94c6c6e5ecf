package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.QueuesIT.SNDHWM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each overflow policy over tcp, under a peer that stops reading: the PULL doesn't receive, so it stops reading at
 * RCVHWM, tcp's buffers fill, then the PUSH's queue for it (SNDHWM). Then the policy is set and {@value #EXTRA}
 * more numbered messages are sent; what the PULL finally receives shows what was dropped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverflowIT {
    static final int EXTRA = 5;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private ZmtpSocket pull;
    private ZmtpSocket push;
    private ZmtpPeer peer;
    private int filled;

    private void fillWith(ZmtpOverflowPolicy policy) throws InterruptedException {
        pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, QueuesIT.RCVHWM);
        push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, SNDHWM);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        peer = push.peers().get(0);
        QueuesIT.awaitConnected(peer);
        filled = QueuesIT.fill(push, peer);
        // fill() decides the chain is full when nothing moved for a while; an I/O thread held off the CPU longer than
        // that writes some more later. What room it made is taken now, under the default policy, and the DROP tests
        // below count drops rather than assume the next EXTRA sends all meet a full queue.
        while (push.trySend(QueuesIT.message(filled))) {
            filled++;
        }
        push.setOption(ZmtpSocketOption.OVERFLOW, policy);
    }

    /** The number of the last message {@link #sendUntilExtraDropped} sent that no drop followed (-1 if none). */
    private int lastKeptNewest = -1;

    /**
     * Sends numbered messages from {@code filled} on until {@link #EXTRA} of them were dropped (a send finding room
     * made by a late write drops nothing); returns how many it sent.
     */
    private int sendUntilExtraDropped() {
        long before = push.droppedCount();
        int sent = 0;
        while (push.droppedCount() - before < EXTRA) {
            assertThat(sent).as("sends without EXTRA drops: the queue never stayed full").isLessThan(100_000);
            long dropped = push.droppedCount();
            push.send(QueuesIT.message(filled + sent));
            if (push.droppedCount() == dropped) {
                lastKeptNewest = filled + sent;
            }
            sent++;
        }
        return sent;
    }

    /**
     * The numbers (first byte) of the {@code count} messages the PULL gets from now on, in order, each within WAIT;
     * then checks that no more come. (Reading until a quiet gap instead would end early when a busy machine pauses
     * the stream through tcp for longer than the gap.)
     */
    private List<Integer> receive(int count) {
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ZmtpMessage m = pull.receive(SocketTestSupport.WAIT);
            assertThat(m).as("message %d of %d", i, count).isNotNull();
            got.add((int) m.frame(0).getUnsignedByte(0));
            m.release();
        }
        assertThat(pull.receive(Duration.ofMillis(500))).as("a message past the %d", count).isNull();
        return got;
    }

    private static int number(int i) {
        return i & 0xff;
    }

    @Test
    void shouldWaitUnderBlock() throws Exception {
        fillWith(ZmtpOverflowPolicy.BLOCK);
        assertThat(push.send(QueuesIT.message(filled), Duration.ofMillis(100))).isFalse();
        assertThat(push.trySend(QueuesIT.message(filled))).isFalse();
        assertThat(push.droppedCount()).isZero();
        receive(filled);
    }

    @Test
    void shouldThrowAndFailTheFutureUnderFail() throws Exception {
        fillWith(ZmtpOverflowPolicy.FAIL);
        assertThatThrownBy(() -> push.send(QueuesIT.message(filled)))
                .isInstanceOf(ZmtpSocketException.QueueFull.class);
        assertThatThrownBy(() -> push.sendAsync(QueuesIT.message(filled)).toCompletableFuture().join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(ZmtpSocketException.QueueFull.class);
        assertThat(push.trySend(QueuesIT.message(filled))).isFalse();
        receive(filled);
    }

    @Test
    void shouldDropTheNewMessagesUnderDropNewest() throws Exception {
        fillWith(ZmtpOverflowPolicy.DROP_NEWEST);
        int sent = sendUntilExtraDropped();
        assertThat(push.droppedCount()).isEqualTo(EXTRA);
        assertThat(peer.droppedCount()).isEqualTo(EXTRA);
        // The sends that found the queue full were dropped: the last message received is the last one that wasn't.
        List<Integer> got = receive(filled + sent - EXTRA);
        assertThat(got.get(got.size() - 1)).isEqualTo(number(lastKeptNewest >= 0 ? lastKeptNewest : filled - 1));
    }

    @Test
    void shouldDropTheOldestQueuedMessagesUnderDropOldest() throws Exception {
        fillWith(ZmtpOverflowPolicy.DROP_OLDEST);
        int sent = sendUntilExtraDropped();
        assertThat(push.droppedCount()).isEqualTo(EXTRA);
        int total = filled + sent;
        List<Integer> got = receive(total - EXTRA);
        // The newest made it, in order; the EXTRA oldest of the queue (sent just before them) did not.
        List<Integer> tail = got.subList(got.size() - SNDHWM, got.size());
        List<Integer> expected = new ArrayList<>();
        for (int i = total - SNDHWM; i < total; i++) {
            expected.add(number(i));
        }
        assertThat(tail).isEqualTo(expected);
    }

    /**
     * Issue 23 item 4: over inproc a live link holds SNDHWM + RCVHWM messages, and DROP_OLDEST compared with SNDHWM
     * alone: at the link's limit a send evicted one old message, still found the queue over SNDHWM, and failed, so the
     * new message was dropped too (the SUB got every other message). Each send past the limit must drop exactly the
     * oldest and keep the new one.
     */
    @Test
    void shouldDropOnlyTheOldestOverInprocAtTheLinksLimit() {
        int hwm = 10;
        ZmtpSocket sub = sockets.socket(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.RCVHWM, hwm);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
        ZmtpSocket pub = sockets.socket(ZmtpSocketType.PUB);
        pub.setOption(ZmtpSocketOption.SNDHWM, hwm);
        pub.bind("inproc://drop-oldest");
        sub.connect("inproc://drop-oldest");
        SocketTestSupport.awaitFirst(pub, sub, "hello");
        SocketTestSupport.drain(sub);
        long droppedBefore = pub.droppedCount();

        pub.setOption(ZmtpSocketOption.OVERFLOW, ZmtpOverflowPolicy.DROP_OLDEST);
        int sent = 100;
        for (int i = 1; i <= sent; i++) {
            pub.send(QueuesIT.message(i));
        }
        List<Integer> got = new ArrayList<>();
        ZmtpMessage m;
        while ((m = sub.receive(Duration.ofMillis(500))) != null) {
            got.add((int) m.frame(0).getUnsignedByte(0));
            m.release();
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = sent - 2 * hwm + 1; i <= sent; i++) {
            expected.add(i);
        }
        assertThat(got).as("the newest SNDHWM + RCVHWM, in order").isEqualTo(expected);
        assertThat(pub.droppedCount() - droppedBefore).isEqualTo(sent - 2 * hwm);
    }

    @Test
    void shouldDropForAFullSubscriberByDefaultOnPub() throws Exception {
        ZmtpSocket sub = sockets.socket(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.RCVHWM, QueuesIT.RCVHWM);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
        ZmtpSocket pub = sockets.socket(ZmtpSocketType.PUB);
        pub.setOption(ZmtpSocketOption.SNDHWM, SNDHWM);
        sub.connect(pub.bind("tcp://127.0.0.1:*"));
        SocketTestSupport.awaitFirst(pub, sub, "hello");
        // PUB never waits: it drops for the subscriber that doesn't read, and counts each drop.
        int sent = 0;
        while (pub.droppedCount() == 0 && sent < 100_000) {
            pub.send(QueuesIT.message(sent++));
        }
        assertThat(pub.droppedCount()).isPositive();
        assertThat(pub.peers().get(0).droppedCount()).isEqualTo(pub.droppedCount());
    }
}
