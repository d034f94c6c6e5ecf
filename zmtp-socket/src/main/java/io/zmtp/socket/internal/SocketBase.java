package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpHandler;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmqEvent;
import io.zmtp.socket.ZmqException;
import io.zmtp.socket.ZmqOption;
import io.zmtp.socket.transport.Endpoint;
import io.zmtp.socket.transport.Transport;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The machinery every socket type shares: the user-side lock, options, pipes and their lifecycle events,
 * bind/connect, blocking/non-blocking/async send and receive, linger on close. Per-type behaviour is in the
 * {@code x*} methods, always called with the lock held.
 *
 * <p>The I/O threads never take the lock: they put pipe events in a lock-free mailbox and messages in pipes, and
 * signal. User threads apply the mailbox ({@link #processEvents()}) under the lock before each operation.
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

    private static final class Listener {
        final String endpoint;
        /** As given to bind, which unbind accepts too. */
        final String requested;
        final Transport transport;
        final Channel serverChannel;
        final Set<Pipe> accepted = ConcurrentHashMap.newKeySet();

        Listener(String endpoint, String requested, Transport transport, Channel serverChannel) {
            this.endpoint = endpoint;
            this.requested = requested;
            this.transport = transport;
            this.serverChannel = serverChannel;
        }
    }

    private static final class PendingSend {
        final ZmtpMessage msg;
        final CompletableFuture<Void> future;

        PendingSend(ZmtpMessage msg, CompletableFuture<Void> future) {
            this.msg = msg;
            this.future = future;
        }
    }

    protected final SocketContext context;
    protected final ZmtpSocketType type;
    protected final ReentrantLock lock = new ReentrantLock();
    protected final Signal signal = new Signal();
    private final Map<ZmqOption<?>, Object> options = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<PipeEvent> events = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Consumer<ZmqEvent>> monitors = new CopyOnWriteArrayList<>();

    // user side (under lock)
    private final Set<Pipe> pipes = new LinkedHashSet<>();
    private final List<Pipe> draining = new ArrayList<>();
    private final Map<String, List<Connector>> connectors = new ConcurrentHashMap<>();
    private final Map<String, List<Pipe>> connectPipes = new ConcurrentHashMap<>();
    private final Map<String, Listener> listeners = new ConcurrentHashMap<>();
    private ZmtpMessage prefetched;
    private volatile boolean closed;
    /** Set from close() until lingering is over: connections may still complete and deliver queued output. */
    private volatile boolean lingering;
    private final List<Connector> stopping = new ArrayList<>();

    // async
    private final ConcurrentLinkedQueue<ReceiveFuture> pendingReceives = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<PendingSend> pendingSends = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean asyncScheduled = new AtomicBoolean();
    private final Runnable asyncTrigger = this::scheduleAsync;

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

    public <T> void setOption(ZmqOption<T> option, T value) {
        T v = option.validate(value);
        if (option == ZmqOption.SUBSCRIBE || option == ZmqOption.UNSUBSCRIBE) {
            lock.lock();
            try {
                checkOpen();
                processEvents();
                xsubscribe((byte[]) v, option == ZmqOption.SUBSCRIBE);
            } finally {
                lock.unlock();
            }
            return;
        }
        options.put(option, v);
    }

    @SuppressWarnings("unchecked")
    public <T> T getOption(ZmqOption<T> option) {
        Object v = options.get(option);
        if (v == null) {
            return option.defaultValue();
        }
        return v instanceof byte[] ? (T) ((byte[]) v).clone() : (T) v;
    }

    protected <T> T option(ZmqOption<T> option) {
        Object v = options.get(option);
        @SuppressWarnings("unchecked")
        T t = v == null ? option.defaultValue() : (T) v;
        return t;
    }

    /** SUBSCRIBE/UNSUBSCRIBE options; only SUB accepts them. */
    protected void xsubscribe(byte[] topic, boolean subscribe) {
        throw new ZmqException.IllegalState(type + " has no " + (subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE") + " option");
    }

    private ZmtpConfig zmtpConfig() {
        ZmtpConfig.Builder b = ZmtpConfig.builder(type)
                .identity(option(ZmqOption.ROUTING_ID))
                .handshakeTimeoutMillis(option(ZmqOption.HANDSHAKE_IVL))
                .heartbeatIntervalMillis(option(ZmqOption.HEARTBEAT_IVL))
                .heartbeatTtlMillis(Math.min(6_553_500, option(ZmqOption.HEARTBEAT_TTL)));
        int hbTimeout = option(ZmqOption.HEARTBEAT_TIMEOUT);
        if (hbTimeout >= 0) {
            b.heartbeatTimeoutMillis(hbTimeout);
        }
        long max = option(ZmqOption.MAXMSGSIZE);
        b.maxMessageSize(max < 0 ? ZmtpConstants.DEFAULT_MAX_MESSAGE_SIZE : max);
        return b.build();
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

    private void initPipeline(Channel ch, Pipe pipe, ZmtpConfig config, Runnable onHandshake) {
        ch.pipeline().addLast("zmtp", new ZmtpHandler(config));
        ch.pipeline().addLast("zmtp-socket",
                new PipeHandler(pipe, readsMessages(), acceptsSubscriptions(), onHandshake));
    }

    private ChannelInitializer<Channel> initializer(Pipe pipe, ZmtpConfig config, Runnable onHandshake) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                initPipeline(ch, pipe, config, onHandshake);
            }
        };
    }

    public String bind(String endpoint) {
        Endpoint ep = parse(endpoint);
        Transport transport = context.transport(ep.scheme());
        lock.lock();
        try {
            checkOpen();
            ZmtpConfig config = zmtpConfig();
            int sndHwm = option(ZmqOption.SNDHWM);
            int rcvHwm = option(ZmqOption.RCVHWM);
            Listener[] holder = new Listener[1];
            ChannelFuture f;
            try {
                f = transport.bind(ep, new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Listener l = holder[0];
                        if (closed || l == null) {
                            ch.close();
                            return;
                        }
                        Pipe pipe = new Pipe(SocketBase.this, false, l.endpoint, sndHwm, rcvHwm);
                        l.accepted.add(pipe);
                        ch.closeFuture().addListener(x -> l.accepted.remove(pipe));
                        initPipeline(ch, pipe, config, null);
                    }
                });
            } catch (IllegalArgumentException e) {
                throw new ZmqException.Endpoint(e.getMessage(), e);
            }
            f.awaitUninterruptibly();
            if (!f.isSuccess()) {
                throw new ZmqException.Endpoint("bind " + endpoint + " failed: " + f.cause(), f.cause());
            }
            String real = transport.boundEndpoint(ep, f.channel());
            Listener l = new Listener(real, endpoint, transport, f.channel());
            holder[0] = l;
            listeners.put(real, l);
            return real;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops every listener {@code endpoint} names: the string bind returned, the one it was given, or a form the
     * transport says is equivalent. Several when one wildcard string was bound more than once (libzmq also unbinds
     * every listener the string names).
     */
    public void unbind(String endpoint) {
        Endpoint ep;
        try {
            ep = Endpoint.parse(endpoint);
        } catch (IllegalArgumentException e) {
            ep = null;
        }
        lock.lock();
        try {
            checkOpen();
            List<Listener> named = new ArrayList<>();
            for (Listener l : listeners.values()) {
                if (l.endpoint.equals(endpoint) || l.requested.equals(endpoint)
                        || (ep != null && ep.scheme().equals(l.transport.scheme())
                            && l.transport.namesListener(ep, l.serverChannel))) {
                    named.add(l);
                }
            }
            if (named.isEmpty()) {
                throw new ZmqException.Endpoint("not bound to " + endpoint + " (bound: " + listeners.keySet() + ")");
            }
            for (Listener l : named) {
                listeners.remove(l.endpoint, l);
                closeListener(l);
            }
        } finally {
            lock.unlock();
        }
    }

    private void closeListener(Listener l) {
        l.serverChannel.close().awaitUninterruptibly();
        for (Pipe p : l.accepted) {
            Channel ch = p.channel();
            if (ch != null) {
                ch.close();
            }
        }
    }

    public void connect(String endpoint) {
        Endpoint ep = parse(endpoint);
        Transport transport = context.transport(ep.scheme());
        lock.lock();
        try {
            checkOpen();
            try {
                // Check the address now rather than fail in every reconnection attempt.
                if ("tcp".equals(ep.scheme())) {
                    checkTcpConnectAddress(ep);
                }
            } catch (IllegalArgumentException e) {
                throw new ZmqException.Endpoint(e.getMessage(), e);
            }
            ZmtpConfig config = zmtpConfig();
            Pipe pipe = new Pipe(this, true, endpoint, option(ZmqOption.SNDHWM), option(ZmqOption.RCVHWM));
            if (!option(ZmqOption.IMMEDIATE)) {
                addPipe(pipe);
            }
            Connector c = new Connector(transport, ep, context.group().next(),
                    onHs -> initializer(pipe, config, onHs),
                    option(ZmqOption.RECONNECT_IVL), option(ZmqOption.RECONNECT_IVL_MAX));
            connectors.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(c);
            connectPipes.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(pipe);
            c.start();
        } finally {
            lock.unlock();
        }
    }

    private static void checkTcpConnectAddress(Endpoint ep) {
        String a = ep.address();
        int colon = a.lastIndexOf(':');
        if (colon <= 0 || a.startsWith("*") || a.endsWith("*")) {
            throw new IllegalArgumentException("tcp address to connect to: " + a + " (expected: host:port)");
        }
    }

    public void disconnect(String endpoint) {
        lock.lock();
        try {
            checkOpen();
            List<Connector> cs = connectors.remove(endpoint);
            List<Pipe> ps = connectPipes.remove(endpoint);
            if (cs == null) {
                throw new ZmqException.Endpoint("not connected to " + endpoint);
            }
            cs.forEach(Connector::stop);
            for (Pipe p : ps) {
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

    private static Endpoint parse(String endpoint) {
        try {
            return Endpoint.parse(endpoint);
        } catch (IllegalArgumentException e) {
            throw new ZmqException.Endpoint(e.getMessage(), e);
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
    public void pipeEvent(ZmqEvent event) {
        for (Consumer<ZmqEvent> m : monitors) {
            try {
                m.accept(event);
            } catch (RuntimeException e) {
                logger.warn("monitor of {} failed on {}", type, event, e);
            }
        }
    }

    /** Adds a listener for connection events; it runs on an I/O thread and must not block. */
    public void addMonitor(Consumer<ZmqEvent> monitor) {
        monitors.add(monitor);
    }

    public void removeMonitor(Consumer<ZmqEvent> monitor) {
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
                if (!p.isConnecting() || option(ZmqOption.IMMEDIATE)) {
                    if (p.hasInput()) {
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
                if (!p.hasInput() && !p.isActive()) {
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
        for (List<Pipe> ps : connectPipes.values()) {
            ps.forEach(action);
        }
        for (Listener l : listeners.values()) {
            l.accepted.forEach(action);
        }
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
            throw new ZmqException.Closed(type + " socket is closed");
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
        long deadline = deadline(timeoutNanos);
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
                if (timeoutNanos == 0 || System.nanoTime() - deadline >= 0) {
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
        long deadline = deadline(timeoutNanos);
        for (;;) {
            long seq = signal.sequence();
            lock.lock();
            try {
                checkOpen();
                processEvents();
                if (prefetched == null) {
                    xcheckRecv();
                }
                ZmtpMessage m = recvLocked();
                if (m != null) {
                    return m.touch("ZmqSocket.receive");
                }
            } finally {
                lock.unlock();
            }
            if (timeoutNanos == 0 || System.nanoTime() - deadline >= 0) {
                return null;
            }
            await(seq, deadline);
        }
    }

    /** Whether a receive would return a message now; changes no state a send or receive depends on. Lock held. */
    private boolean hasIn() {
        if (prefetched != null) {
            return true;
        }
        try {
            xcheckRecv();
        } catch (ZmqException e) {
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
        if (msg.refCnt() == 0) {
            throw new IllegalArgumentException("message already released: " + msg);
        }
        if (msg.size() == 0) {
            msg.add(Unpooled.EMPTY_BUFFER);
        }
    }

    private ZmtpMessage recvLocked() {
        processEvents();
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
            throw new ZmqException.Interrupted("interrupted while waiting on a " + type + " socket", e);
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
        ReceiveFuture f = new ReceiveFuture();
        ZmtpMessage m;
        try {
            m = pendingReceives.isEmpty() ? receive(0) : null;
        } catch (ZmqException e) {
            f.completeExceptionally(e);
            return f;
        }
        if (m != null) {
            // Nobody else has seen f yet: the claim can't fail.
            f.claim();
            f.deliver(m);
            return f;
        }
        pendingReceives.add(f);
        ensureAsyncListener();
        scheduleAsync();
        return f;
    }

    public CompletionStage<Void> sendAsync(ZmtpMessage msg) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        try {
            checkSendable(msg);
        } catch (IllegalArgumentException e) {
            f.completeExceptionally(e);
            return f;
        }
        if (closed) {
            ReferenceCountUtil.release(msg);
            f.completeExceptionally(new ZmqException.Closed(type + " socket is closed"));
            return f;
        }
        pendingSends.add(new PendingSend(msg, f));
        ensureAsyncListener();
        scheduleAsync();
        return f;
    }

    private final AtomicBoolean asyncListening = new AtomicBoolean();

    private void ensureAsyncListener() {
        if (asyncListening.compareAndSet(false, true)) {
            signal.addListener(asyncTrigger);
        }
    }

    private void scheduleAsync() {
        if ((pendingReceives.isEmpty() && pendingSends.isEmpty()) || !asyncScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            context.asyncExecutor().execute(this::serviceAsync);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            asyncScheduled.set(false);
            failAsync();
        }
    }

    private void serviceAsync() {
        asyncScheduled.set(false);
        List<Runnable> completions = new ArrayList<>();
        lock.lock();
        try {
            if (closed) {
                failAsync();
                return;
            }
            processEvents();
            PendingSend s;
            while ((s = pendingSends.peek()) != null) {
                boolean sent;
                try {
                    sent = xsend(s.msg);
                } catch (ZmqException e) {
                    pendingSends.poll();
                    ReferenceCountUtil.release(s.msg);
                    PendingSend failed = s;
                    completions.add(() -> failed.future.completeExceptionally(e));
                    continue;
                }
                if (!sent) {
                    break;
                }
                pendingSends.poll();
                PendingSend done = s;
                completions.add(() -> done.future.complete(null));
            }
            ReceiveFuture f;
            while ((f = pendingReceives.peek()) != null) {
                if (f.isAbandoned()) {
                    // Cancelled or timed out by the application: it takes no message.
                    pendingReceives.poll();
                    continue;
                }
                if (prefetched == null) {
                    try {
                        xcheckRecv();
                    } catch (ZmqException e) {
                        pendingReceives.poll();
                        ReceiveFuture failed = f;
                        completions.add(() -> failed.completeExceptionally(e));
                        continue;
                    }
                }
                if (!hasIn()) {
                    break;
                }
                pendingReceives.poll();
                if (!f.claim()) {
                    continue;
                }
                ZmtpMessage m = recvLocked();
                ReceiveFuture claimed = f;
                completions.add(() -> claimed.deliver(m));
            }
        } finally {
            lock.unlock();
        }
        completions.forEach(Runnable::run);
    }

    private void failAsync() {
        ZmqException closedException = new ZmqException.Closed(type + " socket is closed");
        PendingSend s;
        while ((s = pendingSends.poll()) != null) {
            ReferenceCountUtil.release(s.msg);
            s.future.completeExceptionally(closedException);
        }
        ReceiveFuture f;
        while ((f = pendingReceives.poll()) != null) {
            f.completeExceptionally(closedException);
        }
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
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            closed = true;
            lingering = true;
            processEvents();
            // Connectors keep (re)connecting while we linger, so messages queued for a peer that isn't up yet can
            // still go out, as with libzmq; they stop once lingering is over.
            for (List<Connector> cs : connectors.values()) {
                stopping.addAll(cs);
            }
            connectors.clear();
            for (Listener l : listeners.values()) {
                l.serverChannel.close();
            }
            all = new ArrayList<>(pipes);
            all.addAll(draining);
            for (List<Pipe> ps : connectPipes.values()) {
                all.addAll(ps);
            }
            for (Listener l : listeners.values()) {
                all.addAll(l.accepted);
            }
            if (prefetched != null) {
                prefetched.release();
                prefetched = null;
            }
            xclose();
        } finally {
            lock.unlock();
        }
        signal.signal();
        long linger = option(ZmqOption.LINGER);
        long cap = context.lingerCapMillis();
        long millis = linger < 0 ? cap : Math.min(linger, cap);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        List<Pipe> lingeringPipes = new ArrayList<>(new LinkedHashSet<>(all));
        return () -> finishClose(lingeringPipes, deadline);
    }

    private void finishClose(List<Pipe> all, long deadline) {
        try {
            linger(all, deadline);
        } finally {
            lingering = false;
            stopping.forEach(Connector::stop);
        }
        listeners.clear();
        connectPipes.clear();
        failAsync();
        signal.removeListener(asyncTrigger);
        context.unregister(this);
    }

    private void linger(List<Pipe> all, long deadline) {
        if (System.nanoTime() - deadline < 0) {
            // Wait for queued output of connected (or still connecting) peers to reach the channel...
            for (;;) {
                long seq = signal.sequence();
                boolean pending = false;
                for (Pipe p : all) {
                    boolean mayDeliver = p.isActive() || p.state() == Pipe.State.CONNECTING;
                    if (mayDeliver && p.outDepth() > 0) {
                        pending = true;
                        break;
                    }
                }
                if (!pending || System.nanoTime() - deadline >= 0) {
                    break;
                }
                try {
                    signal.await(seq, deadline);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            // ...then for the channel to write it: an empty write completes after every earlier one.
            List<ChannelFuture> flushed = new ArrayList<>();
            for (Pipe p : all) {
                Channel ch = p.channel();
                if (p.isActive() && ch != null && ch.isActive()) {
                    flushed.add(ch.writeAndFlush(Unpooled.EMPTY_BUFFER));
                }
            }
            for (ChannelFuture f : flushed) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !f.awaitUninterruptibly(left, TimeUnit.NANOSECONDS)) {
                    break;
                }
            }
        }
        List<ChannelFuture> closing = new ArrayList<>();
        for (Pipe p : all) {
            p.terminate();
            Channel ch = p.channel();
            if (ch != null) {
                closing.add(ch.closeFuture());
            }
        }
        for (ChannelFuture f : closing) {
            f.awaitUninterruptibly(1, TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return type + " socket" + (closed ? " (closed)" : "");
    }
}
