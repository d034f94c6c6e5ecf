package io.zmtp.examples.echo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.zmtp.examples.NettyTransport;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The echo service on plain Netty, no ZeroMQ: packets framed by a 4-byte length, each handed from the event loop to
 * a fixed pool of worker threads, which work on it and write it back.
 */
final class NettyEchoServer implements EchoRunner.Server {
    static final int MAX_PACKET = 1 << 20;

    private final EventLoopGroup group;
    private final ExecutorService workers;
    private final int port;

    NettyEchoServer(EchoOptions options) throws InterruptedException {
        group = NettyTransport.group(options.ioThreads, "echo-io");
        workers = Executors.newFixedThreadPool(options.workers, new DefaultThreadFactory("echo-worker", true));
        WorkerHandler handler = new WorkerHandler(workers, options.workNanos());
        Channel server = new ServerBootstrap().group(group).channel(NettyTransport.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(MAX_PACKET, 0, 4, 0, 4),
                                new LengthFieldPrepender(4), handler);
                    }
                })
                .bind(options.port).sync().channel();
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public int port() {
        return port;
    }

    /** Hands each packet to a worker, which writes it back when done. */
    @ChannelHandler.Sharable
    static final class WorkerHandler extends ChannelInboundHandlerAdapter {
        private final ExecutorService workers;
        private final long workNanos;

        WorkerHandler(ExecutorService workers, long workNanos) {
            this.workers = workers;
            this.workNanos = workNanos;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Job job = new Job(ctx, (ByteBuf) msg, workNanos);
            try {
                workers.execute(job);
            } catch (RejectedExecutionException e) {
                // Shutting down.
                job.packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A peer that closes with packets in flight resets the connection (at shutdown): just close.
            ctx.close();
        }
    }

    /** A packet to work on, then write back. */
    private static final class Job implements Runnable {
        final ChannelHandlerContext ctx;
        final ByteBuf packet;
        final long workNanos;

        Job(ChannelHandlerContext ctx, ByteBuf packet, long workNanos) {
            this.ctx = ctx;
            this.packet = packet;
            this.workNanos = workNanos;
        }

        @Override
        public void run() {
            Work.simulate(workNanos);
            ctx.writeAndFlush(packet);
        }
    }

    @Override
    public void close() throws InterruptedException {
        // Workers first: the packets of the jobs they never started are released here; a write after the event
        // loops stop fails, and Netty releases its packet.
        for (Runnable job : workers.shutdownNow()) {
            ((Job) job).packet.release();
        }
        workers.awaitTermination(2, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
}
