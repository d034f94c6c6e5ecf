package io.zmtp.socket.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class SpscChunkedQueueTest {

    @Test
    void shouldKeepOrderAcrossChunksAndCountWhatIsQueued() {
        SpscChunkedQueue<Integer> q = new SpscChunkedQueue<>();
        int n = SpscChunkedQueue.CHUNK_SIZE * 3 + 7;
        for (int i = 0; i < n; i++) {
            assertThat(q.producerBelow(n)).isTrue();
            q.offer(i);
        }
        assertThat(q.producerBelow(n)).isFalse();
        assertThat(q.size()).isEqualTo(n);
        assertThat(q.tryClaim()).isTrue();
        assertThat(q.tryClaim()).as("one consumer at a time").isFalse();
        for (int i = 0; i < n; i++) {
            assertThat(q.consumerHasNext()).isTrue();
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
        // The producer sees room only once the consumer publishes.
        assertThat(q.producerBelow(n)).isFalse();
        q.unclaim();
        assertThat(q.producerBelow(1)).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.producerSize()).isZero();
    }

    /**
     * One producer against consumers that take turns (a drain and a discarder, as a pipe has): every element is
     * either taken or discarded exactly once, and those taken come in order.
     */
    @Test
    void shouldLoseAndDuplicateNothingBetweenOneProducerAndTurnTakingConsumers() throws Exception {
        SpscChunkedQueue<Long> q = new SpscChunkedQueue<>();
        long total = 2_000_000;
        AtomicLong seen = new AtomicLong();
        List<Throwable> errors = new ArrayList<>();
        long[] lastTaken = {-1};
        Runnable consume = () -> {
            while (seen.get() < total) {
                if (!q.tryClaim()) {
                    Thread.onSpinWait();
                    continue;
                }
                try {
                    Long e;
                    int run = 0;
                    while (run++ < 1000 && (e = q.poll()) != null) {
                        synchronized (lastTaken) {
                            if (e <= lastTaken[0]) {
                                errors.add(new AssertionError("out of order: " + e + " after " + lastTaken[0]));
                            }
                            lastTaken[0] = e;
                        }
                        seen.incrementAndGet();
                        if (run % 32 == 0) {
                            q.publishConsumed();
                        }
                    }
                } finally {
                    q.unclaim();
                }
            }
        };
        Thread drain = new Thread(consume, "drain");
        Thread discarder = new Thread(consume, "discarder");
        drain.start();
        discarder.start();
        for (long i = 0; i < total; i++) {
            while (!q.producerBelow(10_000)) {
                Thread.onSpinWait();
            }
            q.offer(i);
        }
        drain.join();
        discarder.join();
        assertThat(errors).isEmpty();
        assertThat(seen.get()).isEqualTo(total);
        assertThat(lastTaken[0]).isEqualTo(total - 1);
        assertThat(q.size()).isZero();
    }

    /**
     * DROP_OLDEST: the producer, at its limit, claims the consumer side to evict the head while a drain consumes.
     * Every element is taken or evicted exactly once, those taken come in order, and the limit holds.
     */
    @Test
    void shouldLoseAndDuplicateNothingWhenTheProducerEvictsTheOldestWhileADrainConsumes() throws Exception {
        SpscChunkedQueue<Long> q = new SpscChunkedQueue<>();
        long total = 1_000_000;
        int limit = 100;
        AtomicLong taken = new AtomicLong();
        long[] lastTaken = {-1};
        List<Throwable> errors = new ArrayList<>();
        Thread drain = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (!q.tryClaim()) {
                    Thread.onSpinWait();
                    continue;
                }
                try {
                    Long e;
                    int run = 0;
                    while (run++ < 64 && (e = q.poll()) != null) {
                        if (e <= lastTaken[0]) {
                            errors.add(new AssertionError("out of order: " + e + " after " + lastTaken[0]));
                        }
                        lastTaken[0] = e;
                        taken.incrementAndGet();
                    }
                } finally {
                    q.unclaim();
                }
            }
        }, "drain");
        drain.start();
        long evicted = 0;
        for (long i = 0; i < total; i++) {
            if (!q.producerBelow(limit) && q.tryClaim()) {
                try {
                    if (q.peek() != null) {
                        q.poll();
                        evicted++;
                    }
                } finally {
                    q.unclaim();
                }
            }
            if (!q.producerBelow(limit)) {
                evicted++; // dropped instead (the drain held the queue)
                continue;
            }
            q.offer(i);
            assertThat(q.producerSize()).isLessThanOrEqualTo(limit);
        }
        while (q.size() > 0) {
            Thread.onSpinWait();
        }
        drain.interrupt();
        drain.join();
        assertThat(errors).isEmpty();
        assertThat(taken.get() + evicted).isEqualTo(total);
    }
}
