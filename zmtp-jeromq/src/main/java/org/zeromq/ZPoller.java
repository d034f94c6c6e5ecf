package org.zeromq;

import io.zmtp.socket.ZmtpSocketException;
import zmq.util.function.BiFunction;

import java.io.Closeable;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A poller with handlers (JeroMQ's ZPoller): register sockets and java.nio channels for events, each with a handler
 * (or the global one), then {@link #poll(long)} waits and calls the handlers of the ready ones. Sockets are waited
 * on through their wake-up signal, never a loop of short sleeps; a poll that has a channel waits in a
 * {@link Selector} of the poller's own, which the sockets wake (see {@link PollSet}), opened by the first such poll and
 * closed by {@link #close()}. Channels must be in non-blocking mode when polled, as in JeroMQ.
 *
 * <p>Registrations go through an {@link ItemCreator} ({@link SimpleCreator} unless given): each makes an
 * {@link ItemHolder}, and the holders of one socket or channel are polled together for the union of their events,
 * an equal holder only once. POLLERR is reported only for a closed channel. A {@code Selector} given to a constructor
 * is not used, nor is a shadowed poller's: each poller has its own. Used from one thread.
 */
public class ZPoller implements Closeable {
    /** Called with a ready socket (or channel) and its ready events; false stops the dispatch. */
    public interface EventsHandler {
        boolean events(ZMQ.Socket socket, int events);

        boolean events(SelectableChannel channel, int events);
    }

    /** An EventsHandler of two functions, one for sockets and one for channels (a null one goes on). */
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

    /** A registration: what is polled for which events ({@link #item()}), and its handler (null: the global one). */
    public interface ItemHolder {
        zmq.poll.PollItem item();

        ZMQ.Socket socket();

        EventsHandler handler();
    }

    /** Makes the holders of registrations; give one to a constructor to register holders of your own. */
    public interface ItemCreator {
        ItemHolder create(ZMQ.Socket socket, EventsHandler handler, int events);

        ItemHolder create(SelectableChannel channel, EventsHandler handler, int events);
    }

    /** The holders {@link SimpleCreator} makes: a poll item with a handler. */
    public static class ZPollItem extends ZMQ.PollItem implements ItemHolder {
        private final EventsHandler handler;

        public ZPollItem(final ZMQ.Socket socket, final EventsHandler handler, final int ops) {
            super(socket, ops);
            this.handler = handler;
        }

        public ZPollItem(final SelectableChannel channel, final EventsHandler handler, final int ops) {
            super(channel, ops);
            this.handler = handler;
        }

        @Override
        public zmq.poll.PollItem item() {
            return base();
        }

        @Override
        public ZMQ.Socket socket() {
            return getSocket();
        }

        @Override
        public EventsHandler handler() {
            return handler;
        }

        @Override
        public int hashCode() {
            return Objects.hash(getRawSocket(), socket(), handler);
        }

        /** The same channel, socket and handler, whatever the events (as JeroMQ's). */
        @Override
        public boolean equals(final Object obj) {
            if (this == obj) {
                return true;
            }
            if (!(obj instanceof ItemHolder)) {
                return false;
            }
            ItemHolder other = (ItemHolder) obj;
            return other.item() != null && Objects.equals(getRawSocket(), other.item().getRawSocket())
                    && Objects.equals(socket(), other.socket()) && Objects.equals(handler, other.handler());
        }
    }

    /** Makes {@link ZPollItem}s. */
    public static class SimpleCreator implements ItemCreator {
        @Override
        public ItemHolder create(final ZMQ.Socket socket, final EventsHandler handler, final int events) {
            return new ZPollItem(socket, handler, events);
        }

        @Override
        public ItemHolder create(final SelectableChannel channel, final EventsHandler handler, final int events) {
            return new ZPollItem(channel, handler, events);
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

    private final ItemCreator creator;
    /** By socket or channel, in the order first registered. */
    private final Map<Object, CompositePollItem> items = new LinkedHashMap<>();
    private volatile EventsHandler globalHandler;
    private PollSet set;
    private boolean dirty = true;

    /** A poller with the item creator of {@code poller} (not its registrations, nor its global handler). */
    public ZPoller(final ZPoller poller) {
        this(poller.creator, poller);
    }

    /** A poller; {@code selector} is not used (the poller opens its own when it polls a channel). */
    public ZPoller(final Selector selector) {
        this(new SimpleCreator(), Objects.requireNonNull(selector, "Selector is mandatory for ZPoller"));
    }

    /** A poller for sockets of {@code context}. */
    public ZPoller(final ZContext context) {
        this(new SimpleCreator(), context);
    }

    /** A poller whose holders {@code creator} makes; {@code poller} is not shared. */
    public ZPoller(final ItemCreator creator, final ZPoller poller) {
        this(creator, (Object) Objects.requireNonNull(poller, "poller"));
    }

    /** A poller whose holders {@code creator} makes, for sockets of {@code context}. */
    public ZPoller(final ItemCreator creator, final ZContext context) {
        this(creator, (Object) Objects.requireNonNull(context, "context"));
    }

    /** What the constructors share: the creator; the selector, context or poller they were given is not kept. */
    private ZPoller(final ItemCreator creator, final Object notKept) {
        this.creator = Objects.requireNonNull(creator, "Item creator is mandatory for ZPoller");
    }

    /** A holder for {@code socket} from the item creator. */
    protected ItemHolder create(final ZMQ.Socket socket, final EventsHandler handler, final int events) {
        Objects.requireNonNull(socket, "Socket has to be non-null");
        return creator.create(socket, handler, events);
    }

    /** A holder for {@code channel} from the item creator. */
    protected ItemHolder create(final SelectableChannel channel, final EventsHandler handler, final int events) {
        Objects.requireNonNull(channel, "Channel has to be non-null");
        return creator.create(channel, handler, events);
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

    /** Registers {@code socket} for {@code events} with {@code handler}; false for a null socket or a repeat. */
    public final boolean register(final ZMQ.Socket socket, final EventsHandler handler, final int events) {
        if (socket == null) {
            return false;
        }
        return add(socket, create(socket, handler, events));
    }

    public final boolean register(final ZMQ.Socket socket, final EventsHandler handler) {
        return register(socket, handler, POLLIN | POLLOUT | POLLERR);
    }

    /** Registers {@code socket} for {@code events} with the global handler as it is now. */
    public final boolean register(final ZMQ.Socket socket, final int events) {
        return register(socket, globalHandler, events);
    }

    public final boolean register(final SelectableChannel channel,
            final BiFunction<SelectableChannel, Integer, Boolean> handler, final int events) {
        return register(channel, new ComposeEventsHandler(null, handler), events);
    }

    /**
     * Registers {@code channel} (non-blocking when polled) for {@code events} with {@code handler}; false for a null
     * channel or a repeat.
     */
    public final boolean register(final SelectableChannel channel, final EventsHandler handler, final int events) {
        if (channel == null) {
            return false;
        }
        return add(channel, create(channel, handler, events));
    }

    public final boolean register(final SelectableChannel channel, final EventsHandler handler) {
        return register(channel, handler, IN | OUT | ERR);
    }

    /** Registers {@code channel} for {@code events} with the global handler as it is now. */
    public final boolean register(final SelectableChannel channel, final int events) {
        return register(channel, globalHandler, events);
    }

    /** Registers {@code item} for its socket or channel; false if an equal holder is registered. */
    public final boolean register(final ItemHolder item) {
        return add(null, item);
    }

    /** The number of sockets and channels registered. */
    public int registered() {
        return items.size();
    }

    /** Removes every registration of {@code socketOrChannel}; whether there was one. */
    public final synchronized boolean unregister(final Object socketOrChannel) {
        if (socketOrChannel == null || items.remove(socketOrChannel) == null) {
            return false;
        }
        dirty = true;
        return true;
    }

    /**
     * Adds {@code holder} under {@code socketOrChannel} (null: the holder's own socket, else its channel); false if
     * an equal holder is there.
     */
    protected boolean add(final Object socketOrChannel, final ItemHolder holder) {
        Object key = socketOrChannel;
        if (key == null) {
            key = holder.socket() != null ? holder.socket() : holder.item().getRawSocket();
        }
        if (key == null) {
            throw new IllegalArgumentException("Needs a socket or a channel to register");
        }
        boolean added = items.computeIfAbsent(key, k -> new CompositePollItem(this, k)).add(holder);
        dirty |= added;
        return added;
    }

    /** Deprecated and unused: a new set. */
    @Deprecated
    protected Set<ItemHolder> createContainer(int size) {
        return new HashSet<>(size);
    }

    /** A copy of the items: one per socket or channel, holding its registrations. */
    protected Collection<ItemHolder> items() {
        return new ArrayList<>(items.values());
    }

    /** The holders registered for {@code socketOrChannel}; empty if none. */
    protected Iterable<ItemHolder> items(final Object socketOrChannel) {
        CompositePollItem item = socketOrChannel == null ? null : items.get(socketOrChannel);
        return item == null ? Collections.emptySet() : Collections.unmodifiableSet(item.holders());
    }

    /**
     * Waits up to {@code timeout} ms (-1: forever) for a registered socket or channel to be ready, then calls the
     * handlers of the ready ones. Returns the number of ready sockets and channels, or -1 if a handler returned false.
     * Throws {@link ZMQException} with ETERM if a socket is closed, EINTR if the thread is interrupted.
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
        for (CompositePollItem item : items.values()) {
            item.ready = 0;
        }
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
        PollSet s = pollSet();
        try {
            s.poll(timeout);
        } catch (ZmtpSocketException e) {
            throw PollerImpl.failure(e);
        } catch (ClosedSelectorException e) {
            return -1; // closed while it waited, as JeroMQ's
        }
        int n = 0;
        for (CompositePollItem item : items.values()) {
            if (item.update(s)) {
                n++;
            }
        }
        return n;
    }

    /** The set of the registered sockets and channels; rebuilt after a change, keeping its selector. */
    private PollSet pollSet() {
        if (set == null) {
            set = new PollSet();
            dirty = true;
        }
        if (dirty) {
            set.clear();
            for (CompositePollItem item : items.values()) {
                item.addTo(set);
            }
            dirty = false;
        }
        return set;
    }

    /** Calls the handlers of the sockets and channels found ready by the last poll; false if one returned false. */
    public boolean dispatch() {
        return dispatch(new ArrayList<>(items.values()));
    }

    /** Deprecated: {@link #dispatch(Collection)}, {@code size} unused. */
    @Deprecated
    protected boolean dispatch(final Collection<? extends ItemHolder> all, int size) {
        return dispatch(all);
    }

    /**
     * Calls the handler of each of {@code all} (its own, else the global one) with the events the last poll found
     * ready on its socket or channel, within its events; false as soon as one returned false.
     */
    protected boolean dispatch(final Collection<? extends ItemHolder> all) {
        EventsHandler global = globalHandler;
        for (ItemHolder holder : all) {
            EventsHandler handler = holder.handler() != null ? holder.handler() : global;
            SelectableChannel channel = holder.item() == null ? null : holder.item().getRawSocket();
            ZMQ.Socket socket = holder.socket();
            int events = readyOf(holder, socket != null ? socket : channel);
            if (handler == null || events == 0) {
                continue;
            }
            if (socket != null ? !handler.events(socket, events) : !handler.events(channel, events)) {
                return false;
            }
        }
        return true;
    }

    private int readyOf(ItemHolder holder, Object socketOrChannel) {
        if (holder instanceof CompositePollItem) {
            return ((CompositePollItem) holder).ready;
        }
        CompositePollItem item = socketOrChannel == null ? null : items.get(socketOrChannel);
        return item == null || holder.item() == null ? 0 : item.ready & holder.item().zinterestOps();
    }

    private int readyOf(Object socketOrChannel) {
        CompositePollItem item = socketOrChannel == null ? null : items.get(socketOrChannel);
        return item == null ? 0 : item.ready;
    }

    public boolean isReadable(final SelectableChannel channel) {
        return readable((Object) channel);
    }

    public boolean readable(final SelectableChannel channel) {
        return readable((Object) channel);
    }

    public boolean isReadable(final ZMQ.Socket socket) {
        return readable((Object) socket);
    }

    public boolean readable(final ZMQ.Socket socket) {
        return readable((Object) socket);
    }

    /** Whether the socket or channel was readable at the last poll. */
    public boolean readable(final Object socketOrChannel) {
        return (readyOf(socketOrChannel) & POLLIN) != 0;
    }

    public boolean pollin(final ZMQ.Socket socket) {
        return readable((Object) socket);
    }

    public boolean pollin(final SelectableChannel channel) {
        return readable((Object) channel);
    }

    public boolean isWritable(final SelectableChannel channel) {
        return writable((Object) channel);
    }

    public boolean writable(final SelectableChannel channel) {
        return writable((Object) channel);
    }

    public boolean isWritable(final ZMQ.Socket socket) {
        return writable((Object) socket);
    }

    public boolean writable(final ZMQ.Socket socket) {
        return writable((Object) socket);
    }

    /** Whether the socket or channel was writable at the last poll. */
    public boolean writable(final Object socketOrChannel) {
        return (readyOf(socketOrChannel) & POLLOUT) != 0;
    }

    public boolean pollout(final ZMQ.Socket socket) {
        return writable((Object) socket);
    }

    public boolean pollout(final SelectableChannel channel) {
        return writable((Object) channel);
    }

    public boolean isError(final SelectableChannel channel) {
        return error((Object) channel);
    }

    public boolean error(final SelectableChannel channel) {
        return error((Object) channel);
    }

    public boolean isError(final ZMQ.Socket socket) {
        return error((Object) socket);
    }

    public boolean error(final ZMQ.Socket socket) {
        return error((Object) socket);
    }

    /** Whether the last poll found the channel closed; always false for a socket (its errors come out of its calls). */
    public boolean error(final Object socketOrChannel) {
        return (readyOf(socketOrChannel) & POLLERR) != 0;
    }

    public boolean pollerr(final ZMQ.Socket socket) {
        return error((Object) socket);
    }

    public boolean pollerr(final SelectableChannel channel) {
        return error((Object) channel);
    }

    /** Releases the registrations with the sockets and closes the selector, if a poll opened one. */
    @Override
    public void close() {
        destroy();
    }

    public void destroy() {
        if (set != null) {
            set.close();
            set = null;
        }
        dirty = true;
    }
}
