package io.zmtp.tools.perf;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.internal.PlatformDependent;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.tools.Transports;

import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A {@link PerfSocket} built from the codec alone: one event loop thread, a {@link ZmtpHandshakeHandler} per connection, and a
 * queue each way between the event loop and the thread using the socket, both bounded by the high-water mark (send
 * blocks at it; reading pauses with auto-read off). It plays just enough of each socket type for the perf tools:
 * REQ/REP envelopes (the empty delimiter) by hand, SUB subscribes to everything, PUB waits for a subscription and
 * sends only matching messages; sends go to the first peer that completed its handshake.
 */
final class CodecPerfSocket implements PerfSocket {
    /** Outbound buffer limits per connection: bounded memory, and room for a few 64 KiB messages in flight. */
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);
    private static final long CONNECT_RETRY_MILLIS = 100;
    private static final long CONNECT_GIVE_UP_MILLIS = 30_000;
    private static final long SPIN_NANOS = 20_000;
    private static final long YIELD_NANOS = 200_000;

    private final ZmtpSocketType type;
    private final int hwm;
    private final EventLoopGroup group;
    private final EventLoop eventLoop;
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final Thread owner = Thread.currentThread();

    // Each counter has one writer, so the two threads never write the same cache line per message.
    private final Queue<ZmtpMessage> inbound = PlatformDependent.newMpscQueue();
    /** Messages put on {@link #inbound}; written by the event loop. */
    private final AtomicLong received = new AtomicLong();
    /** Messages taken off {@link #inbound}; written by the owner. */
    private final AtomicLong consumed = new AtomicLong();
    private final Queue<ZmtpMessage> outbound;
    /** Messages put on {@link #outbound}; owner only. */
    private long offered;
    /** Messages taken off {@link #outbound}; written by the event loop once per drain. */
    private final AtomicLong drained = new AtomicLong();
    private final AtomicInteger drainScheduled = new AtomicInteger();
    private final Runnable drainTask = this::drain;
    private final Runnable resumeTask = this::resumeReading;

    /** The connection sends go to; set on the event loop once it may carry messages. */
    private volatile ChannelHandlerContext peer;
    private volatile boolean ownerParked;
    private volatile boolean readPaused;

    // Event loop only.
    private final List<Channel> pausedChannels = new ArrayList<>();
    private final List<byte[]> subscriptions = new ArrayList<>();
    private boolean subscribedToAll;

    // Owner thread only: REP's saved envelope of the request being answered.
    private final ArrayDeque<ByteBuf> envelope = new ArrayDeque<>();

    private CodecPerfSocket(ZmtpSocketType type, Transports transport, int hwm) {
        this.type = type;
        this.hwm = hwm;
        this.outbound = PlatformDependent.newFixedMpscQueue(hwm);
        this.group = transport.newGroup(1);
        this.eventLoop = group.next();
    }

    static CodecPerfSocket bind(ZmtpSocketType type, InetSocketAddress address, Transports transport, int hwm) {
        CodecPerfSocket socket = new CodecPerfSocket(type, transport, hwm);
        try {
            Channel listener = new ServerBootstrap()
                    .group(socket.group)
                    .channel(transport.serverChannel())
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .childHandler(socket.initializer())
                    .bind(address).syncUninterruptibly().channel();
            socket.channels.add(listener);
            return socket;
        } catch (RuntimeException e) {
            socket.shutdown();
            throw new IllegalStateException("can't bind " + address + ": " + e.getMessage(), e);
        }
    }

    /** Connects, retrying while nothing listens yet (libzmq reconnects the same way), for up to 30 s. */
    static CodecPerfSocket connect(ZmtpSocketType type, InetSocketAddress address, Transports transport, int hwm) {
        CodecPerfSocket socket = new CodecPerfSocket(type, transport, hwm);
        Bootstrap bootstrap = new Bootstrap()
                .group(socket.group)
                .channel(transport.socketChannel())
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .handler(socket.initializer());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_GIVE_UP_MILLIS);
        while (true) {
            ChannelFuture f = bootstrap.connect(address).awaitUninterruptibly();
            if (f.isSuccess()) {
                socket.channels.add(f.channel());
                return socket;
            }
            if (System.nanoTime() - deadline > 0) {
                socket.shutdown();
                throw new IllegalStateException("can't connect to " + address + " within "
                        + CONNECT_GIVE_UP_MILLIS + " ms: " + f.cause().getMessage(), f.cause());
            }
            sleepMillis(CONNECT_RETRY_MILLIS);
        }
    }

    private ChannelInitializer<Channel> initializer() {
        ZmtpConfig config = ZmtpConfig.builder(type).build();
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                channels.add(ch);
                ch.pipeline().addLast(new ZmtpHandshakeHandler(config));
                ch.pipeline().addLast(new ConnectionHandler());
            }
        };
    }

    // ---- owner thread

    @Override
    public void send(ZmtpMessage message) {
        if (type == ZmtpSocketType.REQ) {
            message.addFirst(Unpooled.EMPTY_BUFFER);
        } else if (type == ZmtpSocketType.REP) {
            while (!envelope.isEmpty()) {
                message.addFirst(envelope.pollLast());
            }
        }
        if (offered - drained.get() >= hwm) {
            await(() -> offered - drained.get() < hwm);
        }
        if (!outbound.offer(message)) {
            // Unreachable: at most hwm messages are ever queued.
            message.release();
            throw new IllegalStateException("send queue full");
        }
        offered++;
        if (drainScheduled.get() == 0 && drainScheduled.compareAndSet(0, 1)) {
            eventLoop.execute(drainTask);
        }
    }

    @Override
    public ZmtpMessage receive() {
        while (true) {
            ZmtpMessage m = inbound.poll();
            if (m == null) {
                await(() -> !inbound.isEmpty());
                continue;
            }
            long taken = consumed.get() + 1;
            consumed.lazySet(taken);
            if (readPaused && received.get() - taken <= hwm / 2) {
                readPaused = false;
                eventLoop.execute(resumeTask);
            }
            if (type == ZmtpSocketType.REQ || type == ZmtpSocketType.REP) {
                m = stripEnvelope(m);
                if (m == null) {
                    continue;
                }
            }
            return m;
        }
    }

    /** REQ: drops the empty delimiter (a reply without it is discarded); REP: saves the envelope for the reply. */
    private ZmtpMessage stripEnvelope(ZmtpMessage m) {
        releaseEnvelope();
        while (m.size() > 1) {
            ByteBuf frame = m.removeFirst();
            if (!frame.isReadable()) {
                if (type == ZmtpSocketType.REP) {
                    envelope.addLast(frame);
                } else {
                    frame.release();
                }
                return m;
            }
            if (type == ZmtpSocketType.REP) {
                envelope.addLast(frame);
            } else {
                frame.release();
            }
        }
        // No delimiter: rfc 28 says discard the message.
        m.release();
        releaseEnvelope();
        return null;
    }

    private void releaseEnvelope() {
        ByteBuf f;
        while ((f = envelope.poll()) != null) {
            f.release();
        }
    }

    /** Spins briefly, then yields, then parks in short slices (an event loop wake-up may race the park). */
    private void await(BooleanSupplier condition) {
        long start = System.nanoTime();
        while (!condition.getAsBoolean()) {
            long waited = System.nanoTime() - start;
            if (waited < SPIN_NANOS) {
                Thread.onSpinWait();
            } else if (waited < YIELD_NANOS) {
                Thread.yield();
            } else {
                ownerParked = true;
                if (!condition.getAsBoolean()) {
                    LockSupport.parkNanos(this, 100_000);
                }
                ownerParked = false;
            }
        }
    }

    @Override
    public void close() {
        try {
            await(() -> drained.get() == offered);
            ChannelHandlerContext ctx = peer;
            if (ctx != null && ctx.channel().isActive()) {
                // Completes after every earlier write: what was queued is in the kernel's hands.
                ctx.channel().writeAndFlush(Unpooled.EMPTY_BUFFER).awaitUninterruptibly();
            }
        } finally {
            releaseEnvelope();
            shutdown();
        }
    }

    private void shutdown() {
        channels.close().awaitUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        ZmtpMessage m;
        while ((m = inbound.poll()) != null) {
            m.release();
        }
        while ((m = outbound.poll()) != null) {
            m.release();
        }
    }

    // ---- event loop

    private void drain() {
        drainScheduled.set(0);
        ChannelHandlerContext ctx = peer;
        if (ctx == null) {
            return;
        }
        Channel ch = ctx.channel();
        int written = 0;
        ZmtpMessage m;
        while (ch.isWritable() && (m = outbound.poll()) != null) {
            written++;
            if (type == ZmtpSocketType.PUB && !matchesSubscription(m)) {
                m.release();
                continue;
            }
            ctx.write(m, ctx.voidPromise());
        }
        if (written > 0) {
            ctx.flush();
            drained.lazySet(drained.get() + written);
            wakeOwner();
        }
        if (ch.isWritable() && !outbound.isEmpty()
                && drainScheduled.get() == 0 && drainScheduled.compareAndSet(0, 1)) {
            eventLoop.execute(drainTask);
        }
    }

    private void resumeReading() {
        for (Channel ch : pausedChannels) {
            ch.config().setAutoRead(true);
        }
        pausedChannels.clear();
    }

    private void wakeOwner() {
        if (ownerParked) {
            LockSupport.unpark(owner);
        }
    }

    private boolean matchesSubscription(ZmtpMessage m) {
        if (subscribedToAll) {
            return true;
        }
        ByteBuf first = m.frame(0);
        for (byte[] prefix : subscriptions) {
            if (first.readableBytes() >= prefix.length) {
                boolean match = true;
                for (int i = 0; i < prefix.length && match; i++) {
                    match = first.getByte(first.readerIndex() + i) == prefix[i];
                }
                if (match) {
                    return true;
                }
            }
        }
        return false;
    }

    private void subscribe(ChannelHandlerContext ctx, ByteBuf topic) {
        byte[] prefix = new byte[topic.readableBytes()];
        topic.getBytes(topic.readerIndex(), prefix);
        subscriptions.add(prefix);
        subscribedToAll |= prefix.length == 0;
        setPeer(ctx);
    }

    private void setPeer(ChannelHandlerContext ctx) {
        if (peer == null) {
            peer = ctx;
            drain();
        }
    }

    /** One per connection, after the {@link ZmtpHandshakeHandler}. */
    private final class ConnectionHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                if (type == ZmtpSocketType.SUB) {
                    ctx.writeAndFlush(ZmtpCommand.subscribe(Unpooled.EMPTY_BUFFER), ctx.voidPromise());
                }
                if (type != ZmtpSocketType.PUB) {
                    setPeer(ctx);
                }
            } else if (evt instanceof ZmtpHandshakeFailureEvent) {
                System.err.println("zmtp: handshake failed: " + evt);
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZmtpMessage && type != ZmtpSocketType.PUB) {
                inbound.offer((ZmtpMessage) msg);
                long n = received.get() + 1;
                received.lazySet(n);
                // Checked every 64 messages: the owner's counter stays off this thread's path most of the time.
                if ((n & 63) == 0 && n - consumed.get() >= hwm && ctx.channel().config().isAutoRead()) {
                    ctx.channel().config().setAutoRead(false);
                    pausedChannels.add(ctx.channel());
                    readPaused = true;
                    if (received.get() - consumed.get() <= hwm / 2) {
                        // The owner drained the queue meanwhile and saw readPaused == false.
                        readPaused = false;
                        resumeReading();
                    }
                }
                wakeOwner();
                return;
            }
            try {
                if (msg instanceof ZmtpCommand && type == ZmtpSocketType.PUB) {
                    ZmtpCommand command = (ZmtpCommand) msg;
                    if (command.is(ZmtpCommand.SUBSCRIBE)) {
                        subscribe(ctx, command.content());
                    }
                } else if (msg instanceof ZmtpMessage && type == ZmtpSocketType.PUB) {
                    // ZMTP 3.0 peers subscribe with a message: 0x01 + topic.
                    ZmtpMessage m = (ZmtpMessage) msg;
                    ByteBuf f = m.frame(0);
                    if (m.size() == 1 && f.isReadable() && f.getByte(f.readerIndex()) == 1) {
                        subscribe(ctx, f.slice(f.readerIndex() + 1, f.readableBytes() - 1));
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx == peer && ctx.channel().isWritable()) {
                drain();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof ClosedChannelException)) {
                System.err.println("zmtp: " + ctx.channel().remoteAddress() + ": " + cause);
            }
            ctx.close();
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
