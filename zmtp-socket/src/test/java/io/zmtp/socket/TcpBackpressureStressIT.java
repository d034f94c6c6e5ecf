package io.zmtp.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backpressure over tcp: a connection's drain wakes the socket's waiting threads only when one of them found no room
 * (or, for close's linger, output still queued) since the last wake-up, a flag the room check sets and the drain
 * clears (the class comment of {@code OutboundQueue}). What can go wrong is a sender that found no room and is never
 * told the drain made some: it shows as a send, an async send or a poll waiting {@link #STALL} for nothing, or a
 * close lingering to its deadline over a queue that has drained, each a failure naming it.
 *
 * <p>Small HWMs and kernel buffers and a reader that stalls at random keep the writers at SNDHWM. Each sender waits
 * its own way (blocking send, async send, poll for POLLOUT then a non-blocking send); messages carry (sender,
 * sequence) and the one reader checks that each sender's arrive once, in order. Sized for CI (seconds on 2 cores);
 * {@code -Dzmtp.stress.scale=N} multiplies the counts.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TcpBackpressureStressIT {
    private static final int SCALE = Integer.getInteger("zmtp.stress.scale", 1);
    /** Far longer than any wait the test means: hitting it is a failure, not a slow machine. */
    private static final Duration STALL = scaled(Duration.ofSeconds(20));
    /** Large enough that the kernel buffers hold about a hundred messages, so the pipe's queue reaches SNDHWM often. */
    private static final int SIZE = 4096;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(60_000, 0);

    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

    private static ZmtpMessage message(int sender, int seq) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(SIZE);
        b.writeInt(sender).writeInt(seq).writeZero(SIZE - 8);
        return ZmtpMessage.wrap(b);
    }

    private Thread start(String name, Runnable body) {
        return StressThreads.start(name, body, errors);
    }

    private static void maybeStall() {
        StressThreads.maybeStall(200);
    }

    /**
     * A PUSH and a PULL over tcp, each holding little, so that senders wait for room. The receive buffer stays above
     * two of loopback's 64 KiB segments: below that the window opens only on the sender's persist timer (200 ms).
     */
    private ZmtpSocket[] pair(int sndHwm) {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 4);
        pull.setOption(ZmtpSocketOption.RCVBUF, 256 * 1024);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, sndHwm);
        push.setOption(ZmtpSocketOption.SNDBUF, 64 * 1024);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        return new ZmtpSocket[] {push, pull};
    }

    /** Sends {@code count} messages of sender {@code id}, waiting for room in one of three ways. */
    private Runnable sender(ZmtpSocket s, int id, int count, int way) {
        return () -> {
            try (ZmtpPoller poller = new ZmtpPoller()) {
                poller.register(s, ZmtpPoller.Interest.OUT);
                for (int i = 0; i < count && errors.isEmpty(); i++) {
                    if (!send(s, id, i, way, poller)) {
                        errors.add("sender " + id + " (way " + way + ") waited " + STALL + " for room at seq " + i
                                + ": lost wake-up?");
                        return;
                    }
                }
            }
        };
    }

    private static boolean send(ZmtpSocket s, int id, int seq, int way, ZmtpPoller poller) {
        switch (way) {
            case 0:
                return s.send(message(id, seq), STALL);
            case 1:
                try {
                    s.sendAsync(message(id, seq)).toCompletableFuture().get(STALL.toMillis(), TimeUnit.MILLISECONDS);
                    return true;
                } catch (TimeoutException e) {
                    return false;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            default:
                // Only this thread sends with this way, but the other senders take the room a poll saw: poll again.
                for (;;) {
                    if (poller.poll(STALL) == 0) {
                        return false;
                    }
                    if (s.trySend(message(id, seq))) {
                        return true;
                    }
                }
        }
    }

    @Test
    void shouldWakeEverySenderWaitingForRoomAsTheConnectionDrains() throws Exception {
        ZmtpSocket[] p = pair(4);
        ZmtpSocket push = p[0];
        ZmtpSocket pull = p[1];
        int senders = 3;
        int perSender = 40_000 * SCALE;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            threads.add(start("sender-" + i, sender(push, i, perSender, i)));
        }
        int[] next = new int[senders];
        long expected = (long) senders * perSender;
        for (long n = 0; n < expected && errors.isEmpty(); n++) {
            ZmtpMessage m = pull.receive(STALL);
            if (m == null) {
                errors.add("receiver waited " + STALL + " with " + n + " of " + expected + " received: lost wake-up?");
                break;
            }
            try {
                ByteBuf f = m.frame(0);
                int sender = f.getInt(f.readerIndex());
                int seq = f.getInt(f.readerIndex() + 4);
                if (seq != next[sender]) {
                    errors.add("sender " + sender + ": seq " + seq + " after " + (next[sender] - 1));
                }
                next[sender] = seq + 1;
            } finally {
                m.release();
            }
            maybeStall();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(8));
            if (t.isAlive()) {
                errors.add(t.getName() + " still running");
            }
        }
        assertThat(errors).isEmpty();
        for (int s = 0; s < senders; s++) {
            assertThat(next[s]).as("messages from sender %d", s).isEqualTo(perSender);
        }
        assertThat(pull.receive(Duration.ofMillis(100))).as("nothing more").isNull();
    }

    @Test
    void shouldEndCloseLingerWhenTheLastQueuedMessageIsWritten() throws Exception {
        // The reader stalls now and then, so the close waits on drains many times; a drain whose wake-up it missed
        // leaves it waiting for the whole linger (STALL) although nothing is queued any more.
        for (int round = 0; round < 20 * SCALE && errors.isEmpty(); round++) {
            ZmtpSocket[] p = pair(1000);
            ZmtpSocket push = p[0];
            ZmtpSocket pull = p[1];
            push.setOption(ZmtpSocketOption.LINGER, (int) STALL.toMillis());
            // SNDHWM's worth: the sends queue without waiting, before the reader starts.
            int count = 1_000;
            for (int i = 0; i < count; i++) {
                push.send(message(0, i));
            }
            int r = round;
            Thread reader = start("reader-" + round, () -> {
                for (int i = 0; i < count; i++) {
                    ZmtpMessage m = pull.receive(STALL);
                    if (m == null) {
                        errors.add("round " + r + ": reader got " + i + " of " + count);
                        return;
                    }
                    m.release();
                    maybeStall();
                }
            });
            long start = System.nanoTime();
            push.close();
            long lingered = System.nanoTime() - start;
            reader.join(STALL.toMillis() * 2);
            if (lingered >= STALL.toNanos()) {
                errors.add("round " + r + ": close lingered its whole " + STALL + " though the reader took everything: "
                        + "lost wake-up?");
            }
            pull.close();
        }
        assertThat(errors).isEmpty();
    }
}
