package io.zmtp.socket.internal;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AbstractEventLoop;
import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelId;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelProgressivePromise;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.util.Attribute;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A channel that is only what a pipe and its queues ask of one, for the model-checking tests (*LincheckTest): open
 * until closed, always writable, writes counted and released, and an event loop that holds the one task it was
 * given (a pipe's drain) until the test runs it as the I/O thread would. An {@code EmbeddedChannel} would run its
 * pipeline, promises and task queue on those calls: code the model checker would explore as well, spending its budget
 * of interleavings away from ours. Every method nobody calls throws.
 */
final class StubChannel implements Channel {
    private volatile boolean active = true;
    /** Messages written, counted by frame batch as the drain hands them over (a batch counts its messages). */
    private volatile int written;
    private final StubLoop loop = new StubLoop();

    /** Messages this channel was handed (a drain's batch counts as its messages). */
    int written() {
        return written;
    }

    /** The I/O thread: runs the task its loop holds (a scheduled drain), if any; returns whether there was one. */
    boolean runPendingTask() {
        Runnable task = loop.pending.getAndSet(null);
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    boolean hasPendingTask() {
        return loop.pending.get() != null;
    }

    @Override
    public boolean isActive() {
        return active;
    }

    @Override
    public boolean isOpen() {
        return active;
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public ChannelFuture close() {
        active = false;
        return null;
    }

    @Override
    public ChannelFuture write(Object msg, ChannelPromise promise) {
        // Only the drain writes, on the I/O thread: a plain read-modify-write of a volatile is enough.
        written = written + (msg instanceof io.zmtp.codec.ZmtpMessageBatch
                ? ((io.zmtp.codec.ZmtpMessageBatch) msg).size() : 1);
        ReferenceCountUtil.release(msg);
        return null;
    }

    @Override
    public ChannelFuture write(Object msg) {
        return write(msg, null);
    }

    @Override
    public Channel flush() {
        return this;
    }

    @Override
    public ChannelPromise voidPromise() {
        return null;
    }

    @Override
    public EventLoop eventLoop() {
        return loop;
    }

    @Override
    public SocketAddress remoteAddress() {
        return null;
    }

    @Override
    public SocketAddress localAddress() {
        return null;
    }

    @Override
    public int compareTo(Channel o) {
        return Integer.compare(System.identityHashCode(this), System.identityHashCode(o));
    }

    // ---- nothing under test calls these

    @Override
    public ChannelId id() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Channel parent() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelConfig config() {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean isRegistered() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelMetadata metadata() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture closeFuture() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Unsafe unsafe() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelPipeline pipeline() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ByteBufAllocator alloc() {
        throw new UnsupportedOperationException();
    }

    @Override
    public Channel read() {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> Attribute<T> attr(AttributeKey<T> key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> boolean hasAttr(AttributeKey<T> key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture bind(SocketAddress localAddress, ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture connect(SocketAddress remoteAddress, ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture connect(SocketAddress remoteAddress, SocketAddress localAddress, ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture disconnect(ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture close(ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture deregister(ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture writeAndFlush(Object msg, ChannelPromise promise) {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelPromise newPromise() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelProgressivePromise newProgressivePromise() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture newSucceededFuture() {
        throw new UnsupportedOperationException();
    }

    @Override
    public ChannelFuture newFailedFuture(Throwable cause) {
        throw new UnsupportedOperationException();
    }

    /**
     * Holds the one task it is given; the test runs it ({@link #runPendingTask}). A pipe schedules at most one drain
     * at a time, so a second task while one is pending is a bug of the pipe's, and fails.
     */
    private static final class StubLoop extends AbstractEventLoop {
        final AtomicReference<Runnable> pending = new AtomicReference<>();

        @Override
        public void execute(Runnable task) {
            if (!pending.compareAndSet(null, task)) {
                throw new IllegalStateException("a second task while one is pending: two drains scheduled at once");
            }
        }

        @Override
        public boolean inEventLoop(Thread thread) {
            // The test calls runPendingTask from the thread it plays the I/O thread on.
            return true;
        }

        @Override
        public boolean isShuttingDown() {
            return false;
        }

        @Override
        public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Future<?> terminationFuture() {
            throw new UnsupportedOperationException();
        }

        @Override
        @Deprecated
        public void shutdown() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ChannelFuture register(Channel channel) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ChannelFuture register(ChannelPromise promise) {
            throw new UnsupportedOperationException();
        }

        @Override
        @Deprecated
        public ChannelFuture register(Channel channel, ChannelPromise promise) {
            throw new UnsupportedOperationException();
        }
    }
}
