package io.zmtp.socket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.internal.ConnectionEvent;
import io.zmtp.socket.internal.SocketBase;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A ZeroMQ socket of one of the eleven standard types, made by {@link ZmtpContext#socket}.
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
     * returns the endpoint actually bound, e.g. {@code tcp://127.0.0.1:54321}.
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

    /** Connects to {@code endpoint} and keeps reconnecting (RECONNECT_IVL/RECONNECT_IVL_MAX) until disconnected. */
    public void connect(String endpoint) {
        impl.connect(endpoint);
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

    /** Messages dropped so far because a peer was at its HWM or unroutable (PUB, XPUB, XSUB, ROUTER). */
    public long droppedCount() {
        return impl.droppedCount();
    }

    /**
     * Adds a listener for this socket's connection events (handshakes, disconnections, failures). It runs on an I/O
     * thread: it must not block or call this socket's blocking methods.
     */
    public void monitor(Consumer<ZmtpSocketEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        Consumer<ConnectionEvent> adapter = e -> listener.accept(new ZmtpSocketEvent(e));
        if (monitors.putIfAbsent(listener, adapter) == null) {
            impl.addMonitor(adapter);
        }
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

    @Override
    public String toString() {
        return impl.toString();
    }
}
