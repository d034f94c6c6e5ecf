package io.zmtp.socket.internal;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Delivers a socket's events to its monitors one at a time and in the order they were reported, whichever threads
 * report them (each connection's event loop, the thread that binds, the drop reporter).
 *
 * <h2>Threads</h2>
 * Lock-free: a reporter adds the event to a queue and then increments {@code pending}; the one that takes it from 0
 * delivers until it brings it back to 0, so exactly one thread delivers at a time and an event added while it
 * delivers is delivered by it (the increment comes after the add, and the deliverer decrements only after it polled
 * one event per increment). Delivery runs on the reporting thread: an I/O thread, or an application thread inside
 * {@code bind} or {@code close}. With no monitor, reporting costs one volatile read.
 */
final class MonitorDispatcher {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(MonitorDispatcher.class);

    private final CopyOnWriteArrayList<Consumer<ConnectionEvent>> monitors = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<ConnectionEvent> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean any;

    void add(Consumer<ConnectionEvent> monitor) {
        monitors.add(monitor);
        any = true;
    }

    void remove(Consumer<ConnectionEvent> monitor) {
        monitors.remove(monitor);
        any = !monitors.isEmpty();
    }

    boolean hasMonitors() {
        return any;
    }

    void report(ConnectionEvent event) {
        if (!any) {
            return;
        }
        queue.add(event);
        if (pending.getAndIncrement() != 0) {
            return;
        }
        int n = 1;
        do {
            for (int i = 0; i < n; i++) {
                deliver(queue.poll());
            }
            n = pending.addAndGet(-n);
        } while (n != 0);
    }

    private void deliver(ConnectionEvent event) {
        for (Consumer<ConnectionEvent> m : monitors) {
            try {
                m.accept(event);
            } catch (RuntimeException e) {
                logger.warn("monitor failed on {}", event, e);
            }
        }
    }
}
