package io.zmtp.tools.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.zmtp.codec.ZmtpBatchFlusher;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One-way throughput in one JVM: a PUSH client writes from its event loop in bursts while the channel is writable
 * (memory stays bounded), a PULL server counts whole messages; a line per second of the receive rate.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true,
        description = "PUSH -> PULL over tcp://127.0.0.1 in one JVM (codec only, or --socket, over tcp, ws or inproc), "
                + "a line per second.")
public final class ThroughputBench implements Callable<Integer> {
    @Mixin
    BenchOptions options;

    @Option(names = "--socket", description = "Run on zmtp-socket's ZmtpSocket instead of a bare codec pipeline.")
    boolean socket;

    @Option(names = "--transport", defaultValue = "tcp", description = "With --socket: tcp (two contexts, as two "
            + "processes would have), ws (the same over ws://127.0.0.1) or inproc (one context; messages pass by "
            + "reference) (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(names = "--batching", defaultValue = "on", arity = "1", description = "Codec only: on, flush once per "
            + "burst; off, flush every message (default: ${DEFAULT-VALUE}).")
    String batching;

    @Option(names = "--same-message", description = "Codec only: write one message again and again, retained for each "
            + "write (Spotify netty-zmtp's ThroughputBenchmark shape), instead of building one per write.")
    boolean sameMessage;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (sameMessage && socket) {
                throw new IllegalArgumentException("--same-message is for the codec only");
            }
            if (!BenchOptions.batching(batching) && socket) {
                throw new IllegalArgumentException("--batching off: the socket layer decides when to flush");
            }
            if (!"tcp".equals(transport) && !(("inproc".equals(transport) || "ws".equals(transport)) && socket)) {
                throw new IllegalArgumentException("--transport: tcp, or inproc or ws with --socket (got " + transport
                        + ")");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench throughput: " + e.getMessage());
            return 2;
        }
        return socket ? runSockets() : runCodec();
    }

    /**
     * The same over zmtp-socket: a PUSH and a PULL in contexts of their own (one I/O thread each, as two processes
     * would have), an application thread sending and one receiving. Over inproc both are in one context, since
     * inproc names belong to a context.
     */
    private int runSockets() throws Exception {
        LongAdder received = new LongAdder();
        boolean inproc = "inproc".equals(transport);
        try (ZmtpContext pullContext = options.context.newContext();
             ZmtpContext pushContext = inproc ? pullContext : options.context.newContext();
             ZmtpSocket pull = pullContext.socket(ZmtpSocketType.PULL);
             ZmtpSocket push = pushContext.socket(ZmtpSocketType.PUSH)) {
            push.setOption(ZmtpSocketOption.LINGER, 0);
            String endpoint = pull.bind(inproc ? "inproc://bench-throughput"
                    : "ws".equals(transport) ? "ws://127.0.0.1:*/bench" : "tcp://127.0.0.1:*");
            push.connect(endpoint);
            AtomicBoolean running = new AtomicBoolean(true);
            ByteBuf payload = Payload.shared(options.size);
            // Made once: a Duration per call would be the benchmark's own cost, not the socket's.
            Duration wait = Duration.ofMillis(100);
            Thread sender = new Thread(() -> {
                while (running.get()) {
                    ZmtpMessage message = ZmtpMessage.create();
                    for (int f = 0; f < options.frames; f++) {
                        message.add(payload.duplicate());
                    }
                    push.send(message, wait);
                }
            }, "bench-sender");
            Thread receiver = new Thread(() -> {
                while (running.get()) {
                    ZmtpMessage m = pull.receive(wait);
                    if (m != null) {
                        m.release();
                        received.increment();
                    }
                }
            }, "bench-receiver");
            sender.start();
            receiver.start();
            System.out.printf("zmtp bench throughput: PUSH -> PULL over %s, %d x %d B frames per message, %s, "
                            + "socket layer, %d s%n", endpoint, options.frames, options.size,
                    inproc ? "local channels" : pushContext.ioTransport(),
                    options.durationSeconds);
            printRates(received);
            running.set(false);
            sender.join();
            receiver.join();
        }
        return 0;
    }

    private void printRates(LongAdder received) throws InterruptedException {
        ProgressPrinter printer = new ProgressPrinter(System.out, received);
        long sum = 0;
        for (int s = 0; s < options.durationSeconds; s++) {
            sum += printer.awaitAndPrint("");
        }
        System.out.printf("average: %,d messages/s over %d s%n", sum / options.durationSeconds,
                options.durationSeconds);
    }

    private int runCodec() throws Exception {
        CodecBootstrap t = new CodecBootstrap(options.context);
        EventLoopGroup serverGroup = t.newGroup(options.context.ioThreads());
        ChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        EventLoopGroup clientGroup = t.newGroup(options.context.ioThreads());
        LongAdder received = new LongAdder();
        try {
            Channel server = new ServerBootstrap().group(serverGroup).channel(t.serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            accepted.add(ch);
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.PULL).build()));
                            ch.pipeline().addLast(new Counter(received));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            ByteBuf payload = Payload.shared(options.size);
            boolean batching = BenchOptions.batching(this.batching);
            Channel client = new Bootstrap().group(clientGroup).channel(t.socketChannel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.PUSH).build()));
                            ch.pipeline().addLast(new Sender(payload, options.frames, batching, sameMessage));
                        }
                    })
                    .connect(server.localAddress()).sync().channel();
            System.out.printf("zmtp bench throughput: PUSH -> PULL over tcp %s, %d x %d B frames per message, %s, "
                            + "batching %s, %s, codec only, %d s%n", server.localAddress(), options.frames,
                    options.size, t.transportName(), batching ? "on" : "off",
                    sameMessage ? "one message retained per write" : "a message built per write",
                    options.durationSeconds);
            printRates(received);
            client.close().sync();
            server.close().sync();
            return 0;
        } finally {
            CodecBootstrap.shutdown(accepted, clientGroup, serverGroup);
        }
    }

    private static final class Counter extends ChannelInboundHandlerAdapter {
        private final LongAdder received;

        Counter(LongAdder received) {
            this.received = received;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZmtpMessage) {
                received.increment();
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A reset when the benchmark closes the connection is expected.
            if (!(cause instanceof java.io.IOException)) {
                ctx.fireExceptionCaught(cause);
            }
            ctx.close();
        }
    }

    /**
     * Writes bursts from the event loop while writable; one flush per burst (batching) or per message. Each message is
     * built for its write, as an application's are, or is one message retained for each write.
     */
    private static final class Sender extends ChannelInboundHandlerAdapter {
        private static final int BURST = 1024;
        private final ByteBuf payload;
        private final int frames;
        private final boolean batching;
        private final ZmtpMessage shared;
        private final Runnable pump = this::pump;
        private ChannelHandlerContext ctx;
        private ZmtpBatchFlusher flusher;

        Sender(ByteBuf payload, int frames, boolean batching, boolean sameMessage) {
            this.payload = payload;
            this.frames = frames;
            this.batching = batching;
            this.shared = sameMessage ? build(payload, frames) : null;
        }

        private static ZmtpMessage build(ByteBuf payload, int frames) {
            ZmtpMessage message = ZmtpMessage.create();
            for (int f = 0; f < frames; f++) {
                message.add(payload.duplicate());
            }
            return message;
        }

        private ZmtpMessage next() {
            return shared != null ? shared.retain() : build(payload, frames);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                this.ctx = ctx;
                this.flusher = new ZmtpBatchFlusher(ctx.channel());
                pump();
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (this.ctx != null && ctx.channel().isWritable()) {
                pump();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (shared != null && shared.refCnt() > 0) {
                shared.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof java.io.IOException)) {
                ctx.fireExceptionCaught(cause);
            }
            ctx.close();
        }

        private void pump() {
            Channel ch = ctx.channel();
            for (int i = 0; i < BURST && ch.isWritable() && ch.isActive(); i++) {
                if (batching) {
                    ctx.write(next(), ctx.voidPromise());
                } else {
                    ctx.writeAndFlush(next(), ctx.voidPromise());
                }
            }
            if (batching) {
                flusher.flush();
            }
            if (ch.isWritable() && ch.isActive()) {
                ctx.executor().execute(pump);
            }
        }
    }
}
