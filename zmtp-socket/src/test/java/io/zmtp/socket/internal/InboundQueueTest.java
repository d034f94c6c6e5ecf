package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class InboundQueueTest {

    private static ZmtpMessage message(int sequence, int extra) {
        return ZmtpMessage.wrap(Unpooled.buffer(4 + extra).writeInt(sequence).writeZero(extra));
    }

    @Test
    void shouldCountMessagesAndBytesPerBatchAndPerTake() {
        InboundQueue q = new InboundQueue();
        for (int i = 0; i < 3; i++) {
            assertThat(q.add(message(i, 6))).isFalse();
        }
        assertThat(q.depthWithFilling()).isEqualTo(3);
        assertThat(q.count()).as("not published yet").isZero();
        assertThat(q.hasNext()).isFalse();
        assertThat(q.publish()).isEqualTo(3);
        assertThat(q.publish()).as("nothing being filled").isZero();
        assertThat(q.count()).isEqualTo(3);
        assertThat(q.bytes()).isEqualTo(30);

        assertThat(q.next()).as("no batch taken yet").isNull();
        assertThat(q.takeBatch()).as("left queued after the batch taken").isZero();
        assertThat(q.depth()).isEqualTo(3);
        ZmtpMessage m = q.next();
        assertThat(m.frame(0).getInt(0)).isZero();
        m.release();
        assertThat(q.bytes()).isEqualTo(20);
        assertThat(q.depth()).isEqualTo(2);
        q.releaseAll();
        assertThat(q.depth()).isZero();
        assertThat(q.takeBatch()).isEqualTo(-1);
    }

    @Test
    void shouldPublishAFullBatchAndReuseItOnceTaken() {
        InboundQueue q = new InboundQueue();
        for (int i = 0; i < InboundQueue.BATCH - 1; i++) {
            assertThat(q.add(message(i, 0))).isFalse();
        }
        assertThat(q.add(message(InboundQueue.BATCH - 1, 0))).as("full").isTrue();
        q.publish();
        assertThat(q.takeBatch()).isZero();
        for (int i = 0; i < InboundQueue.BATCH; i++) {
            ZmtpMessage m = q.next();
            assertThat(m.frame(0).getInt(0)).isEqualTo(i);
            m.release();
        }
        assertThat(q.next()).isNull();
        assertThat(q.takeBatch()).as("the emptied batch goes back for reuse").isEqualTo(-1);
        q.add(message(1000, 0));
        q.publish();
        assertThat(q.takeBatch()).isZero();
        ZmtpMessage m = q.next();
        assertThat(m.frame(0).getInt(0)).isEqualTo(1000);
        m.release();
        assertThat(q.bytes()).isZero();
    }

    /**
     * An I/O thread filling and publishing batches of random sizes while a reader takes them (and gives the emptied
     * ones back for reuse): every message arrives once, in order, and the counts end at zero. A batch reused while
     * its reader still read it would show as a message out of order or missing.
     */
    @Test
    void shouldLoseDuplicateAndReorderNothingBetweenTheIoThreadAndTheReader() throws Exception {
        InboundQueue q = new InboundQueue();
        int total = 2_000_000;
        Thread io = new Thread(() -> {
            SplittableRandom r = new SplittableRandom(42);
            int next = 0;
            while (next < total) {
                int read = 1 + r.nextInt(100);
                for (int i = 0; i < read && next < total; i++) {
                    if (q.add(message(next++, 0))) {
                        q.publish();
                    }
                }
                q.publish();
                while (q.count() > 10_000) {
                    Thread.onSpinWait();
                }
            }
        }, "io");
        io.start();
        int expected = 0;
        try {
            while (expected < total) {
                ZmtpMessage m = q.next();
                if (m == null) {
                    if (q.takeBatch() < 0) {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                int got = m.frame(0).getInt(0);
                m.release();
                assertThat(got).as("message after %d", expected - 1).isEqualTo(expected);
                expected++;
            }
        } finally {
            io.join();
        }
        assertThat(q.next()).isNull();
        assertThat(q.takeBatch()).isEqualTo(-1);
        assertThat(q.count()).isZero();
        assertThat(q.bytes()).isZero();
    }
}
