package org.zeromq;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A socket's monitor as {@link ZMQ.Socket#monitor(String, int)} starts it: a PAIR bound at an inproc address that
 * gets the socket's events in libzmq's two-frame format (a 6-byte frame with the event as a little-endian u16 and its
 * value as a little-endian u32, then the endpoint), which {@link EventReader} reads, in the sequences JeroMQ 0.6.0
 * sends ({@link MonitorEvents}). It ends, sending MONITOR_STOPPED if asked for, when the socket closes or when
 * {@code monitor(null, 0)} stops it early, as JeroMQ's and libzmq's do; then its PAIR closes.
 *
 * <h2>Threads</h2>
 * Events come from netty-zmtp's monitor dispatch (an I/O thread, or the thread in bind or close), one at a time;
 * {@link #stop} from the application's. Both hold this object's lock, which guards {@code stopped}, so no event is
 * sent after MONITOR_STOPPED. Sends never block: they go out through {@code sendAsync} and wait for the reader to
 * connect; at most {@link #MAX_WAITING} wait (libzmq's default SNDHWM), newer ones are dropped, MONITOR_STOPPED
 * never.
 */
final class JeromqMonitor implements Consumer<ZmtpSocketEvent> {
    /** Events sent and not yet taken by the reader's connection, at most. */
    static final int MAX_WAITING = 1000;
    /** How long the PAIR's close waits for the reader to take what is left (MONITOR_STOPPED). */
    private static final int LINGER_MILLIS = 1000;

    private final ZmtpSocket monitored;
    private final ZmtpSocket pair;
    private final MonitorEvents events;
    /** Sent and not yet taken: added to by sends (one at a time), taken from by their completions. */
    private final AtomicInteger waiting = new AtomicInteger();
    private boolean stopped;

    private JeromqMonitor(ZmtpSocket monitored, ZmtpSocket pair, int mask) {
        this.monitored = monitored;
        this.pair = pair;
        this.events = new MonitorEvents(mask);
    }

    /**
     * Binds a PAIR of {@code context} at {@code addr} and starts sending {@code monitored}'s events in {@code mask}.
     *
     * @throws RuntimeException as the PAIR's bind throws (the address is taken, say); nothing is left open then
     */
    static JeromqMonitor start(ZmtpContext context, ZmtpSocket monitored, String addr, int mask) {
        ZmtpSocket pair = context.socket(ZmtpSocketType.PAIR);
        pair.setOption(ZmtpSocketOption.LINGER, LINGER_MILLIS);
        try {
            pair.bind(addr);
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
        JeromqMonitor monitor = new JeromqMonitor(monitored, pair, mask);
        monitored.monitor(monitor);
        return monitor;
    }

    /** Whether the monitor asked for {@code event} (a {@code ZMQ.EVENT_*} bit). */
    boolean wants(int event) {
        return events.wants(event);
    }

    @Override
    public synchronized void accept(ZmtpSocketEvent e) {
        if (stopped) {
            return;
        }
        if (e.type() == ZmtpSocketEvent.Type.MONITOR_STOPPED) {
            stop();
            return;
        }
        events.translate(e, this::send);
    }

    /** Stops: no event after this one but MONITOR_STOPPED (if asked for), then the PAIR closes. Idempotent. */
    synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        monitored.unmonitor(this);
        CompletionStage<Void> last = events.wants(ZMQ.EVENT_MONITOR_STOPPED)
                ? send(ZMQ.EVENT_MONITOR_STOPPED, 0, "") : null;
        if (last == null) {
            pair.close();
        } else {
            // Closed once the last event is out (or could never be), not on the thread stopping the monitor.
            last.whenComplete((v, t) -> pair.close());
        }
    }

    /** Sends one event; returns its completion, or null when it was dropped. */
    private CompletionStage<Void> send(int event, int value, String endpoint) {
        if (event != ZMQ.EVENT_MONITOR_STOPPED && waiting.get() >= MAX_WAITING) {
            return null;
        }
        ByteBuf head = Unpooled.buffer(6, 6).writeShortLE(event).writeIntLE(value);
        ZmtpMessage msg = ZmtpMessage.wrap(head, Unpooled.copiedBuffer(endpoint, StandardCharsets.UTF_8));
        CompletionStage<Void> sent;
        try {
            sent = pair.sendAsync(msg);
        } catch (RuntimeException closed) {
            // The PAIR was closed with its context: nobody can read the event any more.
            msg.release();
            return null;
        }
        waiting.incrementAndGet();
        sent.whenComplete((v, t) -> waiting.decrementAndGet());
        return sent;
    }
}
