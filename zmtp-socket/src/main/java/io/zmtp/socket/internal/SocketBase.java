package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What every socket type shares: the lock, blocking and non-blocking send and receive, polling, the overflow policy,
 * and the start of close. Per-type behaviour is in the {@code x*} methods, always called with the lock held. The rest
 * is delegated: the pipes and the events that attach and detach them to {@link AttachedPipes}, endpoints to
 * {@link SocketEndpoints}, options to {@link SocketOptions}, the peers as the application manages them to
 * {@link SocketPeers}, monitors to {@link SocketMonitor}, asynchronous calls to {@link AsyncCalls}, the end of close
 * to {@link Linger}.
 *
 * <h2>Threads</h2>
 * The I/O threads never take the lock: they put pipe events in a lock-free mailbox and messages in pipes, and
 * signal. Application threads apply the mailbox ({@link AttachedPipes#processEvents()}) under the lock before each
 * operation, and wait for a signal outside it. So a socket's routing state (the attached pipes, the per-type state)
 * is only ever touched under the lock, and a pipe joins it only once its CONNECTED event has been applied.
 */
public abstract class SocketBase implements PipeListener {
    protected final SocketContext context;
    protected final ZmtpSocketType type;
    protected final ReentrantLock lock = new SocketLock();
    protected final Signal signal = new Signal();
    final AttachedPipes attached = new AttachedPipes(this);
    final SocketEndpoints endpoints = new SocketEndpoints(this);
    private final SocketOptions options = new SocketOptions();
    final SocketPeers peers = new SocketPeers(this);
    private final SocketMonitor monitor = new SocketMonitor(this);
    private final AsyncCalls async = new AsyncCalls(this);
    private final AtomicLong drops = new AtomicLong();

    // under the lock
    private ZmtpMessage prefetched;
    /** Under the lock: where the message a poll took ahead came from. */
    private Pipe prefetchedFrom;
    /**
     * Where the last received message came from. Written under the lock, read without it by the thread that
     * received (or one the receive's completion happened before): a plain field, one store per receive.
     */
    private Pipe lastReceivedFrom;
    /** Under the lock, during a tracked send only: what its queued copies report to (read by {@link Pipe}). */
    DeliveryTracker tracker;

    private volatile boolean closed;
    /** Set from close() until lingering is over: connections may still complete and deliver queued output. */
    private volatile boolean lingering;

    /**
     * The longest connect waits for an inproc join that neither comes nor is refused (see {@link #awaitInprocJoin});
     * a join takes microseconds, so only a stalled machine comes near it.
     */
    private static final long INPROC_JOIN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    protected SocketBase(SocketContext context, ZmtpSocketType type) {
        this.context = context;
        this.type = type;
    }

    public ZmtpSocketType type() {
        return type;
    }

    public Signal signal() {
        return signal;
    }

    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- options

    public <T> void setOption(ZmtpSocketOption<T> option, T value) {
        T v = option.validate(value);
        if (option == ZmtpSocketOption.SUBSCRIBE || option == ZmtpSocketOption.UNSUBSCRIBE) {
            lock.lock();
            try {
                checkOpen();
                attached.processEvents();
                xsubscribe((byte[]) v, option == ZmtpSocketOption.SUBSCRIBE);
            } finally {
                lock.unlock();
            }
            return;
        }
        options.set(option, v);
    }

    public <T> T getOption(ZmtpSocketOption<T> option) {
        return options.get(option);
    }

    protected <T> T option(ZmtpSocketOption<T> option) {
        return options.value(option);
    }

    /** SUBSCRIBE/UNSUBSCRIBE options; only SUB accepts them. */
    protected void xsubscribe(byte[] topic, boolean subscribe) {
        throw new ZmtpSocketException.IllegalState(
                type + " has no " + (subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE") + " option");
    }

    /** Whether inbound SUBSCRIBE/CANCEL commands are wanted (as 0x01/0x00 messages). */
    protected boolean acceptsSubscriptions() {
        return false;
    }

    /** Whether inbound JOIN/LEAVE commands are wanted (as 0x01/0x00 messages): RADIO. */
    protected boolean acceptsGroups() {
        return false;
    }

    /** The commands this socket's pipes hand it as messages. */
    final InboundCommands inboundCommands() {
        return acceptsSubscriptions() ? InboundCommands.SUBSCRIPTIONS
                : acceptsGroups() ? InboundCommands.GROUPS : InboundCommands.NONE;
    }

    /**
     * Whether messages from peers are read at all. A socket that never reads (PUSH) releases them as they arrive, so
     * a peer that sends anyway can't make it hold memory, or keep a closed connection's pipe alive to drain them.
     */
    protected boolean readsMessages() {
        return true;
    }

    // ---------------------------------------------------------------- endpoints

    public String bind(String endpoint) {
        lock.lock();
        try {
            checkOpen();
            return endpoints.bind(endpoint, options);
        } finally {
            lock.unlock();
        }
    }

    /**
     * For {@code ZmtpWebSocketHandler}: the initializer of connections an application's HTTP server upgrades to ZWS
     * on {@code path}, with this socket's options as they are now.
     */
    public io.netty.channel.ChannelInitializer<io.netty.channel.Channel> webSocketAcceptor(String path) {
        lock.lock();
        try {
            checkOpen();
            return endpoints.webSocketAcceptor(path, options);
        } finally {
            lock.unlock();
        }
    }

    public void unbind(String endpoint) {
        lock.lock();
        try {
            checkOpen();
            endpoints.unbind(endpoint);
        } finally {
            lock.unlock();
        }
    }

    public void connect(String endpoint) {
        Pipe pipe;
        boolean boundInproc;
        lock.lock();
        try {
            pipe = connectPipe(endpoint);
            boundInproc = endpoints.isBoundInproc(endpoint);
        } finally {
            lock.unlock();
        }
        if (boundInproc) {
            awaitInprocJoin(pipe);
        }
    }

    /**
     * libzmq's zmq_connect joins an inproc connection to a bound name before it returns, so what is sent next is in
     * the peer's pipe, and stays the peer's even if the socket is closed at once with LINGER 0 (the ZeroMQ Guide's
     * mtrelay signals its next step that way). Ours are joined on the inproc thread a moment later: this waits for
     * that, outside the lock, so the same holds. It waits for the join to open the links, not for the pipe to turn
     * active: the join activates the pipe before this socket has taken the connection, and a socket closed in that
     * moment refuses it and drops what was sent (InprocConnectIT). It also returns when the attempt ends without a
     * join (a PAIR that has a peer refuses it; the socket types don't match), and after
     * {@link #INPROC_JOIN_WAIT_NANOS} whatever happens (the name unbound meanwhile). A name is bound for this from
     * the moment its bind returned ({@code InprocTransport.bind} registers it first).
     */
    private void awaitInprocJoin(Pipe pipe) {
        long deadline = System.nanoTime() + INPROC_JOIN_WAIT_NANOS;
        for (;;) {
            long seq = signal.sequence();
            if (pipe.isInprocJoined() || pipe.hasEndedAConnection() || pipe.isTerminated() || closed
                    || System.nanoTime() - deadline >= 0) {
                return;
            }
            try {
                signal.await(seq, deadline);
            } catch (InterruptedException e) {
                // connect doesn't throw for it: the connection goes on, and the thread keeps its interrupt.
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Connects; returns the endpoint's pipe. Lock held. */
    protected final Pipe connectPipe(String endpoint) {
        checkOpen();
        Pipe pipe = endpoints.connect(endpoint, options);
        if (!options.value(ZmtpSocketOption.IMMEDIATE)) {
            // Routable at once: messages wait in it until the connection is up.
            attached.attach(pipe);
        }
        return pipe;
    }

    /** PEER's {@code zmq_connect_peer}: connects and returns the peer's routing id. Other types refuse. */
    public int connectPeer(String endpoint) {
        throw new ZmtpSocketException.IllegalState(type + " can't connectPeer (PEER can)");
    }

    /** DISH: joins ({@code join}) or leaves a group. Other types refuse. */
    public void joinGroup(String group, boolean join) {
        throw new ZmtpSocketException.IllegalState(type + " can't " + (join ? "join" : "leave") + " a group (DISH can)");
    }

    public void disconnect(String endpoint) {
        lock.lock();
        try {
            checkOpen();
            for (Pipe p : endpoints.disconnect(endpoint)) {
                attached.processEvents();
                attached.disconnect(p);
                p.terminate();
            }
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- pipe lifecycle (PipeListener, I/O threads)

    @Override
    public boolean pipeConnected(Pipe pipe) {
        if (closed && !lingering) {
            return false;
        }
        attached.connected(pipe);
        return true;
    }

    @Override
    public void pipeDisconnected(Pipe pipe) {
        attached.disconnected(pipe);
    }

    @Override
    public void pipeEvent(ConnectionEvent event) {
        monitor.report(event);
    }

    @Override
    public void pipeActivity(Pipe pipe) {
        signal.signal();
    }

    // ---------------------------------------------------------------- pipes and per-type hooks (lock held)

    /** Every pipe the socket routes over (lock held). */
    protected final Set<Pipe> pipes() {
        return attached.set();
    }

    /**
     * Every pipe that may have a connection, including those whose CONNECTED event the socket hasn't applied yet
     * (lock held). For what must reach every connection that is up, such as subscription changes.
     */
    protected final void forEachLivePipe(Consumer<Pipe> action) {
        endpoints.forEachLivePipe(action);
    }

    /** A pipe joins the socket's routing (at connect, or when an accepted/IMMEDIATE pipe connects). */
    protected abstract void xattach(Pipe pipe);

    /** A pipe leaves the socket's routing. */
    protected abstract void xdetach(Pipe pipe);

    /** A pipe's connection completed its handshake (again, after a reconnection). */
    protected void xconnected(Pipe pipe) {
    }

    /** A pipe's connection went away. */
    protected void xdisconnected(Pipe pipe) {
    }

    /**
     * Sends {@code msg}; returns false, keeping the caller's ownership, if it would block. Throws (caller releases) on
     * errors. On success the socket owns the message (it may have dropped it, as PUB does).
     */
    protected abstract boolean xsend(ZmtpMessage msg);

    /** The next message for the application, or null. */
    protected abstract ZmtpMessage xrecv();

    /**
     * Whether a receive would return a message now, without changing what the next send or receive may do. The
     * default takes the next message ahead of time, which suits types whose receiving changes no state; REQ and REP
     * override it.
     */
    protected boolean xhasIn() {
        if (prefetched == null) {
            prefetched = xrecv();
            prefetchedFrom = prefetched == null ? null : xlastPipe();
        }
        return prefetched != null;
    }

    /** Whether a send would not block now. */
    protected abstract boolean xhasOut();

    /** Throws if receiving isn't allowed now (SUB can't send, REQ must send first...). Lock held. */
    protected void xcheckRecv() {
    }

    /** Releases per-type state (saved envelopes, queued notifications). Lock held; called once, at close. */
    protected void xclose() {
    }

    // ---------------------------------------------------------------- drops

    /** Messages dropped so far: at HWM, unroutable, cleared, or discarded with a lost peer. */
    public long droppedCount() {
        return drops.get();
    }

    /** {@code n} messages were dropped (any thread): counted, and reported to monitors once per burst. */
    void messagesDropped(int n) {
        drops.addAndGet(n);
        monitor.dropped(n);
    }

    /** A message that had no peer to go to was dropped. */
    protected final void countUnroutableDrop() {
        messagesDropped(1);
    }

    // ---------------------------------------------------------------- send / receive

    void checkOpen() {
        if (closed) {
            throw new ZmtpSocketException.Closed(type + " socket is closed");
        }
    }

    private static long deadline(long timeoutNanos) {
        if (timeoutNanos < 0) {
            return Long.MAX_VALUE;
        }
        long d = System.nanoTime() + timeoutNanos;
        return d == Long.MAX_VALUE ? d - 1 : d;
    }

    /**
     * Sends, waiting up to {@code timeoutNanos} (negative: forever; 0: not at all) for room. Takes ownership of
     * {@code msg} in every case. Returns false on timeout.
     */
    public boolean send(ZmtpMessage msg, long timeoutNanos) {
        checkSendable(msg);
        // The clock is read only once a call has to wait: most calls don't.
        long deadline = 0;
        boolean waited = false;
        boolean owned = true;
        try {
            for (;;) {
                long seq = signal.sequence();
                lock.lock();
                try {
                    checkOpen();
                    attached.processEvents();
                    if (xsend(msg)) {
                        owned = false;
                        return true;
                    }
                } finally {
                    lock.unlock();
                }
                if (timeoutNanos == 0) {
                    return false;
                }
                if (overflowPolicy() == ZmtpOverflowPolicy.FAIL) {
                    throw queueFull();
                }
                if (!waited) {
                    deadline = deadline(timeoutNanos);
                    waited = true;
                } else if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                await(seq, deadline);
            }
        } finally {
            if (owned) {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /**
     * Sends as {@link #send} does with no timeout, and returns a stage completing when the message was written to
     * the OS (every copy, for PUB), or failing when it never will be. What fails the send itself (closed, QueueFull,
     * HostUnreachable, a wrong state) fails the stage instead of throwing. Takes ownership of {@code msg}.
     */
    public CompletionStage<Void> sendTracked(ZmtpMessage msg) {
        DeliveryTracker t = new DeliveryTracker();
        boolean owned = true;
        try {
            checkSendable(msg);
            for (;;) {
                long seq = signal.sequence();
                lock.lock();
                try {
                    checkOpen();
                    attached.processEvents();
                    boolean sent;
                    tracker = t;
                    try {
                        sent = xsend(msg);
                    } finally {
                        tracker = null;
                    }
                    if (sent) {
                        owned = false;
                        t.seal();
                        return t.future;
                    }
                } finally {
                    lock.unlock();
                }
                if (overflowPolicy() == ZmtpOverflowPolicy.FAIL) {
                    throw queueFull();
                }
                await(seq, Long.MAX_VALUE);
            }
        } catch (ZmtpSocketException | IllegalArgumentException e) {
            t.failed(e);
            return t.future;
        } finally {
            if (owned) {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /**
     * Whether Netty's leak detector keeps touch hints: only at ADVANCED and PARANOID. Below that a touch is a walk
     * over the message's frames that records nothing (2.6% of a receiving thread's profile at 1 B).
     */
    private static boolean recordsTouches() {
        return ResourceLeakDetector.getLevel().compareTo(ResourceLeakDetector.Level.ADVANCED) >= 0;
    }

    /** Receives, waiting up to {@code timeoutNanos} (negative: forever; 0: not at all); null on timeout. */
    public ZmtpMessage receive(long timeoutNanos) {
        long deadline = 0;
        boolean waited = false;
        for (;;) {
            long seq = signal.sequence();
            lock.lock();
            try {
                checkOpen();
                attached.processEvents();
                checkReceive();
                ZmtpMessage m = receiveLocked();
                if (m != null) {
                    return recordsTouches() ? m.touch("ZmtpSocket.receive") : m;
                }
            } finally {
                lock.unlock();
            }
            if (timeoutNanos == 0) {
                return null;
            }
            if (!waited) {
                deadline = deadline(timeoutNanos);
                waited = true;
            } else if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            await(seq, deadline);
        }
    }

    /** Whether a receive would return a message now; changes no state a send or receive depends on. Lock held. */
    boolean hasIn() {
        if (prefetched != null) {
            return true;
        }
        try {
            xcheckRecv();
        } catch (ZmtpSocketException e) {
            return false;
        }
        return xhasIn();
    }

    /**
     * Rejects a message that can't be sent before it is queued, where the caller can still be told: a released
     * message (its frames may already belong to someone else). A message with no frames is sent as one empty frame,
     * as libzmq sends an empty {@code zmq_msg_t}.
     */
    private static void checkSendable(ZmtpMessage msg) {
        if (!msg.isAccessible()) {
            throw new IllegalArgumentException("message already released: " + msg);
        }
        if (msg.size() == 0) {
            msg.add(Unpooled.EMPTY_BUFFER);
        }
    }

    /** Throws if receiving isn't allowed now; a message a poll has taken ahead may always be received. Lock held. */
    void checkReceive() {
        if (prefetched == null) {
            xcheckRecv();
        }
    }

    /** The next message, or null. Lock held. */
    ZmtpMessage receiveLocked() {
        // Callers have applied the pipe events already (and a REQ/REP hasIn() just answered for this state).
        ZmtpMessage m = prefetched;
        if (m != null) {
            prefetched = null;
            lastReceivedFrom = prefetchedFrom;
            return m;
        }
        m = xrecv();
        if (m != null) {
            lastReceivedFrom = xlastPipe();
        }
        return m;
    }

    private void await(long seq, long deadline) {
        try {
            signal.await(seq, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ZmtpSocketException.Interrupted("interrupted while waiting on a " + type + " socket", e);
        }
    }

    /** Poller: whether a receive would return a message now. */
    public boolean pollIn() {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            attached.processEvents();
            return hasIn();
        } finally {
            lock.unlock();
        }
    }

    /** Poller: whether a send would not block now. */
    public boolean pollOut() {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            attached.processEvents();
            return xhasOut();
        } finally {
            lock.unlock();
        }
    }

    public CompletionStage<ZmtpMessage> receiveAsync() {
        return async.receive();
    }

    public CompletionStage<Void> sendAsync(ZmtpMessage msg) {
        try {
            checkSendable(msg);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        return async.send(msg);
    }

    /** The pipe the message {@link #xrecv()} just returned came from, or null if it came from none. Lock held. */
    protected Pipe xlastPipe() {
        return null;
    }

    /** The peer the last message received on this socket came from (see {@link #lastReceivedFrom}), or null. */
    public Peer lastPeer() {
        Pipe p = lastReceivedFrom;
        return p == null ? null : p.peer();
    }

    // ---------------------------------------------------------------- overflow (lock held)

    /** The overflow policy in force: the OVERFLOW option, or the type's default. */
    protected final ZmtpOverflowPolicy overflowPolicy() {
        ZmtpOverflowPolicy p = option(ZmtpSocketOption.OVERFLOW);
        return p == ZmtpOverflowPolicy.DEFAULT ? xdefaultOverflow() : p;
    }

    /** libzmq's behaviour at HWM for this type. */
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        return ZmtpOverflowPolicy.BLOCK;
    }

    ZmtpSocketException.QueueFull queueFull() {
        return new ZmtpSocketException.QueueFull(type + ": no peer can take the message now (at SNDHWM, or none)");
    }

    /**
     * ROUTER and STREAM: queues {@code msg}, whose first frame is the routing id that chose {@code p}, on {@code p}
     * without that frame; at SNDHWM applies the overflow policy, returning false to wait or fail with the message (id
     * included) still the caller's. Lock held.
     */
    protected final boolean sendToPeer(ZmtpMessage msg, Pipe p) {
        if (p.hasRoom()) {
            ByteBuf id = msg.removeFirst();
            if (p.offer(msg)) {
                id.release();
                return true;
            }
            // Lost a race with the pipe's end (terminated, or its inproc link ended and the link's room with it):
            // the pipe refused the message, which is still ours. Ignored, the send reported success and leaked it.
            msg.addFirst(id);
        }
        ZmtpOverflowPolicy policy = overflowPolicy();
        if (policy == ZmtpOverflowPolicy.BLOCK || policy == ZmtpOverflowPolicy.FAIL) {
            return false;
        }
        msg.removeFirst().release();
        return overflow(msg, p);
    }

    /**
     * No peer had room for {@code msg}: applies the overflow policy. {@code victim} is the peer the message would
     * have gone to (null if none). Returns true if the message was disposed of (dropped, or queued in place of the
     * victim's oldest), the socket then owning it; false to wait or fail, the caller keeping it. Lock held.
     */
    protected final boolean overflow(ZmtpMessage msg, Pipe victim) {
        ZmtpOverflowPolicy policy = overflowPolicy();
        if (policy == ZmtpOverflowPolicy.DROP_OLDEST && victim != null
                && victim.outbound().offerReplacingOldest(msg)) {
            return true;
        }
        if (policy == ZmtpOverflowPolicy.DROP_OLDEST || policy == ZmtpOverflowPolicy.DROP_NEWEST) {
            if (victim != null) {
                victim.countDrop();
            } else {
                countUnroutableDrop();
            }
            msg.release();
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes: stops listening and reconnecting, waits up to LINGER (capped by the context) for queued messages to
     * reach connected peers, then closes every connection and releases whatever is still queued.
     */
    public void close() {
        Runnable rest = startClose();
        if (rest != null) {
            rest.run();
        }
    }

    /**
     * The first part of {@link #close}: closes the socket to the application and starts lingering, against a
     * deadline counted from now. Returns the rest (waiting until the messages are out or the deadline has passed,
     * then closing the connections), or null if the socket was already closed. A context starts every socket's
     * close before finishing any, so they linger together: the whole wait is the longest LINGER, not the sum.
     */
    public Runnable startClose() {
        List<Pipe> all;
        List<Connector> stopping;
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            closed = true;
            lingering = true;
            attached.processEvents();
            stopping = endpoints.stopListening();
            all = new ArrayList<>(attached.withEndpoints(endpoints));
            peers.closing(all);
            if (prefetched != null) {
                prefetched.release();
                prefetched = null;
            }
            xclose();
        } finally {
            lock.unlock();
        }
        signal.signal();
        long linger = options.value(ZmtpSocketOption.LINGER);
        long cap = context.lingerCapMillis();
        long millis = linger < 0 ? cap : Math.min(linger, cap);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        return () -> finishClose(all, stopping, deadline);
    }

    private void finishClose(List<Pipe> all, List<Connector> stopping, long deadline) {
        try {
            Linger.lingerAndTerminate(all, signal, deadline);
        } finally {
            // Every pipe is retired now: its counts (and any it makes later) are in the totals.
            peers.closing(List.of());
            lingering = false;
            stopping.forEach(Connector::stop);
        }
        endpoints.awaitListenersClosed();
        endpoints.clear();
        async.close();
        context.unregister(this);
        monitor.stop(all);
    }

    // ---------------------------------------------------------------- monitors

    /**
     * Adds a listener for the socket's events; it runs on an I/O thread (or the thread in bind or close) and must
     * not block. Events reach it one at a time, in order ({@link MonitorDispatcher}).
     */
    public void addMonitor(Consumer<ConnectionEvent> monitor) {
        this.monitor.add(monitor);
    }

    public void removeMonitor(Consumer<ConnectionEvent> monitor) {
        this.monitor.remove(monitor);
    }

    /** Reports an event to the monitors, in order with every other (any thread, never blocks). */
    void report(ConnectionEvent event) {
        monitor.report(event);
    }

    // ---------------------------------------------------------------- peers (SocketPeers)

    /** Whether {@code peer} is one of this socket's. */
    public boolean owns(Peer peer) {
        return peer.pipe().socket() == this;
    }

    /** A snapshot of the socket's peers. */
    public List<Peer> peers() {
        return peers.list();
    }

    /** Sums {@code f} over the socket's peers. */
    public long sumOverPeers(ToLongFunction<Pipe> f) {
        return peers.sum(f);
    }

    /** Whether any peer satisfies {@code test}. */
    public boolean anyPeer(Predicate<Pipe> test) {
        return peers.any(test);
    }

    /** Messages written to all connections, ever (peers gone included). */
    public long sentCount() {
        return peers.sentCount();
    }

    /** Messages received from all connections, ever (peers gone included). */
    public long receivedCount() {
        return peers.receivedCount();
    }

    /** Releases what is queued for every peer; returns how many messages. */
    public int clearOutgoing() {
        return peers.clearOutgoing();
    }

    /** Releases what is queued for {@code pipe}; returns how many messages (counted as drops). */
    int clearOutgoing(Pipe pipe) {
        return peers.clearOutgoing(pipe);
    }

    /** Disconnects one peer ({@link SocketPeers#disconnect}). */
    void disconnectPeer(Pipe p) {
        peers.disconnect(p);
    }

    /**
     * Closes the connection of a peer that went over its {@link ConnectionBudget} (user side): logs why, reports a
     * {@code PROTOCOL_ERROR} monitor event with the reason, and closes the connection as a protocol error does (an
     * accepted peer is gone; a connecting socket reconnects). Nothing else is touched: what other peers queued stays.
     */
    void closeOverBudget(Pipe pipe, String reason) {
        ConnectionBudget.logClose(pipe, reason);
        Channel ch = pipe.channel();
        if (ch != null) {
            pipe.emit(ZmtpSocketEvent.Type.PROTOCOL_ERROR, ch, reason);
            ch.close();
        }
    }

    /** STREAM: connections carry raw bytes, with no ZMTP handshake or framing. */
    boolean xrawStream() {
        return false;
    }

    @Override
    public String toString() {
        return type + " socket" + (closed ? " (closed)" : "");
    }
}
