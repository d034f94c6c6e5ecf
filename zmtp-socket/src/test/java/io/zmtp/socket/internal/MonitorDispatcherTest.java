package io.zmtp.socket.internal;

import io.zmtp.socket.ZmtpSocketEvent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorDispatcherTest {

    /**
     * Reporters on several threads at once: every event is delivered exactly once, never two at a time, and each
     * reporter's events in the order it reported them (a lost hand-over would leave events undelivered).
     */
    @Test
    void shouldDeliverEveryEventOnceOneAtATimeAndInEachReportersOrder() throws Exception {
        MonitorDispatcher d = new MonitorDispatcher();
        int threads = 4;
        int perThread = 50_000;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        long[] lastSeen = new long[threads];
        java.util.Arrays.fill(lastSeen, -1);
        AtomicInteger outOfOrder = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        d.add(e -> {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            int t = (int) (e.value() >>> 32);
            long n = e.value() & 0xFFFFFFFFL;
            if (n != lastSeen[t] + 1) {
                outOfOrder.incrementAndGet();
            }
            lastSeen[t] = n;
            delivered.incrementAndGet();
            inside.decrementAndGet();
        });
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> reporters = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long tag = (long) t << 32;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    d.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.MESSAGES_DROPPED, null, null, null,
                            null, tag | i));
                }
            });
            th.start();
            reporters.add(th);
        }
        start.countDown();
        for (Thread th : reporters) {
            th.join();
        }
        // Every reporter has returned, so whoever delivered has finished too (it returns only at zero pending).
        assertThat(delivered.get()).isEqualTo(threads * perThread);
        assertThat(overlaps.get()).isZero();
        assertThat(outOfOrder.get()).isZero();
    }

    @Test
    void shouldKeepNothingWhenNobodyMonitors() {
        MonitorDispatcher d = new MonitorDispatcher();
        d.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.LISTENING, "tcp://x:1", null, null, null, 0));
        List<ConnectionEvent> seen = new ArrayList<>();
        d.add(seen::add);
        d.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.CLOSED, "tcp://x:1", null, null, null, 0));
        assertThat(seen).extracting(ConnectionEvent::type).containsExactly(ZmtpSocketEvent.Type.CLOSED);
    }
}
