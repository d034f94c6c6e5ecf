package org.zeromq;

import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of {@link ZMQ.Poller}, on a {@link PollSet}: a poll of sockets waits on the sockets' wake-up signal, never
 * in a loop of short sleeps, and returns as soon as one item is ready or the timeout passes. A poll that has a
 * java.nio channel among its items waits in a {@link java.nio.channels.Selector} of the poller's own, which the
 * sockets wake (see {@link PollSet}); it is opened by the first such poll and closed by {@link #close()}.
 *
 * <p>Items are numbered in the order registered, as in JeroMQ; unregistering one shifts the later ones down.
 * POLLERR is never reported for a socket (its errors come out of its calls), only for a closed channel. Used from one
 * thread, but for {@link #close()}, which another thread may call to end a poll that waits.
 */
abstract class PollerImpl {
    private final ContextImpl context;
    private final List<ZMQ.PollItem> items;
    /** Volatile: {@link #close()} from another thread must see the set a poll waits in, to wake it. */
    private volatile PollSet set;
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

    /** Registers {@code channel} for POLLIN, POLLOUT and POLLERR; returns its index. */
    public int register(SelectableChannel channel) {
        return register(channel, ZMQ.Poller.POLLIN | ZMQ.Poller.POLLOUT | ZMQ.Poller.POLLERR);
    }

    /** Registers {@code socket} for {@code events} (a mask of POLLIN, POLLOUT, POLLERR); returns its index. */
    public int register(ZMQ.Socket socket, int events) {
        return register(new ZMQ.PollItem(socket, events));
    }

    /**
     * Registers {@code channel} for {@code events} (a mask of POLLIN, POLLOUT, POLLERR); returns its index. The
     * channel must be in non-blocking mode when polled.
     */
    public int register(SelectableChannel channel, int events) {
        return register(new ZMQ.PollItem(channel, events));
    }

    /** Registers {@code item}; returns its index. */
    public int register(ZMQ.PollItem item) {
        items.add(item);
        dirty = true;
        return items.size() - 1;
    }

    /** Unregisters every item of {@code socket}. */
    public void unregister(ZMQ.Socket socket) {
        unregisterItemsOf(socket);
    }

    /** Unregisters every item of {@code channel}. */
    public void unregister(SelectableChannel channel) {
        unregisterItemsOf(channel);
    }

    private void unregisterItemsOf(Object socketOrChannel) {
        if (items.removeIf(i -> i.getSocket() == socketOrChannel || i.getRawSocket() == socketOrChannel)) {
            dirty = true;
        }
    }

    /** The item at {@code index}, or null. */
    public ZMQ.PollItem getItem(int index) {
        return index < 0 || index >= items.size() ? null : items.get(index);
    }

    /** The socket of the item at {@code index}, or null (also for a channel's). */
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
     * Waits up to {@code tout} ms (-1: forever, 0: just checks) until a registered socket or channel is ready for one
     * of its events; returns how many items are ready. Throws {@link ZMQException} with ETERM if a socket is closed
     * (its context terminated), EINTR if the thread is interrupted. 0 once the context is terminated, as JeroMQ; -1
     * once the poller is closed, as JeroMQ's: a {@code poll(-1)} waiting in one thread returns -1 when another closes
     * it.
     */
    public int poll(long tout) {
        if (closed) {
            return -1;
        }
        if (tout < -1 || items.isEmpty()) {
            return 0;
        }
        PollSet s = pollSet();
        try {
            s.poll(tout);
        } catch (java.nio.channels.ClosedSelectorException e) {
            return -1; // the poller was closed while it waited in its selector, as JeroMQ's
        } catch (RuntimeException e) {
            if (closed) {
                return -1;
            }
            if (context.isTerminating()) {
                return 0;
            }
            if (e instanceof io.zmtp.socket.ZmtpSocketException) {
                throw PollerImpl.failure(e);
            }
            throw e;
        }
        if (closed) {
            // Closed while it waited on the sockets alone: the close woke it (ZmtpPoller.close), as JeroMQ's.
            return -1;
        }
        int ready = 0;
        for (ZMQ.PollItem item : items) {
            if (item.update(s)) {
                ready++;
            }
        }
        return ready;
    }

    /** The set of the registered items; rebuilt after a change, keeping its selector. */
    private PollSet pollSet() {
        if (set == null) {
            set = new PollSet();
            dirty = true;
        }
        if (dirty) {
            set.clear();
            for (ZMQ.PollItem item : items) {
                set.add(item);
            }
            dirty = false;
        }
        return set;
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

    /** False for a socket (its errors come out of its calls); true for a channel once it is closed. */
    public boolean pollerr(int index) {
        ZMQ.PollItem item = getItem(index);
        return item != null && item.isError();
    }

    /**
     * Releases the poller's registrations with its sockets and closes its selector, if a poll opened one; a poll
     * waiting in another thread returns -1, and so does every poll after.
     */
    public void close() {
        closed = true;
        PollSet current = set;
        if (current != null) {
            current.close();
            set = null;
        }
        dirty = true;
    }
}
