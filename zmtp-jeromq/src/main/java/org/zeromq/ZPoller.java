package org.zeromq;

import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocketException;

import java.io.Closeable;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A poller with handlers (JeroMQ's ZPoller): register sockets for events, each with a handler (or the global one),
 * then {@link #poll(long)} waits and calls the handler of each ready socket. Waiting is on the sockets' wake-up
 * signal (netty-zmtp's {@link ZmtpPoller}), never a loop of short sleeps.
 *
 * <p>Sockets only: JeroMQ's {@code SelectableChannel} registrations, and its {@code ItemHolder}/{@code ItemCreator}
 * plumbing (which exposes JeroMQ's internal poll items), are absent; see docs/jeromq.md. POLLERR is never reported.
 * Used from one thread.
 */
public class ZPoller implements Closeable {
    /** Called with a ready socket (or channel) and its ready events; false stops the dispatch. */
    public interface EventsHandler {
        boolean events(ZMQ.Socket socket, int events);

        boolean events(SelectableChannel channel, int events);
    }

    /** An EventsHandler of two functions, one for sockets and one for channels. */
    public static class ComposeEventsHandler implements EventsHandler {
        private final BiFunction<ZMQ.Socket, Integer, Boolean> sockets;
        private final BiFunction<SelectableChannel, Integer, Boolean> channels;

        public ComposeEventsHandler(BiFunction<ZMQ.Socket, Integer, Boolean> sockets,
                BiFunction<SelectableChannel, Integer, Boolean> channels) {
            this.sockets = sockets;
            this.channels = channels;
        }

        @Override
        public boolean events(ZMQ.Socket socket, int events) {
            return sockets == null || sockets.apply(socket, events);
        }

        @Override
        public boolean events(SelectableChannel channel, int events) {
            return channels == null || channels.apply(channel, events);
        }
    }

    public static final int POLLIN = ZMQ.Poller.POLLIN;
    public static final int POLLOUT = ZMQ.Poller.POLLOUT;
    public static final int POLLERR = ZMQ.Poller.POLLERR;
    public static final int IN = POLLIN;
    public static final int OUT = POLLOUT;
    public static final int ERR = POLLERR;
    public static final int READABLE = POLLIN;
    public static final int WRITABLE = POLLOUT;

    /** One registration: a handler (null: the global one) and its events. */
    private static final class Registration {
        final EventsHandler handler;
        final int events;

        Registration(EventsHandler handler, int events) {
            this.handler = handler;
            this.events = events;
        }
    }

    private final Map<ZMQ.Socket, List<Registration>> items = new LinkedHashMap<>();
    private final Map<ZMQ.Socket, Integer> ready = new LinkedHashMap<>();
    private volatile EventsHandler globalHandler;
    private ZmtpPoller poller;
    private boolean dirty = true;

    /** A poller ({@code poller} is not shared: each ZPoller has its own registrations). */
    public ZPoller(final ZPoller poller) {
        Objects.requireNonNull(poller, "poller");
    }

    /** A poller; {@code selector} is not used (sockets are polled on their own signals). */
    public ZPoller(final Selector selector) {
        Objects.requireNonNull(selector, "Selector is mandatory for ZPoller");
    }

    /** A poller for sockets of {@code context}. */
    public ZPoller(final ZContext context) {
        Objects.requireNonNull(context, "context");
    }

    /** The handler of registrations made without one. */
    public void setGlobalHandler(final EventsHandler globalHandler) {
        this.globalHandler = globalHandler;
    }

    public EventsHandler getGlobalHandler() {
        return globalHandler;
    }

    public final boolean register(final ZMQ.Socket socket, final BiFunction<ZMQ.Socket, Integer, Boolean> handler,
            final int events) {
        return register(socket, new ComposeEventsHandler(handler, null), events);
    }

    /** Registers {@code socket} for {@code events} with {@code handler}; false for a null socket. */
    public final boolean register(final ZMQ.Socket socket, final EventsHandler handler, final int events) {
        if (socket == null) {
            return false;
        }
        items.computeIfAbsent(socket, s -> new ArrayList<>()).add(new Registration(handler, events));
        dirty = true;
        return true;
    }

    public final boolean register(final ZMQ.Socket socket, final EventsHandler handler) {
        return register(socket, handler, POLLIN | POLLOUT | POLLERR);
    }

    public final boolean register(final ZMQ.Socket socket, final int events) {
        return register(socket, (EventsHandler) null, events);
    }

    /** The number of sockets registered. */
    public int registered() {
        return items.size();
    }

    /** Removes every registration of {@code socketOrChannel}; whether there was one. */
    public final synchronized boolean unregister(final Object socketOrChannel) {
        if (socketOrChannel == null || items.remove(socketOrChannel) == null) {
            return false;
        }
        ready.remove(socketOrChannel);
        dirty = true;
        return true;
    }

    /**
     * Waits up to {@code timeout} ms (-1: forever) for a registered socket to be ready, then calls the handlers of
     * the ready ones. Returns the number of ready sockets, or -1 if a handler returned false. Throws
     * {@link ZMQException} with ETERM if a socket is closed, EINTR if the thread is interrupted.
     */
    public int poll(final long timeout) {
        return poll(timeout, true);
    }

    protected int poll(final long timeout, final boolean dispatchEvents) {
        int n = pollOnly(timeout);
        if (!dispatchEvents) {
            return n;
        }
        return dispatch() ? n : -1;
    }

    private int pollOnly(long timeout) {
        ready.clear();
        if (items.isEmpty()) {
            if (timeout != 0) {
                try {
                    Thread.sleep(timeout < 0 ? Long.MAX_VALUE : timeout);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ZMQException("interrupted in poll", ErrorCodes.EINTR, e);
                }
            }
            return 0;
        }
        ZmtpPoller p = poller();
        Duration wait = timeout < 0 ? null : Duration.ofMillis(timeout);
        for (Map.Entry<ZMQ.Socket, List<Registration>> e : items.entrySet()) {
            if ((interestOf(e.getValue()) & POLLIN) != 0 && e.getKey().hasReceiveMore()) {
                // Frames of a message begun with recv make the socket readable; netty-zmtp's poller can't see them.
                wait = Duration.ZERO;
                break;
            }
        }
        try {
            p.poll(wait);
        } catch (ZmtpSocketException e) {
            throw PollerImpl.failure(e);
        }
        int n = 0;
        for (Map.Entry<ZMQ.Socket, List<Registration>> e : items.entrySet()) {
            ZMQ.Socket s = e.getKey();
            int interest = interestOf(e.getValue());
            int r = 0;
            if ((interest & POLLIN) != 0 && (s.hasReceiveMore() || p.isReadable(s.zmtpSocket()))) {
                r |= POLLIN;
            }
            if ((interest & POLLOUT) != 0 && p.isWritable(s.zmtpSocket())) {
                r |= POLLOUT;
            }
            if (r != 0) {
                ready.put(s, r);
                n++;
            }
        }
        return n;
    }

    private ZmtpPoller poller() {
        if (dirty || poller == null) {
            if (poller != null) {
                poller.close();
            }
            List<ZMQ.PollItem> list = new ArrayList<>();
            items.forEach((s, regs) -> list.add(new ZMQ.PollItem(s, interestOf(regs))));
            poller = PollerImpl.newPoller(list);
            dirty = false;
        }
        return poller;
    }

    private static int interestOf(List<Registration> regs) {
        int interest = 0;
        for (Registration r : regs) {
            interest |= r.events;
        }
        return interest;
    }

    /** Calls the handlers of the sockets found ready by the last poll; false if one returned false. */
    public boolean dispatch() {
        EventsHandler global = globalHandler;
        for (Map.Entry<ZMQ.Socket, Integer> e : new ArrayList<>(ready.entrySet())) {
            List<Registration> regs = items.get(e.getKey());
            if (regs == null) {
                continue;
            }
            int events = e.getValue();
            for (Registration r : new ArrayList<>(regs)) {
                if ((r.events & events) == 0) {
                    continue;
                }
                EventsHandler h = r.handler != null ? r.handler : global;
                if (h != null && !h.events(e.getKey(), events)) {
                    return false;
                }
            }
        }
        return true;
    }

    public boolean isReadable(final ZMQ.Socket socket) {
        return readable(socket);
    }

    public boolean readable(final ZMQ.Socket socket) {
        return readable((Object) socket);
    }

    /** Whether the socket was readable at the last poll. */
    public boolean readable(final Object socketOrChannel) {
        return (ready.getOrDefault(socketOrChannel, 0) & POLLIN) != 0;
    }

    public boolean pollin(final ZMQ.Socket socket) {
        return readable(socket);
    }

    public boolean isWritable(final ZMQ.Socket socket) {
        return writable(socket);
    }

    public boolean writable(final ZMQ.Socket socket) {
        return writable((Object) socket);
    }

    /** Whether the socket was writable at the last poll. */
    public boolean writable(final Object socketOrChannel) {
        return (ready.getOrDefault(socketOrChannel, 0) & POLLOUT) != 0;
    }

    public boolean pollout(final ZMQ.Socket socket) {
        return writable(socket);
    }

    /** Always false: errors come out of the sockets' calls. */
    public boolean isError(final ZMQ.Socket socket) {
        return false;
    }

    public boolean error(final ZMQ.Socket socket) {
        return false;
    }

    public boolean error(final Object socketOrChannel) {
        return false;
    }

    public boolean pollerr(final ZMQ.Socket socket) {
        return false;
    }

    /** Releases the registrations with the sockets. */
    @Override
    public void close() {
        destroy();
    }

    public void destroy() {
        if (poller != null) {
            poller.close();
            poller = null;
        }
        dirty = true;
    }
}
