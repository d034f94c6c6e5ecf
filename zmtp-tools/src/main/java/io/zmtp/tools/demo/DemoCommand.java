package io.zmtp.tools.demo;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpBatchFlusher;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandler;
import io.zmtp.codec.ZmtpHandshakeSuccess;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.tools.ProgressPrinter;
import io.zmtp.tools.Transports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A PUSH client streaming messages to a PULL server over tcp on 127.0.0.1, both built from the codec alone, with a
 * line per second of the receive rate.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Stream messages from a codec-only PUSH client to a PULL server over tcp://127.0.0.1 "
                + "and print the rate each second.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--duration", description = "Seconds to run (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int durationSeconds;

    @Option(names = "--size", description = "Bytes per frame (default: ${DEFAULT-VALUE}).", defaultValue = "100")
    int size;

    @Option(names = "--frames", description = "Frames per message (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int frames;

    @Option(names = "--transport", description = "nio or epoll (default: epoll where available).")
    Transports transport;

    @Override
    public Integer call() throws Exception {
        Transports t = transport != null ? transport : Transports.best();
        EventLoopGroup serverGroup = t.newGroup(1);
        EventLoopGroup clientGroup = t.newGroup(1);
        LongAdder received = new LongAdder();
        try {
            Channel server = new ServerBootstrap()
                    .group(serverGroup)
                    .channel(t.serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new ZmtpHandler(ZmtpConfig.builder(ZmtpSocketType.PULL).build()));
                            ch.pipeline().addLast(new CountingReceiver(received));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            ByteBuf payload = Unpooled.unreleasableBuffer(
                    Unpooled.directBuffer(size).writeZero(size).asReadOnly());
            Channel client = new Bootstrap()
                    .group(clientGroup)
                    .channel(t.socketChannel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new ZmtpHandler(ZmtpConfig.builder(ZmtpSocketType.PUSH).build()));
                            ch.pipeline().addLast(new StreamingSender(payload, frames));
                        }
                    })
                    .connect(server.localAddress()).sync().channel();

            System.out.printf("zmtp demo: PUSH -> PULL over tcp %s, %d x %d B frames per message, %s, %d s%n",
                    server.localAddress(), frames, size, t.name().toLowerCase(), durationSeconds);
            ProgressPrinter printer = new ProgressPrinter(System.out, received);
            long sum = 0;
            for (int s = 0; s < durationSeconds; s++) {
                sum += printer.awaitAndPrint("");
            }
            System.out.printf("average: %,d messages/s over %d s%n", sum / Math.max(1, durationSeconds),
                    durationSeconds);
            client.close().sync();
            server.close().sync();
            return 0;
        } finally {
            clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
            serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        }
    }

    /** Counts and releases whole messages. */
    private static final class CountingReceiver extends ChannelInboundHandlerAdapter {
        private final LongAdder received;

        CountingReceiver(LongAdder received) {
            this.received = received;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZmtpMessage) {
                received.increment();
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /**
     * Writes from the event loop in bursts while the channel is writable, so the socket's send buffer stays full
     * and memory stays bounded; the batch flusher turns each burst into one flush.
     */
    private static final class StreamingSender extends ChannelInboundHandlerAdapter {
        private static final int BURST = 1024;
        private final ByteBuf payload;
        private final int frames;
        private ChannelHandlerContext ctx;
        private ZmtpBatchFlusher flusher;
        private final Runnable pump = this::pump;

        StreamingSender(ByteBuf payload, int frames) {
            this.payload = payload;
            this.frames = frames;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccess) {
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
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Writes still queued when the demo closes the connection fail; nothing else is expected here.
            if (!(cause instanceof java.nio.channels.ClosedChannelException)) {
                ctx.fireExceptionCaught(cause);
            }
        }

        private void pump() {
            Channel ch = ctx.channel();
            for (int i = 0; i < BURST && ch.isWritable() && ch.isActive(); i++) {
                ZmtpMessage message = ZmtpMessage.create();
                for (int f = 0; f < frames; f++) {
                    message.add(payload.duplicate());
                }
                ctx.write(message, ctx.voidPromise());
            }
            flusher.flush();
            if (ch.isWritable() && ch.isActive()) {
                ctx.executor().execute(pump);
            }
        }
    }
}
