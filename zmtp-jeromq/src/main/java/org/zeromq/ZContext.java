package org.zeromq;

import java.io.Closeable;
import java.lang.Thread.UncaughtExceptionHandler;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * A context that keeps track of its sockets, as JeroMQ's (and CZMQ's zctx): sockets made with
 * {@link #createSocket} get the context's HWMs and linger, and {@link #close()} closes them all and terminates the
 * context. Shadows ({@link #shadow()}) share the context and keep their own sockets, for threads of one application.
 * Thread-safe.
 *
 * <h2>Closing</h2>
 * Closing the main context closes its sockets and its shadows' all at once, each lingering up to its own LINGER
 * (the context's when it was made, 0 by default, unless the application set another; JeroMQ's {@code close()} too
 * closes each socket with its own, and only {@link #destroySocket} applies the context's), and returns within the
 * longest: threads blocked on any of them throw {@link ZMQException} with ETERM, and their sockets need not be closed
 * by those threads first (JeroMQ's {@code close()} can hang on a socket another thread still uses). Closing a shadow
 * closes only its sockets. The Guide's syncpub sets LINGER 5000 on its PUB and closes its context right after the
 * last send: with the context's 0 applied at close, its subscribers lost the last 60-190 k of a million messages.
 */
public class ZContext implements Closeable {
    private final ZMQ.Context context;
    private final Set<ZMQ.Socket> sockets = Collections.newSetFromMap(new ConcurrentHashMap<>());
    private final Set<Selector> selectors = Collections.newSetFromMap(new ConcurrentHashMap<>());
    private final Set<ZContext> shadows;
    private final int ioThreads;
    private final boolean main;
    private volatile int linger;
    private volatile int sndhwm = 1000;
    private volatile int rcvhwm = 1000;
    private volatile boolean closed;

    /** A context with one I/O thread. */
    public ZContext() {
        this(1);
    }

    /** A context with {@code ioThreads} I/O threads. */
    public ZContext(int ioThreads) {
        this(null, ioThreads);
    }

    private ZContext(ZContext parent, int ioThreads) {
        this.ioThreads = ioThreads;
        if (parent == null) {
            this.main = true;
            this.context = ZMQ.context(ioThreads);
            this.shadows = Collections.newSetFromMap(new ConcurrentHashMap<>());
        } else {
            this.main = false;
            this.context = parent.context;
            this.shadows = parent.shadows;
            shadows.add(this);
        }
    }

    /** Same as {@link #close()}. */
    public void destroy() {
        close();
    }

    /**
     * Closes every socket made here (and, for the main context, its shadows' sockets), then terminates the context
     * if this is the main one. Returns within the linger. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Selector selector : selectors) {
            context.close(selector);
        }
        selectors.clear();
        if (main) {
            context.startTerm();
            List<ZMQ.Socket> all = new ArrayList<>(sockets);
            for (ZContext shadow : shadows) {
                shadow.closed = true;
                all.addAll(shadow.sockets);
                shadow.sockets.clear();
            }
            shadows.clear();
            sockets.clear();
            // Each with its own linger, applied by the context's close, where they linger together.
            context.term();
            for (ZMQ.Socket s : all) {
                s.releaseFrames();
            }
        } else {
            for (ZMQ.Socket s : new ArrayList<>(sockets)) {
                closeSocket(s);
            }
            shadows.remove(this);
        }
    }

    private void lingerQuietly(ZMQ.Socket s) {
        try {
            s.setLinger(linger);
        } catch (ZMQException closedAlready) {
            // Closed by its owner meanwhile: nothing to linger.
        }
    }

    /** Whether the context is terminated. */
    public boolean isClosed() {
        return main ? context.isClosed() : closed || context.isClosed();
    }

    /** A new socket of {@code type} with this context's SNDHWM, RCVHWM and LINGER, closed with the context. */
    public ZMQ.Socket createSocket(SocketType type) {
        if (closed) {
            throw new ZMQException("context is closed", ErrorCodes.ETERM);
        }
        ZMQ.Socket socket = new ZMQ.Socket(this, type);
        socket.setRcvHWM(rcvhwm);
        socket.setSndHWM(sndhwm);
        socket.setLinger(linger);
        sockets.add(socket);
        return socket;
    }

    @Deprecated
    public ZMQ.Socket createSocket(int type) {
        return createSocket(SocketType.type(type));
    }

    /** Closes {@code s} with the context's linger and forgets it. */
    @Deprecated
    public void destroySocket(ZMQ.Socket s) {
        if (s == null) {
            return;
        }
        lingerQuietly(s);
        closeSocket(s);
    }

    /** Called by a socket's close. */
    void closeSocket(ZMQ.Socket s) {
        try {
            s.internalClose();
        } finally {
            sockets.remove(s);
        }
    }

    /** A new selector, closed with the context. */
    @Deprecated
    public Selector createSelector() {
        Selector selector = context.selector();
        selectors.add(selector);
        return selector;
    }

    @Deprecated
    public void closeSelector(Selector selector) {
        if (selectors.remove(selector)) {
            context.close(selector);
        }
    }

    /** A poller with room for {@code size} items. */
    public ZMQ.Poller createPoller(int size) {
        return new ZMQ.Poller(context, size);
    }

    /** A shadow of {@code ctx}. */
    @Deprecated
    public static ZContext shadow(ZContext ctx) {
        return ctx.shadow();
    }

    /** A context sharing this one's I/O threads, with its own sockets; closed with this one. */
    public ZContext shadow() {
        if (!main) {
            throw new IllegalStateException("Shadow contexts don't cast shadows");
        }
        ZContext shadow = new ZContext(this, ioThreads);
        shadow.linger = linger;
        shadow.sndhwm = sndhwm;
        shadow.rcvhwm = rcvhwm;
        return shadow;
    }

    /**
     * Runs {@code runnable} on a new thread with a shadow of this context and one end of a PAIR pipe; returns the
     * other end ({@link ZThread#fork}).
     */
    public ZMQ.Socket fork(ZThread.IAttachedRunnable runnable, Object... args) {
        return ZThread.fork(this, runnable, args);
    }

    public int getIoThreads() {
        return ioThreads;
    }

    /** No effect, as in JeroMQ: the threads start with the context. */
    @Deprecated
    public void setIoThreads(int ioThreads) {
    }

    public int getLinger() {
        return linger;
    }

    /** LINGER of the sockets made from now on, and of every socket when the context closes. */
    public void setLinger(int linger) {
        this.linger = linger;
    }

    public void setRcvHWM(int rcvhwm) {
        this.rcvhwm = rcvhwm;
    }

    public void setSndHWM(int sndhwm) {
        this.sndhwm = sndhwm;
    }

    public void setUncaughtExceptionHandler(UncaughtExceptionHandler handler) {
        context.setUncaughtExceptionHandler(handler);
    }

    public UncaughtExceptionHandler getUncaughtExceptionHandler() {
        return context.getUncaughtExceptionHandler();
    }

    public void setNotificationExceptionHandler(UncaughtExceptionHandler handler) {
        context.setNotificationExceptionHandler(handler);
    }

    public UncaughtExceptionHandler getNotificationExceptionHandler() {
        return context.getNotificationExceptionHandler();
    }

    public void setThreadFactor(BiFunction<Runnable, String, Thread> threadFactory) {
        context.setThreadFactor(threadFactory);
    }

    public BiFunction<Runnable, String, Thread> getThreadFactory() {
        return context.getThreadFactory();
    }

    /** Whether this is the main context (not a shadow). */
    public boolean isMain() {
        return main;
    }

    /** Whether no sockets, selectors or shadows are open. */
    public boolean isEmpty() {
        return shadows.isEmpty() && sockets.isEmpty() && selectors.isEmpty();
    }

    /** No effect, as in JeroMQ. */
    @Deprecated
    public void setMain(boolean main) {
    }

    /** The underlying context. */
    public ZMQ.Context getContext() {
        return context;
    }

    /** No effect, as in JeroMQ. */
    @Deprecated
    public void setContext(ZMQ.Context ctx) {
    }

    /** A snapshot of the sockets made here and not closed. */
    public List<ZMQ.Socket> getSockets() {
        return new ArrayList<>(sockets);
    }
}
