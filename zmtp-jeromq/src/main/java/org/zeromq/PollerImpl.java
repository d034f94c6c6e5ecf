package org.zeromq;

import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocket;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@link ZMQ.Poller}, on a {@link ZmtpPoller}: a poll waits on the sockets' wake-up signal, never in a
 * loop of short sleeps, and returns as soon as one item is ready or the timeout passes.
 *
 * <p>Items are numbered in the order registered, as in JeroMQ; unregistering one shifts the later ones down. Only
 * sockets can be polled: JeroMQ's {@code SelectableChannel} items are absent (docs/jeromq.md). POLLERR is never
 * reported: a socket's errors come out of its calls. Used from one thread.
 */
abstract class PollerImpl {
    private final ContextImpl context;
    private final List<ZMQ.PollItem> items;
    /** Volatile: {@link #close()} from another thread must see the one a poll waits in, to wake it. */
    private volatile ZmtpPoller poller;
    private boolean dirty = true;
    /** Set by {@link #close()}, from any thread: a poll waiting then, and any after, returns -1 (JeroMQ's). */
    private volatile boolean closed;
    private long timeout = -1;

    PollerImpl(ContextImpl context, int size) {
        this.context = context;
        this.items = new ArrayList<>(Math.max(1, size));
    }

    /** Registers {@code socket} for POLLIN, POLLOUT and POLLERR; returns its index. */
    public int register(ZMQ.Socket socket) {
        return register(socket, ZMQ.Poller.POLLIN | ZMQ.Poller.POLLOUT | ZMQ.Poller.POLLERR);
    }

    /** Registers {@code socket} for {@code events} (a mask of POLLIN, POLLOUT, POLLERR); returns its index. */
    public int register(ZMQ.Socket socket, int events) {
        return register(new ZMQ.PollItem(socket, events));
    }

    /** Registers {@code item}; returns its index. */
    public int register(ZMQ.PollItem item) {
        items.add(item);
        dirty = true;
        return items.size() - 1;
    }

    /** Unregisters every item of {@code socket}. */
    public void unregister(ZMQ.Socket socket) {
        if (items.removeIf(i -> i.getSocket() == socket)) {
            dirty = true;
        }
    }

    /** The item at {@code index}, or null. */
    public ZMQ.PollItem getItem(int index) {
        return index < 0 || index >= items.size() ? null : items.get(index);
    }

    /** The socket of the item at {@code index}, or null. */
    public ZMQ.Socket getSocket(int index) {
        ZMQ.PollItem item = getItem(index);
        return item == null ? null : item.getSocket();
    }

    @Deprecated
    public long getTimeout() {
        return timeout;
    }

    /** The timeout {@link #poll()} uses, in ms; -1 = forever. */
    @Deprecated
    public void setTimeout(long timeout) {
        if (timeout >= -1) {
            this.timeout = timeout;
        }
    }

    public int getSize() {
        return items.size();
    }

    @Deprecated
    public int getNext() {
        return items.size();
    }

    /** Polls with the timeout of {@link #setTimeout} (forever by default). */
    public int poll() {
        return poll(timeout);
    }

    /**
     * Waits up to {@code tout} ms (-1: forever, 0: just checks) until a registered socket is ready for one of its
     * events; returns how many items are ready. Throws {@link ZMQException} with ETERM if a socket is closed (its
     * context terminated), EINTR if the thread is interrupted. 0 once the context is terminated, as JeroMQ; -1 once
     * the poller is closed, as JeroMQ's: a {@code poll(-1)} waiting in one thread returns -1 when another closes it.
     */
    public int poll(long tout) {
        if (closed) {
            return -1;
        }
        if (tout < -1 || items.isEmpty()) {
            return 0;
        }
        ZmtpPoller p = poller();
        try {
            p.poll(waitFor(items, tout));
        } catch (RuntimeException e) {
            if (closed) {
                return -1;
            }
            if (context.isTerminating()) {
                return 0;
            }
            throw PollerImpl.failure(e);
        }
        if (closed) {
            return -1;
        }
        int ready = 0;
        for (ZMQ.PollItem item : items) {
            if (item.update(p)) {
                ready++;
            }
        }
        return ready;
    }

    private ZmtpPoller poller() {
        if (dirty || poller == null) {
            if (poller != null) {
                poller.close();
            }
            poller = newPoller(items);
            dirty = false;
        }
        return poller;
    }

    /** A netty-zmtp poller for {@code items}: the interests of one socket's items together. */
    static ZmtpPoller newPoller(Iterable<ZMQ.PollItem> items) {
        ZmtpPoller p = new ZmtpPoller();
        java.util.Map<ZmtpSocket, Integer> interests = new java.util.IdentityHashMap<>();
        for (ZMQ.PollItem item : items) {
            interests.merge(item.getSocket().zmtpSocket(), item.interest(), (a, b) -> a | b);
        }
        interests.forEach((s, events) -> {
            boolean in = (events & ZMQ.Poller.POLLIN) != 0;
            boolean out = (events & ZMQ.Poller.POLLOUT) != 0;
            if (in && out) {
                p.register(s, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
            } else if (out) {
                p.register(s, ZmtpPoller.Interest.OUT);
            } else if (in) {
                p.register(s, ZmtpPoller.Interest.IN);
            }
            // POLLERR alone: never ready, so not registered (else unread input would wake every poll at once).
        });
        return p;
    }

    /**
     * How long a poll may wait: not at all if an item's socket holds frames of a message begun with {@code recv}
     * (netty-zmtp's poller can't see those, and they make the socket readable), else {@code tout} ms (-1: forever).
     */
    static Duration waitFor(Iterable<ZMQ.PollItem> items, long tout) {
        for (ZMQ.PollItem item : items) {
            if ((item.interest() & ZMQ.Poller.POLLIN) != 0 && item.getSocket().hasReceiveMore()) {
                return Duration.ZERO;
            }
        }
        return tout < 0 ? null : Duration.ofMillis(tout);
    }

    static ZMQException failure(RuntimeException e) {
        if (e instanceof io.zmtp.socket.ZmtpSocketException.Interrupted) {
            return new ZMQException(e.getMessage(), ErrorCodes.EINTR, e);
        }
        return new ZMQException(e.getMessage(), ErrorCodes.ETERM, e);
    }

    public boolean pollin(int index) {
        ZMQ.PollItem item = getItem(index);
        return item != null && item.isReadable();
    }

    public boolean pollout(int index) {
        ZMQ.PollItem item = getItem(index);
        return item != null && item.isWritable();
    }

    /** Always false: errors are reported by the socket's calls. */
    public boolean pollerr(int index) {
        ZMQ.PollItem item = getItem(index);
        return item != null && item.isError();
    }

    /** Releases the poller's registrations with its sockets; a poll waiting in another thread returns -1. */
    public void close() {
        closed = true;
        ZmtpPoller current = poller;
        poller = null;
        if (current != null) {
            current.close();
        }
        dirty = true;
    }
}
