package org.zeromq;

import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * One socket or channel a {@link ZPoller} polls, and every {@link ZPoller.ItemHolder} registered for it: polled for the
 * union of their events, and on dispatch, each holder whose events are among the ready ones gets them (its handler, or
 * the poller's global one), as JeroMQ's composite item. Holders are kept in the order registered, an equal one only
 * once. Used from the poller's thread.
 */
final class CompositePollItem implements ZPoller.ItemHolder, ZPoller.EventsHandler {
    private final ZPoller poller;
    private final ZMQ.Socket socket;
    private final SelectableChannel channel;
    private final Set<ZPoller.ItemHolder> holders = new LinkedHashSet<>();
    private zmq.poll.PollItem item;
    /** The events found ready by the poller's last poll. */
    int ready;

    CompositePollItem(ZPoller poller, Object socketOrChannel) {
        this.poller = poller;
        this.socket = socketOrChannel instanceof ZMQ.Socket ? (ZMQ.Socket) socketOrChannel : null;
        this.channel = socketOrChannel instanceof SelectableChannel ? (SelectableChannel) socketOrChannel : null;
        if (socket == null && channel == null) {
            throw new IllegalArgumentException("Needs a socket or a channel to register, not " + socketOrChannel);
        }
    }

    /** Adds {@code holder}; false if an equal one is there. */
    boolean add(ZPoller.ItemHolder holder) {
        if (!holders.add(holder)) {
            return false;
        }
        item = null;
        return true;
    }

    /** The holders registered for this socket or channel. */
    Set<ZPoller.ItemHolder> holders() {
        return holders;
    }

    /** The union of the holders' events. */
    int interest() {
        int ops = 0;
        for (ZPoller.ItemHolder holder : holders) {
            ops |= holder.item().zinterestOps();
        }
        return ops;
    }

    /** Adds this socket or channel, for the holders' events, to {@code set}. */
    void addTo(PollSet set) {
        if (socket != null) {
            set.add(socket, interest());
        } else {
            set.add(channel, interest());
        }
    }

    /** Takes the ready events from {@code set}'s last poll; whether any is. */
    boolean update(PollSet set) {
        ready = socket != null ? set.readyOps(socket) : set.readyOps(channel);
        return ready != 0;
    }

    /** A poll item for the union of the holders' events (its own readiness is not filled in: see {@link #ready}). */
    @Override
    public zmq.poll.PollItem item() {
        if (item == null) {
            item = socket != null ? new zmq.poll.PollItem(socket.base(), interest())
                    : new zmq.poll.PollItem(channel, interest());
        }
        return item;
    }

    @Override
    public ZMQ.Socket socket() {
        return socket;
    }

    /** Itself: it hands the events to its holders' handlers. */
    @Override
    public ZPoller.EventsHandler handler() {
        return this;
    }

    @Override
    public boolean events(ZMQ.Socket s, int events) {
        return handOut(h -> h.events(s, events), events);
    }

    @Override
    public boolean events(SelectableChannel c, int events) {
        return handOut(h -> h.events(c, events), events);
    }

    /**
     * Calls the handler of each holder interested in one of {@code events}, all of them even after one returned
     * false (as JeroMQ); whether none returned false. (JeroMQ's also stops when no holder is interested, which its
     * readiness never allows; here a closed channel is in error whatever its holders' events, and that goes on.)
     */
    private boolean handOut(Function<ZPoller.EventsHandler, Boolean> call, int events) {
        boolean goOn = true;
        ZPoller.EventsHandler global = poller.getGlobalHandler();
        for (ZPoller.ItemHolder holder : new ArrayList<>(holders)) {
            if (!holder.item().hasEvent(events)) {
                continue;
            }
            ZPoller.EventsHandler handler = holder.handler() != null ? holder.handler() : global;
            if (handler != null && !call.apply(handler)) {
                goOn = false;
            }
        }
        return goOn;
    }
}
