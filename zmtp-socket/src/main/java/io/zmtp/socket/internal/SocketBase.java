package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * What every socket type shares: the lock, the pipes and the events that attach and detach them, blocking and
 * non-blocking send and receive, polling, and the start of close. Per-type behaviour is in the {@code x*} methods,
 * always called with the lock held. The rest is delegated: endpoints to {@link SocketEndpoints}, options to
 * {@link SocketOptions}, asynchronous calls to {@link AsyncCalls}, the end of close to {@link Linger}.
 *
 * <h2>Threads</h2>
 * The I/O threads never take the lock: they put pipe events in a lock-free mailbox and messages in pipes, and
 * signal. Application threads apply the mailbox ({@link #processEvents()}) under the lock before each operation, and
 * wait for a signal outside it. So a socket's routing state ({@code pipes}, {@code draining}, the per-type state) is
 * only ever touched under the lock, and a pipe joins it only once its CONNECTED event has been applied.
 */
public abstract class SocketBase implements PipeListener {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SocketBase.class);
    private enum EventType { CONNECTED, DISCONNECTED }

    private static final class PipeEvent {
        final EventType type;
        final Pipe pipe;

        PipeEvent(EventType type, Pipe pipe) {
            this.type = type;
            this.pipe = pipe;
        }
    }

    protected final SocketContext context;
    protected final ZmtpSocketType type;
    protected final ReentrantLock lock = new ReentrantLock();
    protected final Signal signal = new Signal();
    private final SocketOptions options = new SocketOptions();
    private final SocketEndpoints endpoints = new SocketEndpoints(this);
    private final AsyncCalls async = new AsyncCalls(this);
    private final ConcurrentLinkedQueue<PipeEvent> events = new ConcurrentLinkedQueue<>();

    // under the lock
    private final Set<Pipe> pipes = new LinkedHashSet<>();
    private final List<Pipe> draining = new ArrayList<>();
    private ZmtpMessage prefetched;

    private volatile boolean closed;
    /** Set from close() until lingering is over: connections may still complete and deliver queued output. */
    private volatile boolean lingering;

    protected SocketBase(SocketContext context, ZmtpSocketType type) {
        this.context = context;
        this.type = type;
        context.register(this);
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
                processEvents();
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
        lock.lock();
        try {
            checkOpen();
            Pipe pipe = endpoints.connect(endpoint, options);
            if (!options.value(ZmtpSocketOption.IMMEDIATE)) {
                // Routable at once: messages wait in it until the connection is up.
                addPipe(pipe);
            }
        } finally {
            lock.unlock();
        }
    }

    public void disconnect(String endpoint) {
        lock.lock();
        try {
            checkOpen();
            for (Pipe p : endpoints.disconnect(endpoint)) {
                processEvents();
                if (pipes.contains(p)) {
                    if (p.isActive()) {
                        xdisconnected(p);
                    }
                    dropPipe(p);
                }
                p.terminate();
            }
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- pipe lifecycle

    @Override
    public boolean pipeConnected(Pipe pipe) {
        if (closed && !lingering) {
            return false;
        }
        events.add(new PipeEvent(EventType.CONNECTED, pipe));
        return true;
    }

    @Override
    public void pipeDisconnected(Pipe pipe) {
        events.add(new PipeEvent(EventType.DISCONNECTED, pipe));
    }

    @Override
    public void pipeEvent(ConnectionEvent event) {
        monitor.report(event);
    }

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

    @Override
    public void pipeActivity(Pipe pipe) {
        signal.signal();
    }

    /** Applies pipe events from the I/O threads. Lock held. */
    protected final void processEvents() {
        PipeEvent e;
        while ((e = events.poll()) != null) {
            Pipe p = e.pipe;
            if (p.isTerminated()) {
                continue;
            }
            if (e.type == EventType.CONNECTED) {
                draining.remove(p);
                if (!pipes.contains(p)) {
                    addPipe(p);
                }
                xconnected(p);
            } else {
                if (!pipes.contains(p)) {
                    continue;
                }
                xdisconnected(p);
                if (!p.isConnecting() || options.value(ZmtpSocketOption.IMMEDIATE)) {
                    if (p.hasInputToDrain()) {
                        draining.add(p);
                    } else {
                        dropPipe(p);
                    }
                }
            }
        }
        if (!draining.isEmpty()) {
            for (Iterator<Pipe> it = draining.iterator(); it.hasNext(); ) {
                Pipe p = it.next();
                if (!p.hasInputToDrain() && !p.isActive()) {
                    it.remove();
                    dropPipe(p);
                }
            }
        }
    }

    private void addPipe(Pipe p) {
        pipes.add(p);
        xattach(p);
    }

    private void dropPipe(Pipe p) {
        pipes.remove(p);
        draining.remove(p);
        xdetach(p);
        if (p.isConnecting()) {
            // Stays alive for its connector (IMMEDIATE); what it queued for a peer now gone is dropped.
            p.discardOutput();
        } else {
            p.terminate();
        }
    }

    /** Every pipe the socket routes over (lock held). */
    protected Set<Pipe> pipes() {
        return pipes;
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

    /** Messages dropped so far: at HWM, unroutable, cleared, or discarded with a lost peer. */
    public long droppedCount() {
        return drops.get();
    }

    // ---------------------------------------------------------------- send / receive

    private void checkOpen() {
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
                    processEvents();
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
                processEvents();
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
            processEvents();
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
            processEvents();
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
            processEvents();
            stopping = endpoints.stopListening();
            all = new ArrayList<>(pipes);
            all.addAll(draining);
            endpoints.collectPipes(all);
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
        List<Pipe> lingeringPipes = new ArrayList<>(new LinkedHashSet<>(all));
        return () -> finishClose(lingeringPipes, stopping, deadline);
    }

    private void finishClose(List<Pipe> all, List<Connector> stopping, long deadline) {
        try {
            Linger.lingerAndTerminate(all, signal, deadline);
        } finally {
            lingering = false;
            stopping.forEach(Connector::stop);
        }
        endpoints.awaitListenersClosed();
        endpoints.clear();
        async.close();
        context.unregister(this);
        awaitConnectionEvents(all);
        dropReporter.flush();
        monitor.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.MONITOR_STOPPED, null, null, null, null, 0));
    }

    // ---------------------------------------------------------------- peers, queues, drops, events

    private final MonitorDispatcher monitor = new MonitorDispatcher();
    private final AtomicLong drops = new AtomicLong();
    private final DropReporter dropReporter = new DropReporter(this);
    /** Under the lock: where the message a poll took ahead came from. */
    private Pipe prefetchedFrom;
    /**
     * Where the last received message came from. Written under the lock, read without it by the thread that
     * received (or one the receive's completion happened before): a plain field, one store per receive.
     */
    private Pipe lastReceivedFrom;

    /** The pipe the message {@link #xrecv()} just returned came from, or null if it came from none. Lock held. */
    protected Pipe xlastPipe() {
        return null;
    }

    /** Reports an event to the monitors, in order with every other (any thread, never blocks). */
    void report(ConnectionEvent event) {
        monitor.report(event);
    }

    boolean hasMonitors() {
        return monitor.hasMonitors();
    }

    /** {@code n} messages were dropped (any thread): counted, and reported to monitors once per burst. */
    void messagesDropped(int n) {
        drops.addAndGet(n);
        if (monitor.hasMonitors()) {
            dropReporter.add(n);
        }
    }

    /** A message that had no peer to go to was dropped. */
    protected final void countUnroutableDrop() {
        messagesDropped(1);
    }

    /** The peer the last message received on this socket came from (see {@link #lastReceivedFrom}), or null. */
    public Peer lastPeer() {
        Pipe p = lastReceivedFrom;
        return p == null ? null : p.peer();
    }

    /** Every pipe that is a peer now: connecting ones, and accepted ones whose handshake completed. Lock held. */
    private List<Pipe> livePipes() {
        Set<Pipe> all = new LinkedHashSet<>(pipes);
        all.addAll(draining);
        endpoints.collectPipes(all);
        List<Pipe> live = new ArrayList<>(all.size());
        for (Pipe p : all) {
            if (!p.isTerminated() && (p.isConnecting() || p.hasHandshaken())) {
                live.add(p);
            }
        }
        return live;
    }

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
        if (!p.hasRoom()) {
            ZmtpOverflowPolicy policy = overflowPolicy();
            if (policy == ZmtpOverflowPolicy.BLOCK || policy == ZmtpOverflowPolicy.FAIL) {
                return false;
            }
            msg.removeFirst().release();
            return overflow(msg, p);
        }
        msg.removeFirst().release();
        p.offer(msg);
        return true;
    }

    /**
     * No peer had room for {@code msg}: applies the overflow policy. {@code victim} is the peer the message would
     * have gone to (null if none). Returns true if the message was disposed of (dropped, or queued in place of the
     * victim's oldest), the socket then owning it; false to wait or fail, the caller keeping it. Lock held.
     */
    protected final boolean overflow(ZmtpMessage msg, Pipe victim) {
        ZmtpOverflowPolicy policy = overflowPolicy();
        if (policy == ZmtpOverflowPolicy.DROP_OLDEST && victim != null && victim.offerReplacingOldest(msg)) {
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

    /** Under the lock, during a tracked send only: what its queued copies report to. */
    DeliveryTracker tracker;

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
                    processEvents();
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

    private final AtomicLong retiredSent = new AtomicLong();
    private final AtomicLong retiredReceived = new AtomicLong();

    void retire(long sent, long received) {
        retiredSent.addAndGet(sent);
        retiredReceived.addAndGet(received);
    }

    /** Messages written to all connections, ever (peers gone included). */
    public long sentCount() {
        return retiredSent.get() + sumOverPeers(Pipe::sentCount);
    }

    /** Messages received from all connections, ever (peers gone included). */
    public long receivedCount() {
        return retiredReceived.get() + sumOverPeers(Pipe::receivedCount);
    }

    /**
     * Before MONITOR_STOPPED, the last event: waits (briefly) for the connections close closed to be closed, then
     * for one task on each of their event loops, which runs after the close's listeners (DISCONNECTED) have been.
     * Only when someone monitors; never on an I/O thread, which would wait for itself.
     */
    private void awaitConnectionEvents(List<Pipe> all) {
        if (!monitor.hasMonitors()) {
            return;
        }
        Set<io.netty.channel.EventLoop> loops = new LinkedHashSet<>();
        for (Pipe p : all) {
            io.netty.channel.Channel ch = p.channel();
            if (ch == null || ch.eventLoop().inEventLoop()) {
                continue;
            }
            ch.closeFuture().awaitUninterruptibly(CLOSE_EVENTS_WAIT_MILLIS);
            loops.add(ch.eventLoop());
        }
        for (io.netty.channel.EventLoop loop : loops) {
            try {
                loop.submit(() -> { }).awaitUninterruptibly(CLOSE_EVENTS_WAIT_MILLIS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // The loop is gone, and with it anything it had to report.
            }
        }
    }

    private static final long CLOSE_EVENTS_WAIT_MILLIS = 2000;

    /** STREAM: connections carry raw bytes, with no ZMTP handshake or framing. */
    boolean xrawStream() {
        return false;
    }

    /** Whether {@code peer} is one of this socket's. */
    public boolean owns(Peer peer) {
        return peer.pipe().socket() == this;
    }

    /** A snapshot of the socket's peers. */
    public List<Peer> peers() {
        lock.lock();
        try {
            if (closed) {
                return List.of();
            }
            processEvents();
            List<Peer> peers = new ArrayList<>();
            for (Pipe p : livePipes()) {
                peers.add(p.peer());
            }
            return peers;
        } finally {
            lock.unlock();
        }
    }

    /** Sums {@code f} over the live pipes, under the lock. */
    public long sumOverPeers(java.util.function.ToLongFunction<Pipe> f) {
        lock.lock();
        try {
            if (closed) {
                return 0;
            }
            processEvents();
            long n = 0;
            for (Pipe p : livePipes()) {
                n += f.applyAsLong(p);
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Whether any live pipe satisfies {@code test}. */
    public boolean anyPeer(java.util.function.Predicate<Pipe> test) {
        return sumOverPeers(p -> test.test(p) ? 1 : 0) > 0;
    }

    /** Releases what is queued for {@code pipe}; returns how many messages (counted as drops). */
    int clearOutgoing(Pipe pipe) {
        int n;
        lock.lock();
        try {
            checkOpen();
            long before = pipe.droppedCount();
            pipe.discardOutput();
            n = (int) (pipe.droppedCount() - before);
        } finally {
            lock.unlock();
        }
        // Room freed: senders waiting for it try again.
        signal.signal();
        return n;
    }

    /** Releases what is queued for every peer; returns how many messages. */
    public int clearOutgoing() {
        int n = 0;
        lock.lock();
        try {
            checkOpen();
            processEvents();
            for (Pipe p : livePipes()) {
                long before = p.droppedCount();
                p.discardOutput();
                n += (int) (p.droppedCount() - before);
            }
        } finally {
            lock.unlock();
        }
        signal.signal();
        return n;
    }

    /**
     * Disconnects one peer: an accepted one's connection is closed and its pipe dropped; a connecting one stops
     * being reconnected. What is queued for it is released and counted as dropped.
     */
    void disconnectPeer(Pipe p) {
        lock.lock();
        try {
            if (closed || p.isTerminated()) {
                return;
            }
            if (p.isConnecting()) {
                endpoints.disconnect(p);
            }
            processEvents();
            if (pipes.contains(p) || draining.contains(p)) {
                if (p.isActive()) {
                    xdisconnected(p);
                }
                dropPipe(p);
            }
            p.discardOutput();
            p.terminate();
        } finally {
            lock.unlock();
        }
        signal.signal();
    }

    @Override
    public String toString() {
        return type + " socket" + (closed ? " (closed)" : "");
    }
}
