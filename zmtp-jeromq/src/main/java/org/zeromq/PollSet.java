package org.zeromq;

import io.zmtp.socket.ZmtpPoller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one poller waits on, sockets and java.nio channels, and what its last poll found ready: the engine of
 * {@link ZMQ.Poller}, {@link ZMQ#poll}, {@link ZPoller} and so {@link ZLoop}.
 *
 * <p><b>Sockets only.</b> A {@link ZmtpPoller} waits on the sockets' wake-up signal and listens to them only while a
 * poll waits, so a set never closed costs nothing. No {@link Selector} is opened.
 *
 * <p><b>With channels.</b> The polling thread blocks in {@link Selector#select(long)} on a selector of the set's own
 * (opened at the first poll that has a channel, closed by {@link #close()}), or on the caller's given to the
 * constructor ({@code ZMQ.poll}'s, which is left open). Each poll registers the channels on it (cancelling the keys of
 * channels no longer polled; a poll without channels deregisters them all), and while it waits the sockets' signals call {@link Selector#wakeup()} in place of the
 * usual signal ({@link ZmtpPoller#poll(Duration, Selector)}). After waking, a socket's readiness is computed as in a
 * poll without channels, a channel's from its selected key. No helper thread, no spin, no time slicing.
 *
 * <p><b>Invariant: no lost wake-up.</b> The listeners that wake the selector are on the sockets' signals before the
 * look at the sockets that precedes each {@code select}, and a {@code wakeup()} given while no {@code select} is under
 * way makes the next {@code select} return at once. So a socket turning ready between that look and the
 * {@code select} (on its I/O thread, or on a thread sending to it over inproc) still ends the wait; a wake-up left from
 * an earlier poll costs one more look. {@code PollSetWakeUpStressTest} guards this.
 *
 * <p>Channels must be in non-blocking mode when polled, as JeroMQ requires (its registration throws
 * {@link java.nio.channels.IllegalBlockingModeException} otherwise, and so does this). A closed channel is ready with
 * POLLERR and ends the wait, as JeroMQ reports an invalid key. POLLIN is {@code OP_READ} ({@code OP_ACCEPT} for a
 * channel that only accepts), POLLOUT {@code OP_WRITE} ({@code OP_CONNECT} for one that only connects).
 *
 * <p><b>Threads.</b> Used from the polling thread only; the sockets' I/O threads touch the selector through
 * {@code wakeup()} alone, which {@link Selector} allows from any thread.
 */
final class PollSet implements AutoCloseable {
    /** The caller's selector, used and left open; null to open one of our own when a channel is polled. */
    private final Selector given;
    private Selector own;
    /** Volatile: a {@link #close()} from another thread closes the one a poll waits in, which wakes it. */
    private volatile ZmtpPoller sockets = new ZmtpPoller();
    private final Map<ZMQ.Socket, Integer> socketInterest = new IdentityHashMap<>();
    private final Map<SelectableChannel, Integer> channelInterest = new IdentityHashMap<>();
    private final Map<SelectableChannel, Integer> channelReady = new IdentityHashMap<>();

    /** A set that opens a selector of its own if it polls a channel. */
    PollSet() {
        this(null);
    }

    /** A set that polls its channels on {@code selector} (left open), or on one of its own if null. */
    PollSet(Selector selector) {
        this.given = selector;
    }

    /** Adds {@code item}'s socket or channel for its events (merged with earlier ones of the same). */
    void add(ZMQ.PollItem item) {
        if (item.getSocket() != null) {
            add(item.getSocket(), item.interest());
        } else if (item.getRawSocket() != null) {
            add(item.getRawSocket(), item.interest());
        } else {
            throw new IllegalArgumentException("a poll item needs a socket or a channel");
        }
    }

    /** Adds {@code socket} for {@code events}, a mask of POLLIN, POLLOUT, POLLERR. */
    void add(ZMQ.Socket socket, int events) {
        int merged = socketInterest.merge(socket, events, (a, b) -> a | b);
        boolean in = (merged & ZMQ.Poller.POLLIN) != 0;
        boolean out = (merged & ZMQ.Poller.POLLOUT) != 0;
        if (in && out) {
            sockets.register(socket.zmtp, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
        } else if (out) {
            sockets.register(socket.zmtp, ZmtpPoller.Interest.OUT);
        } else if (in) {
            sockets.register(socket.zmtp, ZmtpPoller.Interest.IN);
        }
        // POLLERR alone: never ready, so not registered (else unread input would wake every poll at once).
    }

    /** Adds {@code channel} for {@code events}, a mask of POLLIN, POLLOUT, POLLERR. */
    void add(SelectableChannel channel, int events) {
        channelInterest.merge(Objects.requireNonNull(channel, "channel"), events, (a, b) -> a | b);
    }

    /** Forgets every socket and channel (the selector stays open for the next ones). */
    void clear() {
        sockets.close();
        sockets = new ZmtpPoller();
        socketInterest.clear();
        channelInterest.clear();
        channelReady.clear();
    }

    /**
     * Waits up to {@code timeoutMs} (-1: forever, 0: just looks) until a socket or a channel is ready for one of its
     * events. Throws what {@link ZmtpPoller#poll} throws (its {@code Closed} and {@code Interrupted}), and
     * {@link java.nio.channels.ClosedSelectorException} if the selector is closed.
     */
    void poll(long timeoutMs) {
        channelReady.clear();
        Duration wait = timeoutMs < 0 ? null : Duration.ofMillis(timeoutMs);
        for (Map.Entry<ZMQ.Socket, Integer> e : socketInterest.entrySet()) {
            if ((e.getValue() & ZMQ.Poller.POLLIN) != 0 && e.getKey().hasReceiveMore()) {
                // Frames of a message begun with recv make the socket readable; netty-zmtp's poller can't see them.
                wait = Duration.ZERO;
                break;
            }
        }
        if (channelInterest.isEmpty()) {
            releaseChannels();
            sockets.poll(wait);
            return;
        }
        Selector selector = selector();
        boolean closedChannel = register(selector);
        sockets.poll(closedChannel ? Duration.ZERO : wait, selector);
        for (SelectionKey key : selector.selectedKeys()) {
            int ready = readyOf(key);
            if (ready != 0) {
                channelReady.merge(key.channel(), ready, (a, b) -> a | b);
            }
        }
        selector.selectedKeys().clear();
    }

    /** The events of {@code socket} found ready by the last poll (within its interest). */
    int readyOps(ZMQ.Socket socket) {
        int interest = socketInterest.getOrDefault(socket, 0);
        int ready = 0;
        if ((interest & ZMQ.Poller.POLLIN) != 0 && (socket.hasReceiveMore() || sockets.isReadable(socket.zmtp))) {
            ready |= ZMQ.Poller.POLLIN;
        }
        if ((interest & ZMQ.Poller.POLLOUT) != 0 && sockets.isWritable(socket.zmtp)) {
            ready |= ZMQ.Poller.POLLOUT;
        }
        return ready;
    }

    /** The events of {@code channel} found ready by the last poll: POLLIN, POLLOUT, or POLLERR once it is closed. */
    int readyOps(SelectableChannel channel) {
        return channelReady.getOrDefault(channel, 0);
    }

    /** Closes the selector if it is the set's own, and forgets everything. */
    @Override
    public void close() {
        clear();
        if (own != null) {
            try {
                own.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                own = null;
            }
        }
    }

    private Selector selector() {
        if (given != null) {
            return given;
        }
        if (own == null) {
            try {
                own = Selector.open();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return own;
    }

    /**
     * Makes {@code selector}'s keys those of the polled channels with their interest: cancels the others, registers
     * the new ones, updates the changed ones. Marks closed channels ready with POLLERR; whether there is one.
     */
    private boolean register(Selector selector) {
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && !channelInterest.containsKey(key.channel())) {
                key.cancel();
            }
        }
        boolean closed = false;
        for (Map.Entry<SelectableChannel, Integer> e : channelInterest.entrySet()) {
            SelectableChannel channel = e.getKey();
            if (!channel.isOpen()) {
                channelReady.put(channel, ZMQ.Poller.POLLERR);
                closed = true;
                continue;
            }
            int ops = keyOps(channel, e.getValue());
            SelectionKey key = channel.keyFor(selector);
            if (key != null && key.isValid()) {
                if (key.interestOps() != ops) {
                    key.interestOps(ops);
                }
                continue;
            }
            if (key != null) {
                // A cancelled key stays until the next select, and registering its channel again before that fails.
                selectNow(selector);
            }
            try {
                channel.register(selector, ops);
            } catch (ClosedChannelException ex) {
                channelReady.put(channel, ZMQ.Poller.POLLERR);
                closed = true;
            }
        }
        return closed;
    }

    /**
     * Deregisters the channels of the set's own selector once none is polled, so that an unregistered channel can be
     * put back in blocking mode at once (a registered one can't be).
     */
    private void releaseChannels() {
        if (own != null && !own.keys().isEmpty()) {
            for (SelectionKey key : own.keys()) {
                key.cancel();
            }
            selectNow(own);
            own.selectedKeys().clear();
        }
    }

    private static void selectNow(Selector selector) {
        try {
            selector.selectNow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** POLLIN and POLLOUT as the key operations {@code channel} supports. */
    private static int keyOps(SelectableChannel channel, int events) {
        int valid = channel.validOps();
        int ops = 0;
        if ((events & ZMQ.Poller.POLLIN) != 0) {
            ops |= (valid & SelectionKey.OP_READ) != 0 ? SelectionKey.OP_READ : valid & SelectionKey.OP_ACCEPT;
        }
        if ((events & ZMQ.Poller.POLLOUT) != 0) {
            ops |= (valid & SelectionKey.OP_WRITE) != 0 ? SelectionKey.OP_WRITE : valid & SelectionKey.OP_CONNECT;
        }
        return ops;
    }

    private static int readyOf(SelectionKey key) {
        if (!key.isValid()) {
            return ZMQ.Poller.POLLERR;
        }
        int ops = key.readyOps();
        int ready = 0;
        if ((ops & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0) {
            ready |= ZMQ.Poller.POLLIN;
        }
        if ((ops & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0) {
            ready |= ZMQ.Poller.POLLOUT;
        }
        return ready;
    }
}
