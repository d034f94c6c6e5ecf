package io.zmtp.socket.internal;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Model checking (Lincheck) of {@link SpscChunkedQueue}: one producer, and consumers that take turns through
 * {@code tryClaim}/{@code unclaim} (a drain, a discarder, an evicting sender, an inproc reader), must together behave
 * as one FIFO queue: every history linearizable against {@link Fifo}, so nothing lost, nothing taken twice, order
 * kept. The queue starts a few slots before a chunk's end, so that scenarios cross into the next chunk. After each
 * interleaving, with nobody consuming, the producer's count is exact.
 */
@Tag("lincheck")
public class SpscChunkedQueueLincheckTest {
    /** Where the queue starts: the producer reaches the chunk's last slot with its third element. */
    private static final long START = SpscChunkedQueue.CHUNK_SIZE - 3;

    private final SpscChunkedQueue<Integer> queue = new SpscChunkedQueue<>();
    /** The producer's thread: elements offered so far. */
    private int offered;

    public SpscChunkedQueueLincheckTest() {
        // An empty queue whose positions are near a chunk's end (the slots before them are empty): reaching it by
        // offering and polling would take a loop of 253 rounds, which the model checker would explore too.
        for (String field : new String[] {"produced", "consumedSeen", "position", "producedSeen", "consumed"}) {
            set(queue, field, START);
        }
    }

    private static void set(Object target, String name, long value) {
        try {
            Field f = target.getClass().getDeclaredField(name);
            f.setAccessible(true);
            f.setLong(target, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Offers the next element (1, 2, ...) and returns it. Producer only. */
    @Operation(nonParallelGroup = "producer")
    public int offer() {
        int e = ++offered;
        queue.offer(e);
        return e;
    }

    /**
     * Whether the producer sees room under a limit of 2. Its count is never below the truth; it may be above it only
     * while a consumer holds the claim (it publishes when it lets go), and a consumer's take may be placed anywhere
     * from its claim to its release, so the answer is still one some order of the operations gives.
     */
    @Operation(nonParallelGroup = "producer")
    public boolean producerBelowTwo() {
        return queue.producerBelow(2);
    }

    /** Claims the consumer side (waiting for the thread that holds it), takes one element, lets go. */
    @Operation
    public Integer poll() {
        claim();
        try {
            return queue.poll();
        } finally {
            queue.unclaim();
        }
    }

    /** As {@link #poll} with the batch read an inproc reader makes: up to two elements at once. */
    @Operation
    public List<Integer> pollTwo() {
        claim();
        try {
            Object[] into = new Object[2];
            int n = queue.poll(into, 2);
            List<Integer> taken = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                taken.add((Integer) into[i]);
            }
            return taken;
        } finally {
            queue.unclaim();
        }
    }

    /** A DROP_OLDEST sender's look at the head, under the claim. */
    @Operation
    public Integer peek() {
        claim();
        try {
            return queue.peek();
        } finally {
            queue.unclaim();
        }
    }

    private void claim() {
        // As OutboundQueue.offerReplacingOldest waits for the claim: its holders never block while they hold it.
        while (!queue.tryClaim()) {
            Thread.onSpinWait();
        }
    }

    @Validate
    public void countsAreExactAtRest() {
        long size = queue.size();
        if (queue.producerSize() != size || size < 0 || size > offered) {
            throw new IllegalStateException("size " + size + ", producer's count " + queue.producerSize()
                    + ", offered " + offered);
        }
    }

    @Test
    void shouldBeALinearizableFifoForOneProducerAndConsumersTakingTurns() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(8, 300)
                .threads(3)
                .actorsPerThread(2)
                .sequentialSpecification(Fifo.class), getClass());
    }

    /** What the queue should behave as: a FIFO with the same operations, one at a time. */
    public static final class Fifo {
        private final ArrayDeque<Integer> elements = new ArrayDeque<>();
        private int offered;

        public int offer() {
            elements.add(++offered);
            return offered;
        }

        public boolean producerBelowTwo() {
            return elements.size() < 2;
        }

        public Integer poll() {
            return elements.poll();
        }

        public List<Integer> pollTwo() {
            List<Integer> taken = new ArrayList<>(2);
            for (int i = 0; i < 2 && !elements.isEmpty(); i++) {
                taken.add(elements.poll());
            }
            return taken;
        }

        public Integer peek() {
            return elements.peek();
        }
    }
}
