package org.zeromq;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads for actors, as JeroMQ 0.6.0's {@code ZThread}: {@link #fork} runs a task on a new thread with a shadow of
 * the caller's context and one end of a PAIR pipe over inproc, and gives the caller the other end; {@link #start}
 * runs a task on a daemon thread with nothing attached.
 *
 * <h2>Lifecycle</h2>
 * A forked thread ends when its task returns; its shadow context is then closed, which closes every socket the task
 * made in it (its end of the pipe included), so the caller's end sees the pipe go quiet and nothing is left open.
 * When the caller's context is closed, the task's blocking calls throw {@link ZMQException} with ETERM; the thread
 * ends quietly on ETERM (and on EINTR, when it is interrupted) and hands any other exception to the context's
 * uncaught exception handler.
 */
public class ZThread {
    /** Pipe names must differ within a context; a counter is unique where JeroMQ's hash code may collide. */
    private static final AtomicLong PIPES = new AtomicLong();

    private ZThread() {
    }

    /** A task run by {@link #fork}: {@code pipe} is its end of the pipe to the forking thread. */
    public interface IAttachedRunnable {
        /**
         * @param args the arguments given to {@link #fork}
         * @param ctx  a shadow of the forking thread's context, closed when this returns
         * @param pipe this thread's end of the PAIR pipe
         */
        void run(Object[] args, ZContext ctx, ZMQ.Socket pipe);
    }

    /** A task run by {@link #start}, with no context or pipe of its own. */
    public interface IDetachedRunnable {
        /** @param args the arguments given to {@link #start} */
        void run(Object[] args);
    }

    /** Runs {@code runnable} with {@code args} on a new daemon thread. */
    public static void start(IDetachedRunnable runnable, Object... args) {
        java.util.Objects.requireNonNull(runnable, "runnable");
        Thread thread = new Thread(() -> runnable.run(args));
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code runnable} on a new thread with a shadow of {@code ctx} and a PAIR pipe between the two threads.
     *
     * @return the caller's end of the pipe, a socket of {@code ctx}
     */
    public static ZMQ.Socket fork(ZContext ctx, IAttachedRunnable runnable, Object... args) {
        java.util.Objects.requireNonNull(runnable, "runnable");
        String endpoint = "inproc://zctx-pipe-" + PIPES.incrementAndGet();
        ZMQ.Socket pipe = ctx.createSocket(SocketType.PAIR);
        pipe.bind(endpoint);
        ZContext shadow = ctx.shadow();
        ZMQ.Socket theirs = shadow.createSocket(SocketType.PAIR);
        // Returns with the two ends joined (a connect to a bound inproc name does, as libzmq's): a task that sends
        // and returns at once closes its end with the context's linger of 0, and what it sent has a pipe to go to.
        theirs.connect(endpoint);
        Thread thread = new Thread(() -> runAttached(runnable, args, shadow, theirs));
        thread.setUncaughtExceptionHandler(ctx.getUncaughtExceptionHandler());
        thread.start();
        return pipe;
    }

    private static void runAttached(IAttachedRunnable runnable, Object[] args, ZContext shadow, ZMQ.Socket pipe) {
        try {
            runnable.run(args, shadow, pipe);
        } catch (ZMQException e) {
            int code = e.getErrorCode();
            if (code != ZMQ.Error.ETERM.getCode() && code != ZMQ.Error.EINTR.getCode()) {
                throw e;
            }
        } finally {
            shadow.close();
        }
    }
}
