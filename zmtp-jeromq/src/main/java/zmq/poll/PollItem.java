package zmq.poll;

import zmq.SocketBase;
import zmq.ZMQ;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

/**
 * A socket or a java.nio channel and the events to poll it for, as JeroMQ 0.6.0's {@code zmq.poll.PollItem}: what
 * {@code ZPoller.ItemHolder.item()} returns, and what a custom {@code ZPoller.ItemCreator} makes.
 *
 * <p>It describes an item; it is not what the pollers of {@code org.zeromq} fill in: they report readiness on
 * {@code ZMQ.PollItem} and {@code ZPoller}. {@link #readyOps(SelectionKey, int)} computes it here, as JeroMQ's: a
 * socket's from its {@code ZMQ_EVENTS}, a channel's from its selection key. A socket has no descriptor behind it
 * ({@link #getChannel()} is null for one).
 */
public class PollItem {
    private final SocketBase socket;
    private final SelectableChannel channel;
    private int zinterest;
    private int interest;
    private int ready;

    /** {@code socket} polled for {@code ops}, a mask of {@code ZMQ_POLLIN}, {@code ZMQ_POLLOUT}, {@code ZMQ_POLLERR}. */
    public PollItem(SocketBase socket, int ops) {
        this(socket, null, ops);
    }

    /** {@code channel} polled for {@code ops}, a mask of {@code ZMQ_POLLIN}, {@code ZMQ_POLLOUT}, {@code ZMQ_POLLERR}. */
    public PollItem(SelectableChannel channel, int ops) {
        this(null, channel, ops);
    }

    private PollItem(SocketBase socket, SelectableChannel channel, int ops) {
        this.socket = socket;
        this.channel = channel;
        interestOps(ops);
    }

    public boolean isReadable() {
        return (ready & ZMQ.ZMQ_POLLIN) != 0;
    }

    public boolean isWritable() {
        return (ready & ZMQ.ZMQ_POLLOUT) != 0;
    }

    public boolean isError() {
        return (ready & ZMQ.ZMQ_POLLERR) != 0;
    }

    /** The socket polled, or null for a channel. */
    public SocketBase getSocket() {
        return socket;
    }

    /** The channel polled, or null for a socket. */
    public SelectableChannel getRawSocket() {
        return channel;
    }

    /** The channel to select on: the polled channel, null for a socket (no descriptor stands behind one). */
    public SelectableChannel getChannel() {
        return channel;
    }

    /** The interest as selection-key operations: POLLIN is {@code OP_READ}, POLLOUT {@code OP_WRITE} (a channel's). */
    public int interestOps() {
        return interest;
    }

    /** The interest as given: a mask of {@code ZMQ_POLLIN}, {@code ZMQ_POLLOUT}, {@code ZMQ_POLLERR}. */
    public int zinterestOps() {
        return zinterest;
    }

    /** Whether the interest has one of {@code events}. */
    public boolean hasEvent(int events) {
        return (zinterest & events) != 0;
    }

    /** Sets the interest to {@code ops} and forgets the ready events; the interest as selection-key operations. */
    public int interestOps(int ops) {
        zinterest = ops;
        int keyOps = 0;
        if ((ops & ZMQ.ZMQ_POLLIN) != 0) {
            keyOps |= SelectionKey.OP_READ;
        }
        // A socket's readiness to send is not a key operation: JeroMQ waits on its mailbox, so OP_READ.
        if ((ops & ZMQ.ZMQ_POLLOUT) != 0) {
            keyOps |= socket != null ? SelectionKey.OP_READ : SelectionKey.OP_WRITE;
        }
        interest = keyOps;
        ready = 0;
        return interest;
    }

    /**
     * Computes the ready events: a socket's from its {@code ZMQ_EVENTS} (within the interest), a channel's from
     * {@code key} when {@code nevents} is positive (POLLERR when the key is no longer valid); the ready events, -1
     * if the socket's events can't be read.
     */
    public int readyOps(SelectionKey key, int nevents) {
        ready = 0;
        if (socket != null) {
            int events = socket.getSocketOpt(ZMQ.ZMQ_EVENTS);
            if (events < 0) {
                return -1;
            }
            ready = events & zinterest & (ZMQ.ZMQ_POLLIN | ZMQ.ZMQ_POLLOUT);
        } else if (nevents > 0 && key != null) {
            if (!key.isValid()) {
                ready = ZMQ.ZMQ_POLLERR;
            } else {
                if (key.isReadable() || key.isAcceptable()) {
                    ready |= ZMQ.ZMQ_POLLIN;
                }
                if (key.isWritable() || key.isConnectable()) {
                    ready |= ZMQ.ZMQ_POLLOUT;
                }
            }
        }
        return ready;
    }

    /** The events found ready by the last {@link #readyOps(SelectionKey, int)}. */
    public int readyOps() {
        return ready;
    }
}
