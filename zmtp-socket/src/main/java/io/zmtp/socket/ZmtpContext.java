package io.zmtp.socket;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.internal.DealerSocket;
import io.zmtp.socket.internal.DishSocket;
import io.zmtp.socket.internal.NettyDefaults;
import io.zmtp.socket.internal.PairSocket;
import io.zmtp.socket.internal.PubSocket;
import io.zmtp.socket.internal.PullSocket;
import io.zmtp.socket.internal.PushSocket;
import io.zmtp.socket.internal.RadioSocket;
import io.zmtp.socket.internal.RepSocket;
import io.zmtp.socket.internal.ReqSocket;
import io.zmtp.socket.internal.RouterSocket;
import io.zmtp.socket.internal.ServerSocket;
import io.zmtp.socket.internal.SocketBase;
import io.zmtp.socket.internal.SocketContext;
import io.zmtp.socket.internal.StreamSocket;
import io.zmtp.socket.internal.SubSocket;
import io.zmtp.socket.internal.ZapClient;
import io.zmtp.socket.transport.InprocTransport;
import io.zmtp.socket.transport.IoKind;
import io.zmtp.socket.transport.IpcTransport;
import io.zmtp.socket.transport.TcpTransport;
import io.zmtp.socket.transport.UdpTransport;
import io.zmtp.socket.transport.WsTransport;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Owns the I/O threads (one shared Netty event loop group on the {@link ZmtpIoTransport} the builder chose: by
 * default epoll on Linux where its native library loads, else io_uring where that does, else NIO) and makes sockets.
 * Thread-safe. Closing it closes every socket it made (each with its LINGER, capped by
 * {@link Builder#lingerCapMillis}; the sockets linger together, so the wait is the longest of them) and stops the
 * threads.
 *
 * <pre>{@code
 * try (ZmtpContext ctx = new ZmtpContext()) {
 *     ZmtpSocket rep = ctx.socket(ZmtpSocketType.REP);
 *     String endpoint = rep.bind("tcp://127.0.0.1:*");
 *     ...
 * }
 * }</pre>
 */
public final class ZmtpContext implements AutoCloseable {
    static {
        // Before the first Netty class initialises: what start-up needn't pay for (NettyDefaults says what, and how
        // an application keeps Netty's own defaults).
        NettyDefaults.apply();
    }

    private static final int RESOLVE_THREADS = 4;
    private final EventLoopGroup group;
    private final ExecutorService asyncExecutor;
    private final ThreadPoolExecutor resolveExecutor;
    private final SocketContext context;
    private final InprocTransport inproc;
    private final ZapClient zap;
    private final IoKind io;
    private volatile boolean closed;
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    /** Opens when the close that started first has finished. */
    private final CountDownLatch closeDone = new CountDownLatch(1);
    /** The thread doing the close. */
    private volatile Thread closer;

    /** One I/O thread, {@link ZmtpIoTransport#AUTO}, 30 s linger cap. */
    public ZmtpContext() {
        this(builder());
    }

    private ZmtpContext(Builder b) {
        this.io = b.ioTransport.resolve();
        IoHandlerFactory factory = io.newHandlerFactory();
        DefaultThreadFactory ioThreads = new DefaultThreadFactory("zmq-io", true);
        // One I/O thread (the default, JeroMQ's too) is a loop of its own rather than a group of one: a group
        // hands its children's termination to Netty's GlobalEventExecutor, whose thread is not a daemon and
        // outlives it by a second, so a main that closed its context took a second more to exit.
        this.group = b.ioThreads == 1 ? new SingleThreadIoEventLoop(null, ioThreads, factory)
                : new MultiThreadIoEventLoopGroup(b.ioThreads, ioThreads, factory);
        this.asyncExecutor = Executors.newSingleThreadExecutor(new DefaultThreadFactory("zmq-async", true));
        // Its own threads, not the async executor: a lookup that hangs must not hold up async sends and receives,
        // and a few threads let other hosts resolve beside it. They time out when idle, so a context that only
        // uses IP addresses never starts one.
        this.resolveExecutor = new ThreadPoolExecutor(RESOLVE_THREADS, RESOLVE_THREADS, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), new DefaultThreadFactory("zmq-resolve", true));
        resolveExecutor.allowCoreThreadTimeOut(true);
        this.inproc = new InprocTransport();
        TcpTransport tcp = new TcpTransport(group, io, b.hostResolver, resolveExecutor);
        this.context = new SocketContext(group, asyncExecutor, b.lingerCapMillis,
                tcp,
                new WsTransport(tcp),
                new WsTransport(tcp, true),
                new IpcTransport(group, io),
                new UdpTransport(group, io),
                inproc);
        // libzmq's model: a ZAP handler bound at inproc://zeromq.zap.01 in the context checks every socket's peers.
        this.zap = new ZapClient(this::socket, inproc::hasListener);
        context.zapAuthenticator(zap);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether a native transport (epoll or io_uring) is in use rather than NIO. */
    public boolean isNativeTransport() {
        return io.isNative();
    }

    /** The I/O transport in use: NIO, EPOLL or IO_URING, never AUTO ({@link Builder#ioTransport} chose it). */
    public ZmtpIoTransport ioTransport() {
        return ZmtpIoTransport.of(io);
    }

    /** A new socket of {@code type}. */
    public ZmtpSocket socket(ZmtpSocketType type) {
        if (closed) {
            throw new ZmtpSocketException.Closed("context is closed");
        }
        SocketBase s;
        switch (type) {
            case REQ:
                s = new ReqSocket(context);
                break;
            case REP:
                s = new RepSocket(context);
                break;
            case ROUTER:
                s = new RouterSocket(context);
                break;
            case DEALER:
                s = new DealerSocket(context);
                break;
            case PUSH:
                s = new PushSocket(context);
                break;
            case PULL:
                s = new PullSocket(context);
                break;
            case PUB:
            case XPUB:
                s = new PubSocket(context, type);
                break;
            case SUB:
            case XSUB:
                s = new SubSocket(context, type);
                break;
            case PAIR:
                s = new PairSocket(context);
                break;
            case STREAM:
                s = new StreamSocket(context);
                break;
            case CLIENT:
                s = new DealerSocket(context, type);
                break;
            case SERVER:
            case PEER:
                s = new ServerSocket(context, type);
                break;
            case RADIO:
                s = new RadioSocket(context);
                break;
            case DISH:
                s = new DishSocket(context);
                break;
            case SCATTER:
                s = new PushSocket(context, type);
                break;
            case GATHER:
                s = new PullSocket(context, type);
                break;
            case CHANNEL:
                s = new PairSocket(context, type);
                break;
            default:
                throw new IllegalArgumentException("socket type: " + type);
        }
        if (!context.register(s)) {
            // close() took its list of sockets while this one was being made: it would never be closed.
            s.close();
            throw new ZmtpSocketException.Closed("context is closed");
        }
        return new ZmtpSocket(s);
    }

    /**
     * Closes every socket (lingering all at once), then stops the I/O threads. Idempotent: one caller does the work,
     * and a concurrent caller returns when it is done (at once if it is that caller itself, re-entering from a
     * socket's close, or one of the context's own threads, which the work waits for).
     */
    @Override
    public void close() {
        if (!closeStarted.compareAndSet(false, true)) {
            if (Thread.currentThread() != closer && !inContextThread()) {
                awaitClosed();
            }
            return;
        }
        closer = Thread.currentThread();
        try {
            closeOnce();
        } finally {
            closeDone.countDown();
        }
    }

    /** Tests: whether the I/O threads have stopped, which the close that does the work waits for. */
    boolean ioTerminated() {
        return group.isTerminated();
    }

    private void awaitClosed() {
        boolean interrupted = false;
        for (;;) {
            try {
                closeDone.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean inContextThread() {
        for (EventExecutor loop : group) {
            if (loop.inEventLoop()) {
                return true;
            }
        }
        return false;
    }

    private void closeOnce() {
        closed = true;
        zap.close();
        List<Runnable> rests = new ArrayList<>();
        for (SocketBase s : context.closeAll()) {
            Runnable rest = s.startClose();
            if (rest != null) {
                rests.add(rest);
            }
        }
        // Every socket is lingering by now, each against its own deadline, and the I/O threads deliver for all of
        // them at once: waiting them out one after another takes the longest LINGER, not the sum.
        rests.forEach(Runnable::run);
        // Not awaited: a lookup may be stuck in the OS resolver, and nothing waits for its answer any more.
        resolveExecutor.shutdownNow();
        inproc.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        asyncExecutor.shutdown();
        try {
            asyncExecutor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Context settings. */
    public static final class Builder {
        private int ioThreads = 1;
        private ZmtpIoTransport ioTransport = ZmtpIoTransport.AUTO;
        private long lingerCapMillis = 30_000;
        private TcpTransport.HostResolver hostResolver = InetAddress::getByName;

        private Builder() {
        }

        /** Number of I/O threads (default 1). */
        public Builder ioThreads(int ioThreads) {
            if (ioThreads < 1) {
                throw new IllegalArgumentException("ioThreads: " + ioThreads + " (expected: >= 1)");
            }
            this.ioThreads = ioThreads;
            return this;
        }

        /**
         * true (the default): {@link ZmtpIoTransport#AUTO}, a native transport where one is available; false: NIO.
         * The same setting as {@link #ioTransport}: the later call wins.
         */
        public Builder nativeTransport(boolean nativeTransport) {
            this.ioTransport = nativeTransport ? ZmtpIoTransport.AUTO : ZmtpIoTransport.NIO;
            return this;
        }

        /**
         * The I/O the context's threads run on (default {@link ZmtpIoTransport#AUTO}). One named explicitly must be
         * available, or {@link #build()} fails with an {@link IllegalStateException} that says why and what it
         * needs.
         */
        public Builder ioTransport(ZmtpIoTransport ioTransport) {
            this.ioTransport = Objects.requireNonNull(ioTransport, "ioTransport");
            return this;
        }

        /** The longest any socket's close waits for queued messages, whatever its LINGER (default 30 s). */
        public Builder lingerCapMillis(long millis) {
            if (millis < 0) {
                throw new IllegalArgumentException("lingerCapMillis: " + millis + " (expected: >= 0)");
            }
            this.lingerCapMillis = millis;
            return this;
        }

        /** Replaces DNS, so tests can have a host name that resolves slowly or never. */
        Builder hostResolver(TcpTransport.HostResolver hostResolver) {
            this.hostResolver = Objects.requireNonNull(hostResolver, "hostResolver");
            return this;
        }

        /**
         * A context with these settings.
         *
         * @throws IllegalStateException if the I/O transport asked for by name is not available here
         */
        public ZmtpContext build() {
            return new ZmtpContext(this);
        }
    }
}
