package io.zmtp.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.internal.ConnectionEvent;
import io.zmtp.socket.internal.Peer;
import io.zmtp.socket.internal.Pipe;
import io.zmtp.socket.internal.SocketBase;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A ZeroMQ socket of one of the twelve standard types, made by {@link ZmtpContext#socket}.
 *
 * <h2>Ownership</h2>
 * Every send method takes ownership of the message: the library releases it whether it is sent, dropped (PUB at
 * HWM, unroutable ROUTER message), refused ({@code false}, a timeout) or rejected with an exception. Every receive
 * method hands ownership of the returned message to the caller, who must release it.
 *
 * <h2>Which send and receive</h2>
 * {@link #send(ZmtpMessage)} and {@link #receive()} move {@link ZmtpMessage}s whose frames are Netty buffers: no
 * copy on the way in or out, and the receiver releases what it gets. That is the fast path, and what a Netty
 * application wants. {@link #send(String...)}, {@link #send(byte[]...)}, {@link #receiveString()} and
 * {@link #receiveBytes()} copy, and leave nothing to release: the common case for code ported from JeroMQ or pyzmq,
 * where a few allocations per message don't matter. They receive a frame at a time, as those libraries do
 * ({@link #hasReceiveMore()}); don't mix them with {@link #receiveAsync()} for the same message.
 *
 * <h2>Queues</h2>
 * Each peer has an outbound queue of at most SNDHWM messages and an inbound queue of about RCVHWM messages (when it
 * is full the socket stops reading that peer's connection, so the peer's own queue fills). What a full outbound
 * queue does depends on the type: PUSH, DEALER, REQ and PAIR wait (or {@code trySend} returns false); PUB, XPUB and
 * XSUB drop for that peer and count it ({@link #droppedCount()}); ROUTER drops, or with ROUTER_MANDATORY waits.
 * A connecting socket queues messages for a peer that isn't up yet (unless IMMEDIATE) and delivers them when it
 * connects.
 *
 * <h2>Threads</h2>
 * Every method may be called from any thread. Sends and receives are serialised by a socket-level lock that no I/O
 * thread ever takes; a blocked call waits outside it. Guarantees: a multipart message is sent and received whole;
 * messages sent by one thread to one peer keep their order; messages from one peer are received in order. Which
 * peer a message goes to, when several threads send concurrently, is unspecified. An interrupted blocking call
 * throws {@link ZmtpSocketException.Interrupted} and leaves the socket usable.
 */
public final class ZmtpSocket implements AutoCloseable {
    private final SocketBase impl;
    /** Guards {@code partial}; application threads only. */
    private final Object partialLock = new Object();
    /** Frames of a message received frame by frame, not yet taken; volatile for takeRest's check without the lock. */
    private volatile ZmtpMessage partial;
    private final Map<Consumer<ZmtpSocketEvent>, Consumer<ConnectionEvent>> monitors = new ConcurrentHashMap<>();

    ZmtpSocket(SocketBase impl) {
        this.impl = impl;
    }

    public ZmtpSocketType type() {
        return impl.type();
    }

    /**
     * Listens on {@code endpoint} ({@code tcp://host:port}, {@code tcp://*:port}, {@code tcp://127.0.0.1:*}) and
     * returns the endpoint actually bound, e.g. {@code tcp://127.0.0.1:54321}. An inproc name is bound when this
     * returns: a connect that follows, on any thread, joins it (see {@link #connect}).
     */
    public String bind(String endpoint) {
        return impl.bind(endpoint);
    }

    /**
     * Stops listening on an endpoint and closes the connections it accepted. The endpoint may be given as
     * {@link #bind} returned it, as it was passed to bind, or for tcp in an equivalent form ({@code tcp://*:5555} for
     * the listener on {@code tcp://0.0.0.0:5555}); a string that names several listeners (one
     * {@code tcp://127.0.0.1:*} bound twice) stops them all.
     */
    public void unbind(String endpoint) {
        impl.unbind(endpoint);
    }

    /**
     * Connects to {@code endpoint} and keeps reconnecting (RECONNECT_IVL/RECONNECT_IVL_MAX) until disconnected. To an
     * inproc name that is bound, it returns once the connection is joined, as libzmq's does: what is sent next is the
     * peer's even if this socket is then closed with LINGER 0. (Or once the peer refused it: a PAIR that has a peer,
     * socket types that don't match; five seconds at most in any case.)
     */
    public void connect(String endpoint) {
        impl.connect(endpoint);
    }

    /**
     * PEER: connects to {@code endpoint}, as {@link #connect} does, and returns the routing id of the peer there, to
     * send to it with {@link ZmtpMessage#routingId(int)} at once (messages wait until the connection is up). libzmq's
     * {@code zmq_connect_peer}. Other types throw {@link ZmtpSocketException.IllegalState}.
     */
    public int connectPeer(String endpoint) {
        return impl.connectPeer(endpoint);
    }

    /**
     * DISH: joins {@code group} (1 to 255 bytes in UTF-8): messages a RADIO sends to it arrive from now on, with
     * {@link ZmtpMessage#group()} set. A group joined already is refused ({@link IllegalArgumentException}, libzmq's
     * EINVAL). Other types throw {@link ZmtpSocketException.IllegalState}.
     */
    public void join(String group) {
        impl.joinGroup(Objects.requireNonNull(group, "group"), true);
    }

    /** DISH: leaves {@code group}; one not joined is refused ({@link IllegalArgumentException}). */
    public void leave(String group) {
        impl.joinGroup(Objects.requireNonNull(group, "group"), false);
    }

    /** Drops a connection made with {@link #connect} (same string) and what was queued for it. */
    public void disconnect(String endpoint) {
        impl.disconnect(endpoint);
    }

    /** Sends, blocking while the message can't be queued. Takes ownership of {@code msg}. */
    public void send(ZmtpMessage msg) {
        impl.send(Objects.requireNonNull(msg, "msg"), -1);
    }

    /** Sends, waiting at most {@code timeout}; false if it timed out (the message is released). */
    public boolean send(ZmtpMessage msg, Duration timeout) {
        return impl.send(Objects.requireNonNull(msg, "msg"), timeout.toNanos());
    }

    /** Sends if that can be done without waiting; false otherwise (the message is released). */
    public boolean trySend(ZmtpMessage msg) {
        return impl.send(Objects.requireNonNull(msg, "msg"), 0);
    }

    /**
     * Sends without blocking the caller: completes once the message is queued, or exceptionally (e.g.
     * {@link ZmtpSocketException.Closed}). Async sends from one thread are queued in order. When the message can be
     * queued at once (room, nothing queued before it) the stage is complete when this returns; otherwise completion
     * runs on an internal thread. Don't block in a completion.
     */
    public CompletionStage<Void> sendAsync(ZmtpMessage msg) {
        return impl.sendAsync(Objects.requireNonNull(msg, "msg"));
    }

    /**
     * Sends as {@link #send(ZmtpMessage)} does (waiting for room under the BLOCK policy), and returns a stage that
     * tells whether the message reached the wire: it completes once the message has been written to the OS (the
     * connection's kernel buffer over tcp and ipc, the peer's socket over inproc), and fails with
     * {@link ZmtpSocketException.NotDelivered} when it never will be: dropped by the overflow policy, unroutable,
     * cleared, its peer gone or the socket closed first. For PUB it completes when every subscriber's copy that was
     * queued is written. What would make {@code send} throw (closed, QueueFull under FAIL, a REQ out of turn) fails
     * the stage instead. Takes ownership of {@code msg}.
     *
     * <p>Only these sends pay for tracking (a small wrapper and a promise; the message is written on its own rather
     * than in a batch); plain sends are untouched. Completion runs on an I/O thread: don't block in it.
     */
    public CompletionStage<Void> sendTracked(ZmtpMessage msg) {
        return impl.sendTracked(Objects.requireNonNull(msg, "msg"));
    }

    /**
     * Receives, blocking until a message arrives. If frames of a message are still to be taken after
     * {@link #receiveString()} or {@link #receiveBytes()}, returns a message of those frames.
     */
    public ZmtpMessage receive() {
        ZmtpMessage rest = takeRest();
        return rest != null ? rest : impl.receive(-1);
    }

    /** Receives, waiting at most {@code timeout}; null if none arrived. */
    public ZmtpMessage receive(Duration timeout) {
        ZmtpMessage rest = takeRest();
        return rest != null ? rest : impl.receive(timeout.toNanos());
    }

    /** A message if one is ready, else null. */
    public ZmtpMessage tryReceive() {
        ZmtpMessage rest = takeRest();
        return rest != null ? rest : impl.receive(0);
    }

    // ---- frame by frame, copied: for code written against JeroMQ or pyzmq

    /** Sends a message of UTF-8 strings, one frame each, blocking while it can't be queued. */
    public void send(String... frames) {
        send(ZmtpMessage.of(frames));
    }

    /**
     * Sends a message of byte arrays, one frame each, blocking while it can't be queued. The arrays are copied, so
     * the caller may reuse them at once.
     */
    public void send(byte[]... frames) {
        ByteBuf[] bufs = new ByteBuf[frames.length];
        for (int i = 0; i < frames.length; i++) {
            bufs[i] = Unpooled.copiedBuffer(frames[i]);
        }
        send(bufs.length == 0 ? ZmtpMessage.create() : ZmtpMessage.wrap(bufs));
    }

    /**
     * Receives the next frame as a UTF-8 string, blocking until there is one. As with JeroMQ's {@code recvStr} and
     * pyzmq's {@code recv_string}, a multipart message comes a frame per call: {@link #hasReceiveMore()} says whether
     * frames of it are left. Nothing to release.
     */
    public String receiveString() {
        ByteBuf frame = receiveFrame(-1);
        try {
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }

    /** Receives the next frame as a UTF-8 string, waiting at most {@code timeout}; null if none arrived. */
    public String receiveString(Duration timeout) {
        ByteBuf frame = receiveFrame(timeout.toNanos());
        if (frame == null) {
            return null;
        }
        try {
            return frame.toString(StandardCharsets.UTF_8);
        } finally {
            frame.release();
        }
    }

    /** Receives the next frame as a copy of its bytes, blocking until there is one; see {@link #receiveString()}. */
    public byte[] receiveBytes() {
        ByteBuf frame = receiveFrame(-1);
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** Receives the next frame as a copy of its bytes, waiting at most {@code timeout}; null if none arrived. */
    public byte[] receiveBytes(Duration timeout) {
        ByteBuf frame = receiveFrame(timeout.toNanos());
        if (frame == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /**
     * Whether the message whose first frames {@link #receiveString()} or {@link #receiveBytes()} returned has
     * frames left (libzmq's ZMQ_RCVMORE).
     */
    public boolean hasReceiveMore() {
        synchronized (partialLock) {
            return partial != null;
        }
    }

    /** The next frame (the caller releases it), or null on timeout. */
    private ByteBuf receiveFrame(long timeoutNanos) {
        ZmtpMessage m = takeRest();
        if (m == null) {
            // Not under partialLock: a blocked receive must not hold up other threads.
            m = impl.receive(timeoutNanos);
            if (m == null) {
                return null;
            }
        }
        ByteBuf first = m.removeFirst();
        if (m.size() > 0) {
            synchronized (partialLock) {
                partial = m;
            }
        } else {
            m.release();
        }
        return first;
    }

    /** The frames of a message still to be taken after a frame-by-frame receive, as a message; or null. */
    private ZmtpMessage takeRest() {
        if (partial == null) {
            // The common case, on every receive: no lock.
            return null;
        }
        synchronized (partialLock) {
            ZmtpMessage m = partial;
            partial = null;
            return m;
        }
    }

    /**
     * Completes with the next message, which the caller then owns; if the future was cancelled or completed by
     * someone else first, the message is released. Completion runs on an internal thread; don't block in it.
     */
    public CompletionStage<ZmtpMessage> receiveAsync() {
        return impl.receiveAsync();
    }

    public <T> void setOption(ZmtpSocketOption<T> option, T value) {
        impl.setOption(option, value);
    }

    public <T> T getOption(ZmtpSocketOption<T> option) {
        return impl.getOption(option);
    }

    /**
     * Messages dropped so far: at a peer's HWM under a dropping overflow policy (PUB, XPUB, XSUB and ROUTER by
     * default), unroutable (ROUTER), cleared ({@link #clearOutgoing()}), or queued for a peer that went away.
     */
    public long droppedCount() {
        return impl.droppedCount();
    }

    /**
     * Adds a listener for this socket's events ({@link ZmtpSocketEvent.Type}: listening, connections, handshakes,
     * reconnections, disconnections, drops, close), delivered one at a time and in the order they happened. It runs
     * on an I/O thread (or the thread in {@code bind} or {@code close}): it must not block or call this socket's
     * blocking methods.
     */
    public void monitor(Consumer<ZmtpSocketEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<ConnectionEvent> adapter = e -> listener.accept(new ZmtpSocketEvent(e));
        if (monitors.putIfAbsent(listener, adapter) == null) {
            impl.addMonitor(adapter);
        }
    }

    /**
     * libzmq's {@code zmq_socket_monitor}: binds a PAIR socket to {@code endpoint} (an {@code inproc://} name) and
     * sends it this socket's events in libzmq's format, two frames per event (a 6-byte frame with the event number
     * and value as little-endian u16 and u32, then the endpoint), for code ported from libzmq, pyzmq or JeroMQ. Connect
     * a PAIR of the same context to read them. {@code events} picks which (none given: all); events libzmq doesn't
     * have (PROTOCOL_ERROR, MESSAGES_DROPPED) are not sent. The monitor stops, with MONITOR_STOPPED, when this socket
     * closes.
     */
    public void monitor(String endpoint, ZmtpSocketEvent.Type... events) {
        Objects.requireNonNull(endpoint, "endpoint");
        java.util.Set<ZmtpSocketEvent.Type> set = events.length == 0
                ? java.util.EnumSet.allOf(ZmtpSocketEvent.Type.class)
                : java.util.EnumSet.copyOf(java.util.Arrays.asList(events));
        io.zmtp.socket.internal.LibzmqMonitor.start(impl, endpoint, set);
    }

    /** Removes a listener added with {@link #monitor}. */
    public void unmonitor(Consumer<ZmtpSocketEvent> listener) {
        Consumer<ConnectionEvent> adapter = monitors.remove(listener);
        if (adapter != null) {
            impl.removeMonitor(adapter);
        }
    }

    boolean isClosed() {
        return impl.isClosed();
    }

    boolean pollIn() {
        return impl.pollIn();
    }

    boolean pollOut() {
        return impl.pollOut();
    }

    SocketBase impl() {
        return impl;
    }

    /** Closes with LINGER; idempotent. Blocked calls on other threads throw {@link ZmtpSocketException.Closed}. */
    @Override
    public void close() {
        impl.close();
        ZmtpMessage rest = takeRest();
        if (rest != null) {
            rest.release();
        }
    }

    // ---- peers and queues

    /**
     * A snapshot of this socket's peers: the endpoints it connects to (whatever their connection's state) and the
     * connections it accepted whose handshake completed, each with its {@link ZmtpPeer#state()}. Empty once closed.
     */
    public List<ZmtpPeer> peers() {
        return List.copyOf(impl.peers());
    }

    /**
     * The peer the message last returned by a receive on this socket came from; null before any, or when it came
     * from no one peer (an XPUB's subscription messages). Costs nothing when not called: the socket keeps a
     * reference, and no object is made per message. It answers for the latest receive: call it on the thread that
     * received (or one that the receive's completion happened before) and before receiving again, as with
     * libzmq's {@code ZMQ_RCVMORE}.
     */
    public ZmtpPeer lastPeer() {
        return impl.lastPeer();
    }

    /**
     * ROUTER (and STREAM): sends {@code msg} (without its routing-id frame) to {@code peer}, as if its routing id
     * were the first frame. Takes ownership of {@code msg}. Throws {@link ZmtpSocketException.HostUnreachable} when
     * the peer has no routing id on this socket (gone, or refused for a duplicate id) and ROUTER_MANDATORY is set;
     * otherwise such a message is dropped, as for an unknown routing id.
     */
    public void send(ZmtpPeer peer, ZmtpMessage msg) {
        Objects.requireNonNull(msg, "msg");
        impl.send(withRoutingId(peer, msg), -1);
    }

    /** As {@link #send(ZmtpPeer, ZmtpMessage)}, waiting at most {@code timeout}; false if it timed out. */
    public boolean send(ZmtpPeer peer, ZmtpMessage msg, Duration timeout) {
        Objects.requireNonNull(msg, "msg");
        return impl.send(withRoutingId(peer, msg), timeout.toNanos());
    }

    private ZmtpMessage withRoutingId(ZmtpPeer peer, ZmtpMessage msg) {
        Objects.requireNonNull(peer, "peer");
        ZmtpSocketType t = impl.type();
        if (t != ZmtpSocketType.ROUTER && t != ZmtpSocketType.STREAM) {
            msg.release();
            throw new ZmtpSocketException.IllegalState(t + " can't send to a peer (ROUTER and STREAM can)");
        }
        byte[] id = peer.routingId();
        if (!(peer instanceof Peer) || !impl.owns((Peer) peer) || id == null) {
            // An id no peer has: routed as any unknown id (dropped, or HostUnreachable with ROUTER_MANDATORY).
            id = new byte[] {0};
        }
        return msg.addFirst(Unpooled.wrappedBuffer(id));
    }

    /** Messages written to the socket's connections so far (peers gone included). */
    public long sentCount() {
        return impl.sentCount();
    }

    /** Messages received from the socket's connections so far (peers gone included), taken or not. */
    public long receivedCount() {
        return impl.receivedCount();
    }

    /** Messages queued for all peers and not yet written to their connections. */
    public long outgoingMessages() {
        return impl.sumOverPeers(Pipe::outDepth);
    }

    /** Bytes (frames' content) of the messages queued for all peers. */
    public long outgoingBytes() {
        return impl.sumOverPeers(Pipe::outBytes);
    }

    /** Messages received from all peers and not yet taken by the application. */
    public long incomingMessages() {
        return impl.sumOverPeers(Pipe::inDepth);
    }

    /** Bytes of the messages received from all peers and not yet taken. */
    public long incomingBytes() {
        return impl.sumOverPeers(Pipe::inBytes);
    }

    /** Whether any peer's outgoing queue is at SNDHWM. */
    public boolean isOutgoingHwmReached() {
        return impl.anyPeer(Pipe::isOutHwmReached);
    }

    /** Whether any peer's incoming queue reached RCVHWM (the socket stopped reading that peer). */
    public boolean isIncomingHwmReached() {
        return impl.anyPeer(Pipe::isInHwmReached);
    }

    /**
     * Releases every message queued for every peer and not yet handed to a connection; returns how many (they count
     * as dropped). Senders waiting for room try again.
     */
    public int clearOutgoing() {
        return impl.clearOutgoing();
    }

    @Override
    public String toString() {
        return impl.toString();
    }
}
