package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
    private final CopyOnWriteArrayList<Consumer<ConnectionEvent>> monitors = new CopyOnWriteArrayList<>();

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
        for (Consumer<ConnectionEvent> m : monitors) {
            try {
                m.accept(event);
            } catch (RuntimeException e) {
                logger.warn("monitor of {} failed on {}", type, event, e);
            }
        }
    }

    /** Adds a listener for connection events; it runs on an I/O thread and must not block. */
    public void addMonitor(Consumer<ConnectionEvent> monitor) {
        monitors.add(monitor);
    }

    public void removeMonitor(Consumer<ConnectionEvent> monitor) {
        monitors.remove(monitor);
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

    /** Messages dropped so far (PUB/XPUB/XSUB at HWM, unroutable ROUTER messages). */
    public long droppedCount() {
        return 0;
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
                    return m.touch("ZmtpSocket.receive");
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
            return m;
        }
        return xrecv();
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
    }

    @Override
    public String toString() {
        return type + " socket" + (closed ? " (closed)" : "");
    }
}
