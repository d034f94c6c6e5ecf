package io.zmtp.socket;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Queue sizes in messages and bytes, HWM flags and clearing, over tcp with a peer that stops reading. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class QueuesIT {
    static final int SIZE = 32 * 1024;
    static final int SNDHWM = 10;
    static final int RCVHWM = 8;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    static ZmtpMessage message(int i) {
        byte[] body = new byte[SIZE];
        body[0] = (byte) i;
        return ZmtpMessage.wrap(Unpooled.wrappedBuffer(body));
    }

    /**
     * Sends until the sender's queue for its one peer stays full: the receiver doesn't read, so its socket stops
     * reading at RCVHWM, tcp's buffers fill, and then the sender's queue.
     */
    static int fill(ZmtpSocket sender, ZmtpPeer peer) throws InterruptedException {
        int sent = 0;
        int still = 0;
        long lastSent = -1;
        for (int round = 0; round < 1000; round++) {
            while (sender.trySend(message(sent))) {
                sent++;
            }
            Thread.sleep(50);
            // Full, and nothing written for a while: tcp's buffers are full too (a busy machine may pause the
            // I/O thread for a moment, hence several rounds).
            long s = peer.sentCount();
            still = peer.outgoingMessages() == SNDHWM && s == lastSent ? still + 1 : 0;
            lastSent = s;
            if (still == 10) {
                return sent;
            }
        }
        throw new AssertionError("the queue never stayed full");
    }

    static void awaitConnected(ZmtpPeer peer) throws InterruptedException {
        SocketTestSupport.eventually(() -> peer.state() == ZmtpPeer.State.CONNECTED);
        assertThat(peer.state()).isEqualTo(ZmtpPeer.State.CONNECTED);
    }

    @Test
    void shouldCountQueuedMessagesAndBytesEachWayAndClearTheOutgoingQueue() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, RCVHWM);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, SNDHWM);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        ZmtpPeer out = push.peers().get(0);

        awaitConnected(out);
        fill(push, out);

        assertThat(out.outgoingMessages()).isEqualTo(SNDHWM);
        assertThat(out.outgoingBytes()).isEqualTo((long) SNDHWM * SIZE);
        assertThat(out.isOutgoingHwmReached()).isTrue();
        assertThat(push.outgoingMessages()).isEqualTo(SNDHWM);
        assertThat(push.outgoingBytes()).isEqualTo((long) SNDHWM * SIZE);
        assertThat(push.isOutgoingHwmReached()).isTrue();

        ZmtpPeer in = pull.peers().get(0);
        assertThat(in.isIncomingHwmReached()).isTrue();
        assertThat(in.incomingMessages()).isGreaterThanOrEqualTo(RCVHWM);
        assertThat(in.incomingBytes()).isEqualTo((long) in.incomingMessages() * SIZE);
        assertThat(pull.incomingMessages()).isEqualTo(in.incomingMessages());
        assertThat(pull.incomingBytes()).isEqualTo(in.incomingBytes());
        assertThat(pull.isIncomingHwmReached()).isTrue();

        // Clearing releases the queued buffers (the leak detector checks) and counts them as dropped.
        assertThat(out.clearOutgoing()).isEqualTo(SNDHWM);
        assertThat(out.outgoingMessages()).isZero();
        assertThat(out.outgoingBytes()).isZero();
        assertThat(out.droppedCount()).isEqualTo(SNDHWM);
        assertThat(push.droppedCount()).isEqualTo(SNDHWM);
        assertThat(push.trySend(message(0))).isTrue();
        assertThat(push.clearOutgoing()).isEqualTo(1);
        assertThat(push.outgoingBytes()).isZero();

        // Taking a message takes its bytes off the incoming count.
        int before = in.incomingMessages();
        long beforeBytes = in.incomingBytes();
        ZmtpMessage m = pull.receive(SocketTestSupport.WAIT);
        m.release();
        assertThat(in.incomingBytes()).isEqualTo(beforeBytes - SIZE + (long) (in.incomingMessages() - before + 1) * SIZE);
    }
}
