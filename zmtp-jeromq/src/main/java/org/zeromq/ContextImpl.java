package org.zeromq;

import io.zmtp.socket.ZmtpContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.Thread.UncaughtExceptionHandler;
import java.nio.channels.Selector;
import java.util.function.BiFunction;

/**
 * The body of {@link ZMQ.Context}: a netty-zmtp {@link ZmtpContext} with {@code n} I/O threads, and JeroMQ's
 * context options. Thread-safe.
 *
 * <p>Terminating closes every socket of the context (each with its LINGER, all at once, capped at 30 s), wakes the
 * threads blocked on them with ETERM and stops the I/O threads: it returns within the longest linger, never later,
 * where JeroMQ's {@code term()} waits until every socket has been closed by its own thread.
 */
abstract class ContextImpl {
    private final ZmtpContext zmtp;
    private final int ioThreads;
    private volatile boolean terminating;
    private volatile boolean terminated;
    private volatile int maxSockets = 1024;
    private volatile boolean blocky = true;
    private volatile boolean ipv6;
    private volatile UncaughtExceptionHandler uncaughtExceptionHandler =
            (t, e) -> e.printStackTrace();
    private volatile UncaughtExceptionHandler notificationExceptionHandler =
            (t, e) -> e.printStackTrace();
    private volatile BiFunction<Runnable, String, Thread> threadFactory = Thread::new;

    ContextImpl(int ioThreads) {
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads: " + ioThreads + " (expected: >= 0)");
        }
        this.ioThreads = ioThreads;
        // JeroMQ allows 0 I/O threads for inproc-only contexts; netty-zmtp's inproc needs none, but the context
        // needs one event loop for its control plane.
        this.zmtp = ZmtpContext.builder().ioThreads(Math.max(1, ioThreads)).build();
    }

    ZmtpContext zmtp() {
        return zmtp;
    }

    boolean isTerminating() {
        return terminating;
    }

    /** Marks the context as terminating before its sockets are closed, so that blocked calls report ETERM. */
    void startTerm() {
        terminating = true;
    }

    /** Whether {@link #term()} was called. */
    public boolean isTerminated() {
        return terminated;
    }

    /** Same as {@link #isTerminated()}. */
    public boolean isClosed() {
        return terminated;
    }

    /** The number of I/O threads the context was made with. */
    public int getIOThreads() {
        return ioThreads;
    }

    /**
     * Always false: the I/O threads are started with the context, as netty-zmtp's event loop group is; make a
     * context with the threads wanted ({@link ZMQ#context(int)}).
     */
    public boolean setIOThreads(int ioThreads) {
        return false;
    }

    /** JeroMQ's ZMQ_MAX_SOCKETS; netty-zmtp has no limit on sockets, so this is only stored. */
    public int getMaxSockets() {
        return maxSockets;
    }

    /** Stores ZMQ_MAX_SOCKETS (netty-zmtp doesn't limit the number of sockets); true. */
    public boolean setMaxSockets(int maxSockets) {
        this.maxSockets = maxSockets;
        return true;
    }

    /** ZMQ_BLOCKY: stored; every socket lingers as its own LINGER says, capped by the context's 30 s. */
    public boolean getBlocky() {
        return blocky;
    }

    /** Same as {@link #getBlocky()}. */
    public boolean isBlocky() {
        return blocky;
    }

    /** Stores ZMQ_BLOCKY; true. */
    public boolean setBlocky(boolean block) {
        this.blocky = block;
        return true;
    }

    /** ZMQ_IPV6 as set; netty-zmtp binds and connects whatever address family the endpoint names. */
    public boolean isIPv6() {
        return ipv6;
    }

    /** Same as {@link #isIPv6()}. */
    public boolean getIPv6() {
        return ipv6;
    }

    /** Stores ZMQ_IPV6; true. IPv6 endpoints work whether or not it is set. */
    public boolean setIPv6(boolean ipv6) {
        this.ipv6 = ipv6;
        return true;
    }

    /** Stored for JeroMQ's API; netty-zmtp's I/O threads log their errors instead of calling it. */
    public void setUncaughtExceptionHandler(UncaughtExceptionHandler handler) {
        this.uncaughtExceptionHandler = handler;
    }

    public UncaughtExceptionHandler getUncaughtExceptionHandler() {
        return uncaughtExceptionHandler;
    }

    /** Stored for JeroMQ's API; netty-zmtp's I/O threads log their errors instead of calling it. */
    public void setNotificationExceptionHandler(UncaughtExceptionHandler handler) {
        this.notificationExceptionHandler = handler;
    }

    public UncaughtExceptionHandler getNotificationExceptionHandler() {
        return notificationExceptionHandler;
    }

    /** Stored for JeroMQ's API (and used by ZContext's forked threads); the I/O threads are Netty's. */
    public void setThreadFactor(BiFunction<Runnable, String, Thread> threadFactory) {
        this.threadFactory = threadFactory;
    }

    public BiFunction<Runnable, String, Thread> getThreadFactory() {
        return threadFactory;
    }

    /**
     * Closes every socket made by this context (blocked calls on them throw {@link ZMQException} with ETERM) after
     * their linger, and stops the I/O threads. Returns within the longest LINGER of the sockets (capped at 30 s).
     * Idempotent.
     */
    public void term() {
        terminating = true;
        zmtp.close();
        terminated = true;
    }

    /** Same as {@link #term()}. */
    public void close() {
        term();
    }

    /** A new {@link Selector}, for JeroMQ's {@code poll(Selector, ...)} signatures; the caller closes it. */
    public Selector selector() {
        try {
            return Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes {@code selector}; true if it was open. */
    public boolean close(Selector selector) {
        if (selector == null || !selector.isOpen()) {
            return false;
        }
        try {
            selector.close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
