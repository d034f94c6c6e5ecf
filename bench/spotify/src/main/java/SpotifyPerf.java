import com.spotify.netty4.handler.codec.zmtp.ZMTPCodec;
import com.spotify.netty4.handler.codec.zmtp.ZMTPHandshakeSuccess;
import com.spotify.netty4.handler.codec.zmtp.ZMTPMessage;
import com.spotify.netty4.handler.codec.zmtp.ZMTPSocketType;
import com.spotify.netty4.util.BatchFlusher;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MessageSizeEstimator;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spotify netty-zmtp 0.4.0 (Netty 4.0) in the two in-process shapes of its README's benchmarks, for bench/compare.sh:
 * <pre>
 * SpotifyPerf throughput &lt;seconds&gt; [&lt;size&gt;]   DEALER codec writes 1-frame messages of size bytes (100) in
 *                                           batches of 128 while the channel is writable; a ROUTER codec counts
 * SpotifyPerf reqrep &lt;seconds&gt; [&lt;in-flight&gt;]  DEALER keeps in-flight (1000) 6-frame requests outstanding
 *                                           ("envelope1", "envelope2", "", 20, 40 and 100 B); a ROUTER echoes each
 * </pre>
 * Each side has one NIO event loop, pooled buffers, Spotify's BatchFlusher. Prints a line per second in the form of
 * its ProgressMeter and of {@code zmtp bench}, then {@code average: N messages/s over S s}.
 */
