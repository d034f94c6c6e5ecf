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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inproc data plane under load: two sockets whose pipes share queues with no thread between them, so what can go
 * wrong is a wake-up (a reader that went idle, a writer that found no room), the hand-over of what a connection
 * carried when it ended, or the claim of a queue's consumer side. Small HWMs and readers that stall at random keep
 * writers blocking; several threads use each socket; messages carry (sender, sequence).
 *
 * <ul>
 *   <li>A lost wake-up shows as a send or a receive waiting {@link #STALL} for nothing (a failure naming it).</li>
 *   <li>A lost message as a count of 0 at the end, a duplicate as a count of 2 (every message is counted).</li>
 *   <li>Where one thread receives, per-sender order is checked too.</li>
 * </ul>
 *
 * Message counts are sized for CI (about 3 M messages in all, seconds on 2 cores);
 * {@code -Dzmtp.stress.scale=N} multiplies them for a long run (docs/RELIABILITY.md). Buffers are pooled, so the
 * paranoid leak detector checks that nothing is left behind whichever side closes first.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class InprocStressIT {
    private static final int SCALE = Integer.getInteger("zmtp.stress.scale", 1);
    /** Far longer than any wait the test means: hitting it is a failure, not a slow machine. */
    private static final Duration STALL = scaled(Duration.ofSeconds(20));

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

    private static ZmtpMessage message(int sender, int seq) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(8);
        b.writeInt(sender).writeInt(seq);
        return ZmtpMessage.wrap(b);
    }

    /** Every (sender, seq) counted once; a second count is an error at once. */
    private final class Ledger {
        final AtomicIntegerArray[] counts;
        final AtomicLong total = new AtomicLong();

        Ledger(int senders, int perSender) {
            counts = new AtomicIntegerArray[senders];
            for (int i = 0; i < senders; i++) {
                counts[i] = new AtomicIntegerArray(perSender);
            }
        }

        /** Counts and releases {@code m}; returns its sender, sequence packed into a long. */
        long record(ZmtpMessage m) {
            try {
                ByteBuf f = m.frame(0);
                int sender = f.getInt(f.readerIndex());
                int seq = f.getInt(f.readerIndex() + 4);
                if (counts[sender].getAndIncrement(seq) != 0) {
                    errors.add("duplicate: sender " + sender + " seq " + seq);
                }
                total.incrementAndGet();
                return ((long) sender << 32) | seq;
            } finally {
                m.release();
            }
        }

        void assertAllOnce() {
            for (int s = 0; s < counts.length; s++) {
                for (int i = 0; i < counts[s].length(); i++) {
                    if (counts[s].get(i) != 1) {
                        errors.add("sender " + s + " seq " + i + " received " + counts[s].get(i) + " times");
                        if (errors.size() > 20) {
                            return;
                        }
                    }
                }
            }
        }
    }

    private Thread start(String name, Runnable body) {
        return StressThreads.start(name, body, errors);
    }

    private static void maybeStall() {
        StressThreads.maybeStall(2000);
    }

    private Runnable sender(ZmtpSocket s, int id, int count) {
        return () -> {
            for (int i = 0; i < count && errors.isEmpty(); i++) {
                ZmtpMessage m = message(id, i);
                if (!s.send(m, STALL)) {
                    errors.add("sender " + id + " waited " + STALL + " for room at seq " + i + ": lost wake-up?");
                    return;
                }
            }
        };
    }

    private void joinAll(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(8));
            if (t.isAlive()) {
                errors.add(t.getName() + " still running");
            }
        }
    }

    /** One of three ways to wait for a message, so each one's wake-up is exercised: null if none came. */
    private static ZmtpMessage receive(ZmtpSocket s, int way, ZmtpPoller poller) throws Exception {
        switch (way) {
            case 0:
                return s.receive(STALL);
            case 1:
                if (poller.poll(STALL) == 0) {
                    return null;
                }
                ZmtpMessage m = s.tryReceive();
                // Another thread may have taken it since the poll: that is not a stall.
                return m != null ? m : s.receive(STALL);
            default:
                CompletableFuture<ZmtpMessage> f = s.receiveAsync().toCompletableFuture();
                try {
                    return f.get(STALL.toMillis(), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // Abandoned: it takes no message after this.
                    f.cancel(false);
                    return null;
                }
        }
    }

    @Test
    void shouldDeliverEveryMessageOnceWithWritersBlockingAndReadersStalling() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 4);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 4);
        pull.bind("inproc://stress-blocking");
        push.connect("inproc://stress-blocking");
        int senders = 3;
        int perSender = 300_000 * SCALE;
        Ledger ledger = new Ledger(senders, perSender);
        long expected = (long) senders * perSender;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            threads.add(start("sender-" + i, sender(push, i, perSender)));
        }
        // Three receivers, each waiting its own way; they stop once everything has arrived.
        for (int way = 0; way < 3; way++) {
            int w = way;
            threads.add(start("receiver-" + way, () -> {
                try (ZmtpPoller poller = new ZmtpPoller()) {
                    poller.register(pull, ZmtpPoller.Interest.IN);
                    while (ledger.total.get() < expected && errors.isEmpty()) {
                        ZmtpMessage m;
                        try {
                            m = receive(pull, w, poller);
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                        if (m == null) {
                            errors.add("receiver " + w + " waited " + STALL + " with " + ledger.total.get()
                                    + " of " + expected + " received: lost wake-up?");
                            return;
                        }
                        if (isEnd(m)) {
                            m.release();
                            break;
                        }
                        ledger.record(m);
                        maybeStall();
                    }
                }
                // The others may be waiting for a message that will never come: wake them with a last one each.
                push.send(ZmtpMessage.of("end"));
            }));
        }
        joinAll(threads.subList(0, senders));
        joinAll(threads.subList(senders, threads.size()));
        drainEnds(pull);
        ledger.assertAllOnce();
        assertThat(errors).isEmpty();
    }

    private static boolean isEnd(ZmtpMessage m) {
        return m.frame(0).readableBytes() == 3;
    }

    /** Releases the receivers' "end" messages still queued (they are not in the ledger). */
    private static void drainEnds(ZmtpSocket s) {
        ZmtpMessage m;
        while ((m = s.receive(Duration.ofMillis(100))) != null) {
            m.release();
        }
    }

    @Test
    void shouldKeepEachSendersOrderThroughOneReader() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 2);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 3);
        push.bind("inproc://stress-order");
        pull.connect("inproc://stress-order");
        int senders = 2;
        int perSender = 500_000 * SCALE;
        Ledger ledger = new Ledger(senders, perSender);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            threads.add(start("sender-" + i, sender(push, i, perSender)));
        }
        threads.add(start("receiver", () -> {
            int[] next = new int[senders];
            try (ZmtpPoller poller = new ZmtpPoller()) {
                poller.register(pull, ZmtpPoller.Interest.IN);
                for (long n = 0; n < (long) senders * perSender && errors.isEmpty(); n++) {
                    ZmtpMessage m = receive(pull, ThreadLocalRandom.current().nextInt(3), poller);
                    if (m == null) {
                        errors.add("receiver waited " + STALL + " after " + n + " messages: lost wake-up?");
                        return;
                    }
                    long id = ledger.record(m);
                    int sender = (int) (id >>> 32);
                    int seq = (int) id;
                    if (seq != next[sender]) {
                        errors.add("sender " + sender + ": seq " + seq + " after " + (next[sender] - 1));
                        return;
                    }
                    next[sender]++;
                    maybeStall();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }));
        joinAll(threads);
        ledger.assertAllOnce();
        assertThat(errors).isEmpty();
    }

    @Test
    void shouldCarryBothDirectionsAtOnce() throws Exception {
        ZmtpSocket a = sockets.socket(ZmtpSocketType.DEALER);
        ZmtpSocket b = sockets.socket(ZmtpSocketType.DEALER);
        for (ZmtpSocket s : List.of(a, b)) {
            s.setOption(ZmtpSocketOption.SNDHWM, 5);
            s.setOption(ZmtpSocketOption.RCVHWM, 3);
        }
        a.bind("inproc://stress-both");
        b.connect("inproc://stress-both");
        int perSender = 400_000 * SCALE;
        // Sender 0 writes a -> b, sender 1 writes b -> a; each side's reader checks the order.
        Ledger ledger = new Ledger(2, perSender);
        List<Thread> threads = new ArrayList<>();
        threads.add(start("a-sender", sender(a, 0, perSender)));
        threads.add(start("b-sender", sender(b, 1, perSender)));
        ZmtpSocket[] readers = {b, a};
        for (int dir = 0; dir < 2; dir++) {
            int d = dir;
            threads.add(start("reader-" + dir, () -> {
                for (int i = 0; i < perSender && errors.isEmpty(); i++) {
                    ZmtpMessage m = readers[d].receive(STALL);
                    if (m == null) {
                        errors.add("reader " + d + " waited " + STALL + " at " + i + ": lost wake-up?");
                        return;
                    }
                    long id = ledger.record(m);
                    if ((int) (id >>> 32) != d || (int) id != i) {
                        errors.add("reader " + d + ": got " + (id >>> 32) + "/" + (int) id + ", expected " + d + "/" + i);
                        return;
                    }
                    maybeStall();
                }
            }));
        }
        joinAll(threads);
        ledger.assertAllOnce();
        assertThat(errors).isEmpty();
    }

    /**
     * The pull side unbinds and binds again, the push side disconnects and connects again, while two threads send.
     * What a connection carried when it ended stays readable (the pull drains it), what the push queued meanwhile
     * goes to the next connection, so every message arrives exactly once. The push disconnects only once its
     * connection is joined: a disconnect before that drops what the new pipe had queued (at most SNDHWM), over
     * inproc as over tcp, since no peer has it yet. Joined is HANDSHAKE_SUCCEEDED, which the join tells both sockets
     * once the link is up. Not CONNECTED: only a connecting socket reports it (the bound one reports ACCEPTED), and
     * at its channel's activation, before the join; counted on the pull it never came, so the chaos ran one cycle
     * and then waited for the senders to finish (or failed after {@link #STALL} when they took longer).
     *
     * <p>As libzmq: its inproc disconnect ends the pipe with a delimiter the peer reads up to, so what was written is
     * the peer's; its inproc unbind only frees the name (connections stay up), where ours also closes what the name
     * accepted and hands over what those connections carried. Cycling for real, this found two losses (up to
     * SNDHWM + RCVHWM each, docs/RELIABILITY.md 8b): a disconnect's discard between the I/O thread's end of the link
     * and its hand-over, and a draining reader dropped between its two looks at a hand-over.
     */
    @Test
    void shouldDeliverEveryMessageOnceAcrossDisconnections() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.setOption(ZmtpSocketOption.RCVHWM, 8);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.SNDHWM, 8);
        push.setOption(ZmtpSocketOption.RECONNECT_IVL, 1);
        AtomicInteger pushJoined = new AtomicInteger();
        AtomicInteger pullJoined = new AtomicInteger();
        push.monitor(e -> {
            if (e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED) {
                pushJoined.incrementAndGet();
            }
        });
        pull.monitor(e -> {
            if (e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED) {
                pullJoined.incrementAndGet();
            }
        });
        String endpoint = "inproc://stress-reconnect";
        pull.bind(endpoint);
        push.connect(endpoint);
        int senders = 2;
        int perSender = 200_000 * SCALE;
        Ledger ledger = new Ledger(senders, perSender);
        long expected = (long) senders * perSender;
        AtomicBoolean sending = new AtomicBoolean(true);
        List<Thread> senderThreads = new ArrayList<>();
        for (int i = 0; i < senders; i++) {
            senderThreads.add(start("sender-" + i, sender(push, i, perSender)));
        }
        Thread receiver = start("receiver", () -> {
            while (ledger.total.get() < expected && errors.isEmpty()) {
                ZmtpMessage m = pull.receive(STALL);
                if (m == null) {
                    errors.add("receiver waited " + STALL + " with " + ledger.total.get() + " of " + expected
                            + " received: lost message or wake-up?");
                    return;
                }
                ledger.record(m);
                maybeStall();
            }
        });
        AtomicInteger cycles = new AtomicInteger();
        Thread chaos = start("chaos", () -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            // The first connection's events are delivered after connect returns: counted from there.
            int pushBefore = 0;
            int pullBefore = 0;
            while (sending.get() && errors.isEmpty()) {
                // Until the connection is joined on both sides (each cycle makes exactly one).
                long deadline = System.nanoTime() + STALL.toNanos();
                while ((pushJoined.get() <= pushBefore || pullJoined.get() <= pullBefore) && sending.get()) {
                    if (System.nanoTime() - deadline > 0) {
                        errors.add("no reconnection within " + STALL + " after " + cycles.get() + " cycles");
                        return;
                    }
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                }
                LockSupport.parkNanos(r.nextLong(TimeUnit.MILLISECONDS.toNanos(5)));
                if (!sending.get()) {
                    return;
                }
                pushBefore = pushJoined.get();
                pullBefore = pullJoined.get();
                if (r.nextBoolean()) {
                    pull.unbind(endpoint);
                    pull.bind(endpoint);
                } else {
                    push.disconnect(endpoint);
                    push.connect(endpoint);
                }
                cycles.incrementAndGet();
            }
        });
        joinAll(senderThreads);
        sending.set(false);
        joinAll(List.of(chaos, receiver));
        if (ledger.total.get() < expected) {
            // Told apart: a message still queued (a lost wake-up) or gone (a loss); and whether a drop was counted.
            long before = ledger.total.get();
            ZmtpMessage m;
            while ((m = pull.tryReceive()) != null) {
                ledger.record(m);
            }
            errors.add((ledger.total.get() - before) + " more readable after the wait; drops counted: push "
                    + push.droppedCount() + ", pull " + pull.droppedCount() + "; " + cycles.get() + " cycles");
        }
        ledger.assertAllOnce();
        assertThat(errors).isEmpty();
        assertThat(cycles.get()).as("disconnections while sending").isGreaterThan(0);
    }

    /** Pooled messages in every queue when one side closes first, then the other: the leak detector has the rest. */
    @Test
    void shouldLeakNothingWhicheverSideClosesFirst() throws Exception {
        for (int round = 0; round < 20 * SCALE; round++) {
            boolean pushFirst = round % 2 == 0;
            ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
            ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
            pull.setOption(ZmtpSocketOption.RCVHWM, 50);
            push.setOption(ZmtpSocketOption.SNDHWM, 50);
            String endpoint = "inproc://stress-close-" + round;
            pull.bind(endpoint);
            push.connect(endpoint);
            Thread sender = start("sender", () -> {
                for (int i = 0; ; i++) {
                    try {
                        if (!push.send(message(0, i), Duration.ofMillis(50))) {
                            return;
                        }
                    } catch (ZmtpSocketException.Closed e) {
                        return;
                    }
                }
            });
            // Some taken, most left in the queue.
            for (int i = 0; i < 10; i++) {
                ZmtpMessage m = pull.receive(STALL);
                assertThat(m).isNotNull();
                m.release();
            }
            if (pushFirst) {
                push.close();
                sender.join();
                pull.close();
            } else {
                pull.close();
                sender.join();
                push.close();
            }
        }
        assertThat(errors).isEmpty();
    }
}
