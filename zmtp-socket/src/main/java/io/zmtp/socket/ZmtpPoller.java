package io.zmtp.socket;

import io.zmtp.socket.internal.Signal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Waits on several sockets at once, as {@code zmq_poll}: register sockets for {@link Interest#IN} and/or
 * {@link Interest#OUT}, call {@link #poll(Duration)}, then ask {@link #isReadable}/{@link #isWritable}. Polling
 * changes nothing a send or receive may do (a REQ whose reply a poll has seen still must receive it first). Meant to
 * be used from one thread.
 *
 * <p>A poller costs its sockets nothing while it is not polling: it listens to their wake-up signals only while a
 * {@link #poll} waits, adding itself after a first look found nothing ready and before the look that precedes the
 * wait, so no signal in between is missed. A poller that is dropped without {@link #close()} is just garbage. (It
 * used to listen from {@code register} until {@code close}: the ZeroMQ Guide's Majordomo client and worker APIs,
 * which make a poller per receive and never close it, left thousands listening on their socket, each run on every
 * signal of the socket: a request/reply loop slowed from 6 k to 1.1 k round trips a second within 30 s.)
 *
 * <p>{@link #poll(Duration, Selector)} waits on java.nio channels beside the sockets: the polling thread blocks in the
 * selector's {@code select}, and while it waits the sockets' signals call {@link Selector#wakeup()} in place of this
 * poller's own signal. A poll without a selector never touches one.
 *
 * <pre>{@code
 * poller.register(req, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
 * }</pre>
 */
public final class ZmtpPoller implements AutoCloseable {
    /** What a registered socket is polled for (libzmq's ZMQ_POLLIN and ZMQ_POLLOUT). */
    public enum Interest {
        /** A receive would return a message now. */
        IN,
        /** A send would not block now. */
        OUT
    }

    private static final int IN = 1;
    private static final int OUT = 2;

    private static final class Item {
        final ZmtpSocket socket;
        int events;
        int ready;

        Item(ZmtpSocket socket, int events) {
            this.socket = socket;
            this.events = events;
        }
    }

    private final List<Item> items = new ArrayList<>();
    /** The same items by socket: asking about each of many sockets after a poll stays linear in all. */
    private final Map<ZmtpSocket, Item> bySocket = new IdentityHashMap<>();
    private final Signal signal = new Signal();
    private final Runnable wake = signal::signal;
    /**
     * Set by {@link #close()}, which may come from another thread while a poll waits: that poll returns 0 and forgets
     * the registrations itself ({@code polling} tells close it is under way). Cleared by a registration.
     */
    private volatile boolean closed;
    private volatile boolean polling;

    /** Registers {@code socket} for the given interests, or changes its interests to them. */
    public void register(ZmtpSocket socket, Interest interest, Interest... more) {
        Objects.requireNonNull(socket, "socket");
        int events = bit(interest);
        for (Interest i : more) {
            events |= bit(i);
        }
        register(socket, events);
    }

    private static int bit(Interest interest) {
        return Objects.requireNonNull(interest, "interest") == Interest.IN ? IN : OUT;
    }

    private void register(ZmtpSocket socket, int events) {
        closed = false;
        Item existing = bySocket.get(socket);
        if (existing != null) {
            existing.events = events;
            return;
        }
        Item item = new Item(socket, events);
        items.add(item);
        bySocket.put(socket, item);
    }

    public void unregister(ZmtpSocket socket) {
        Item item = bySocket.remove(socket);
        if (item != null) {
            items.remove(item);
        }
    }

    /**
     * Waits until at least one registered socket is ready for one of its events, or {@code timeout} passes
     * ({@code null} or negative waits forever; zero just checks). Returns the number of ready sockets. Throws
     * {@link ZmtpSocketException.Closed} if a registered socket is closed, or is closed while this waits (its
     * context closing, for one), as zmq_poll fails with ETERM.
     */
    public int poll(Duration timeout) {
        polling = true;
        try {
            return pollUntilClosed(timeout);
        } finally {
            polling = false;
            if (closed) {
                forget();
            }
        }
    }

    private int pollUntilClosed(Duration timeout) {
        long timeoutNanos = timeout == null || timeout.isNegative() ? -1 : timeout.toNanos();
        if (closed) {
            return 0;
        }
        // Most polls in a busy loop find a socket ready: they look once and never touch the sockets' listeners.
        int n = look();
        if (n > 0 || timeoutNanos == 0) {
            return n;
        }
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        List<Signal> listened = new ArrayList<>(items.size());
        try {
            for (Item i : items) {
                Signal s = i.socket.impl().signal();
                s.addListener(wake);
                listened.add(s);
            }
            for (;;) {
                // Read before the look, which comes after the listeners are in: a change after the look signals.
                long seq = signal.sequence();
                if (closed) {
                    return 0;
                }
                n = look();
                if (n > 0 || System.nanoTime() - deadline >= 0) {
                    return n;
                }
                try {
                    signal.await(seq, deadline);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ZmtpSocketException.Interrupted("interrupted in poll", e);
                }
            }
        } finally {
            for (Signal s : listened) {
                s.removeListener(wake);
            }
        }
    }

    /**
     * As {@link #poll(Duration)}, and also ends when a channel registered on {@code selector} is ready: waits until
     * a registered socket is ready, a key of {@code selector} is selected, or {@code timeout} passes. Returns the
     * number of ready sockets; the ready channels' keys are in {@code selector.selectedKeys()}, which this clears
     * first (the caller clears it after reading). The selector's channels must be in non-blocking mode, as for any
     * registration, and only this thread may select on it while this waits.
     *
     * <p>No wake-up is lost: the sockets' signals call {@link Selector#wakeup()} from before the look at the sockets
     * that precedes each {@code select}, and a wake-up given while no {@code select} is under way makes the next one
     * return at once. So a socket that turns ready between that look and the {@code select} ends the wait. A wake-up
     * left over from an earlier poll costs one more look, never a missed one.
     *
     * @throws ZmtpSocketException.Closed      if a registered socket is closed, or is closed while this waits
     * @throws ZmtpSocketException.Interrupted if the thread is interrupted (its interrupt status is kept)
     * @throws java.nio.channels.ClosedSelectorException if {@code selector} is closed
     * @throws UncheckedIOException            if the selector fails
     */
    public int poll(Duration timeout, Selector selector) {
        Objects.requireNonNull(selector, "selector");
        polling = true;
        try {
            return pollWithSelector(timeout, selector);
        } finally {
            polling = false;
            if (closed) {
                forget();
            }
        }
    }

    private int pollWithSelector(Duration timeout, Selector selector) {
        long timeoutNanos = timeout == null || timeout.isNegative() ? -1 : timeout.toNanos();
        selector.selectedKeys().clear();
        int n = look();
        int keys = select(selector, 0);
        if (n > 0 || keys > 0 || timeoutNanos == 0) {
            return n;
        }
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        Runnable wakeSelector = selector::wakeup;
        List<Signal> listened = new ArrayList<>(items.size());
        try {
            for (Item i : items) {
                Signal s = i.socket.impl().signal();
                s.addListener(wakeSelector);
                listened.add(s);
            }
            for (;;) {
                // The listeners are in: a change after this look wakes the select below, or the one after it.
                n = look();
                if (n > 0) {
                    select(selector, 0);
                    return n;
                }
                long left = deadline == Long.MAX_VALUE ? -1 : deadline - System.nanoTime();
                if (deadline != Long.MAX_VALUE && left <= 0) {
                    return 0;
                }
                keys = select(selector, left < 0 ? -1 : Math.max(1, (left + 999_999) / 1_000_000));
                if (Thread.interrupted()) {
                    Thread.currentThread().interrupt();
                    throw new ZmtpSocketException.Interrupted("interrupted in poll", null);
                }
                if (keys > 0) {
                    return look();
                }
            }
        } finally {
            for (Signal s : listened) {
                s.removeListener(wakeSelector);
            }
        }
    }

    /** {@code selectNow} for 0, {@code select()} for -1, else {@code select(millis)}; the number of keys selected. */
    private static int select(Selector selector, long millis) {
        try {
            return millis == 0 ? selector.selectNow() : millis < 0 ? selector.select() : selector.select(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Marks which items are ready now; returns how many are. */
    private int look() {
        int n = 0;
        for (Item i : items) {
            i.ready = 0;
            if (i.socket.isClosed()) {
                // As zmq_poll's ETERM/ENOTSOCK: a closed socket will never be ready, so waiting on would hang.
                throw new ZmtpSocketException.Closed("polled " + i.socket + " is closed");
            }
            if ((i.events & IN) != 0 && i.socket.pollIn()) {
                i.ready |= IN;
            }
            if ((i.events & OUT) != 0 && i.socket.pollOut()) {
                i.ready |= OUT;
            }
            if (i.ready != 0) {
                n++;
            }
        }
        return n;
    }

    public boolean isReadable(ZmtpSocket socket) {
        return (readyOf(socket) & IN) != 0;
    }

    public boolean isWritable(ZmtpSocket socket) {
        return (readyOf(socket) & OUT) != 0;
    }

    private int readyOf(ZmtpSocket socket) {
        Item item = bySocket.get(socket);
        return item == null ? 0 : item.ready;
    }

    /**
     * Forgets every registration (a poller listens to its sockets only while it polls: nothing else to undo). The one
     * method another thread may call while a poll waits: a {@link #poll(Duration)} returns 0 (JeroMQ's
     * {@code Poller.close} ends a waiting {@code poll(-1)} so); a {@link #poll(Duration, Selector)} ends when its
     * selector is closed or woken, which is its owner's to do.
     */
    @Override
    public void close() {
        closed = true;
        signal.signal();
        // Both flags are volatile and each side writes its own before reading the other's: a poll under way sees
        // closed and forgets the registrations on its way out, or this sees it isn't polling (and it won't look).
        if (!polling) {
            forget();
        }
    }

    private void forget() {
        items.clear();
        bySocket.clear();
    }
}