public final class SpotifyPerf {
    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    private SpotifyPerf() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[0].equals("throughput") || args[0].equals("reqrep"))) {
            System.err.println("usage: SpotifyPerf throughput <seconds> [<size>] | reqrep <seconds> [<in-flight>]");
            System.exit(2);
        }
        boolean throughput = args[0].equals("throughput");
        int seconds = Integer.parseInt(args[1]);
        int param = args.length > 2 ? Integer.parseInt(args[2]) : throughput ? 100 : 1000;
        AtomicLong counter = new AtomicLong();
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup serverLoop = new NioEventLoopGroup(1);
        EventLoopGroup clientLoop = new NioEventLoopGroup(1);
        try {
            Channel server = new ServerBootstrap().group(boss, serverLoop).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .childHandler(new ChannelInitializer<NioSocketChannel>() {
                        @Override
                        protected void initChannel(NioSocketChannel ch) {
                            ch.pipeline().addLast(ZMTPCodec.of(ZMTPSocketType.ROUTER));
                            ch.pipeline().addLast(throughput ? new Counter(counter) : new Echo());
                        }
                    }).bind(ANY_PORT).sync().channel();
            final int p = param;
            Channel client = new Bootstrap().group(clientLoop).channel(NioSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                    .option(ChannelOption.MESSAGE_SIZE_ESTIMATOR, ByteBufSizeEstimator.INSTANCE)
                    .handler(new ChannelInitializer<NioSocketChannel>() {
                        @Override
                        protected void initChannel(NioSocketChannel ch) {
                            ch.pipeline().addLast(ZMTPCodec.of(ZMTPSocketType.DEALER));
                            ch.pipeline().addLast(throughput ? new Sender(p) : new Requester(p, counter));
                        }
                    }).connect(server.localAddress()).sync().channel();
            System.out.printf("spotify netty4-zmtp 0.4.0 %s: DEALER -> ROUTER over tcp %s, %s, Netty 4.0 nio, codec only, "
                            + "%d s%n", args[0], server.localAddress(), throughput ? "1 x " + param + " B frames per message"
                            : "6 frames per request (9, 9, 0, 20, 40, 100 B), " + param + " in flight", seconds);
            printRates(counter, seconds, throughput ? "messages" : "requests");
            client.close().sync();
            server.close().sync();
        } finally {
            clientLoop.shutdownGracefully().sync();
            serverLoop.shutdownGracefully().sync();
            boss.shutdownGracefully().sync();
        }
    }

    private static void printRates(AtomicLong counter, int seconds, String unit) throws InterruptedException {
        long start = System.nanoTime();
        long lastTotal = 0;
        long lastNanos = start;
        long sum = 0;
        for (int s = 1; s <= seconds; s++) {
            long wait;
            while ((wait = start + s * 1_000_000_000L - System.nanoTime()) > 0) {
                Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
            }
            long now = System.nanoTime();
            long total = counter.get();
            long rate = Math.round((total - lastTotal) * 1e9 / (now - lastNanos));
            System.out.printf("%ds:%,13d %s/s.    (total:%,13d)%n", s, rate, unit, total);
            sum += rate;
            lastTotal = total;
            lastNanos = now;
        }
        System.out.printf("average: %,d %s/s over %d s%n", sum / seconds, unit, seconds);
    }

    private static final class Counter extends ChannelInboundHandlerAdapter {
        private final AtomicLong counter;

        Counter(AtomicLong counter) {
            this.counter = counter;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            counter.lazySet(counter.get() + 1);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** The ROUTER side of reqrep: each request goes back as it came, a flush per read batch through BatchFlusher. */
    private static final class Echo extends ChannelInboundHandlerAdapter {
        private BatchFlusher flusher;

        @Override
        public void channelRegistered(ChannelHandlerContext ctx) {
            flusher = new BatchFlusher(ctx.channel());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
            flusher.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Writes the same message (retained) 128 at a time while the channel is writable. */
    private static final class Sender extends ChannelInboundHandlerAdapter {
        private static final int BATCH = 128;
        private final ZMTPMessage message;
        private BatchFlusher flusher;

        Sender(int size) {
            char[] dots = new char[size];
            Arrays.fill(dots, '.');
            message = ZMTPMessage.fromUTF8(new String(dots));
        }

        @Override
        public void channelRegistered(ChannelHandlerContext ctx) {
            flusher = new BatchFlusher(ctx.channel());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZMTPHandshakeSuccess) {
                send(ctx);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            send(ctx);
        }

        private void send(ChannelHandlerContext ctx) {
            while (ctx.channel().isWritable() && ctx.channel().isActive()) {
                for (int i = 0; i < BATCH; i++) {
                    ctx.write(message.retain());
                }
                flusher.flush();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Keeps in-flight requests outstanding: one new request per reply. */
    private static final class Requester extends ChannelInboundHandlerAdapter {
        private final int inflight;
        private final AtomicLong counter;
        private final ZMTPMessage request = ZMTPMessage.fromUTF8("envelope1", "envelope2", "", repeat('d', 20),
                repeat('d', 40), repeat('d', 100));
        private BatchFlusher flusher;

        Requester(int inflight, AtomicLong counter) {
            this.inflight = inflight;
            this.counter = counter;
        }

        private static String repeat(char c, int n) {
            char[] a = new char[n];
            Arrays.fill(a, c);
            return new String(a);
        }

        @Override
        public void channelRegistered(ChannelHandlerContext ctx) {
            flusher = new BatchFlusher(ctx.channel());
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZMTPHandshakeSuccess) {
                for (int i = 0; i < inflight; i++) {
                    ctx.write(request.retain());
                }
                flusher.flush();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            counter.lazySet(counter.get() + 1);
            ctx.write(request.retain());
            flusher.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** Counts a message's bytes only for ByteBufs, so the writability limit is set by what reaches the socket. */
    private static final class ByteBufSizeEstimator implements MessageSizeEstimator, MessageSizeEstimator.Handle {
        static final ByteBufSizeEstimator INSTANCE = new ByteBufSizeEstimator();

        @Override
        public Handle newHandle() {
            return this;
        }

        @Override
        public int size(Object msg) {
            return msg instanceof ByteBuf ? ((ByteBuf) msg).readableBytes() : 0;
        }
    }
}
