package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.zmtp.socket.ZmtpSocketEvent;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * What a socket tells its monitors: the connections' and endpoints' events, its drops (one event per burst,
 * {@link DropReporter}), and last, once close has closed every connection, MONITOR_STOPPED.
 *
 * <h2>Threads</h2>
 * Events are reported from any thread and never block the reporter beyond delivering to the monitors
 * ({@link MonitorDispatcher} delivers one at a time, in order). {@link #stop} runs once, at the end of close (on the
 * thread closing the socket or its context), after the connections were closed; its wait for their events is skipped
 * for a connection whose event loop is the calling thread, which would wait for itself.
 */
final class SocketMonitor {
    /** Bounds the wait for a closed connection's last events on a loop that is stuck. */
    private static final long CLOSE_EVENTS_WAIT_MILLIS = 2000;

    private final MonitorDispatcher dispatcher = new MonitorDispatcher();
    private final DropReporter dropReporter;

    SocketMonitor(SocketBase socket) {
        dropReporter = new DropReporter(socket);
    }

    void add(Consumer<ConnectionEvent> monitor) {
        dispatcher.add(monitor);
    }

    void remove(Consumer<ConnectionEvent> monitor) {
        dispatcher.remove(monitor);
    }

    /** Reports an event, in order with every other (any thread, never blocks). */
    void report(ConnectionEvent event) {
        dispatcher.report(event);
    }

    /** {@code n} messages were dropped (any thread): reported once per burst, if anyone is listening. */
    void dropped(int n) {
        if (dispatcher.hasMonitors()) {
            dropReporter.add(n);
        }
    }

    /**
     * The socket has closed {@code closed}' connections: reports what they still have to say (DISCONNECTED, CLOSED),
     * the drops not yet reported, and then MONITOR_STOPPED, the last event.
     */
    void stop(Collection<Pipe> closed) {
        awaitConnectionEvents(closed);
        dropReporter.flush();
        report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.MONITOR_STOPPED, null, null, null, null, 0));
    }

    /**
     * Waits (briefly) for the connections to be closed, then for one task on each of their event loops, which runs
     * after the close's listeners (DISCONNECTED) have been. Only when someone monitors; never on an I/O thread,
     * which would wait for itself.
     */
    private void awaitConnectionEvents(Collection<Pipe> closed) {
        if (!dispatcher.hasMonitors()) {
            return;
        }
        Set<EventLoop> loops = new LinkedHashSet<>();
        for (Pipe p : closed) {
            Channel ch = p.channel();
            if (ch == null || ch.eventLoop().inEventLoop()) {
                continue;
            }
            ch.closeFuture().awaitUninterruptibly(CLOSE_EVENTS_WAIT_MILLIS);
            loops.add(ch.eventLoop());
        }
        for (EventLoop loop : loops) {
            try {
                loop.submit(() -> { }).awaitUninterruptibly(CLOSE_EVENTS_WAIT_MILLIS);
            } catch (RejectedExecutionException e) {
                // The loop is gone, and with it anything it had to report.
            }
        }
    }
}
