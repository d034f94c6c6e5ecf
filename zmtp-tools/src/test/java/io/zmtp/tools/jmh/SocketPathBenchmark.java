package io.zmtp.tools.jmh;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpFrameEncoder;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageReader;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The socket layer's two paths for one-frame messages over tcp loopback, each against a peer that costs (and
 * allocates) next to nothing, so that {@code -prof gc}'s {@code gc.alloc.rate.norm} (bytes allocated per operation,
 * all threads of the JVM) is what the socket layer allocates per message. See docs/PERFORMANCE.md for the command.
 *
 * <ul>
 *   <li>{@code receive}: a PULL socket's {@code receive()} of a message, then its release. The peer is a plain Netty
 *       channel that did the handshake and then writes the same pre-encoded run of 1024 messages again and again
 *       (one buffer duplicate per run), as fast as the PULL takes them: the read, the decoder, the pipe and the
 *       application's receive are measured.</li>
 *   <li>{@code send}: a PUSH socket's {@code send()} of one reused message (retained each time, so the message
 *       itself isn't counted). The peer handshakes and then skips what it reads: the lock, the queue, the drain,
 *       the encoder and the write are measured.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class SocketPathBenchmark {
    private static final int RUN = 1024;

    @Param({"64"})
    int size;

    private EventLoopGroup peerGroup;
    private ZmtpContext context;
    private ZmtpSocket pull;
    private ZmtpSocket push;
    private Channel peerServer;
    private Channel feeder;
    private ZmtpMessage message;
    private ByteBuf run;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        peerGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        context = ZmtpContext.builder().build();
        run = encodedRun(size);

        // receive: the PULL binds, the feeder connects.
        pull = context.socket(ZmtpSocketType.PULL);
        String endpoint = pull.bind("tcp://127.0.0.1:*");
        int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        CompletableFuture<Channel> fed = new CompletableFuture<>();
        new Bootstrap().group(peerGroup).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.PUSH).build()),
                                new Feeder(fed));
                    }
                }).connect(new InetSocketAddress("127.0.0.1", port)).sync();
        feeder = fed.get(10, TimeUnit.SECONDS);

        // send: the sink binds, the PUSH connects.
        CompletableFuture<Void> sinkUp = new CompletableFuture<>();
        peerServer = new ServerBootstrap().group(peerGroup).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.PULL)
                                .messageReader(Skipping::new).build()), new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                        if (evt instanceof ZmtpHandshakeSuccessEvent) {
                                            sinkUp.complete(null);
                                        }
                                    }
                                });
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        push = context.socket(ZmtpSocketType.PUSH);
        push.connect("tcp://127.0.0.1:" + ((InetSocketAddress) peerServer.localAddress()).getPort());
        sinkUp.get(10, TimeUnit.SECONDS);
        message = ZmtpMessage.wrap(Unpooled.directBuffer(size).writeZero(size));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        feeder.close().awaitUninterruptibly();
        push.close();
        pull.close();
        context.close();
        peerServer.close().awaitUninterruptibly();
        peerGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        message.release();
        run.release();
    }

    @Benchmark
    public int receive() {
        ZmtpMessage m = pull.receive();
        int n = m.size();
        m.release();
        return n;
    }

    @Benchmark
    public void send() {
        push.send(message.retain());
    }

    /** {@link #RUN} one-frame messages of {@code size} bytes as ZMTP 3.1 puts them on the wire. */
    private static ByteBuf encodedRun(int size) {
        EmbeddedChannel encoder = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        ByteBuf payload = Unpooled.directBuffer(size).writeZero(size);
        for (int i = 0; i < RUN; i++) {
            encoder.write(ZmtpMessage.wrap(payload.retainedDuplicate()));
        }
        payload.release();
        encoder.flush();
        ByteBuf out = Unpooled.directBuffer(RUN * (size + 9));
        for (ByteBuf b; (b = encoder.readOutbound()) != null; ) {
            out.writeBytes(b);
            b.release();
        }
        encoder.finishAndReleaseAll();
        return out;
    }

    /** After the handshake, keeps the connection's send buffer full of {@link #run}s. */
    private final class Feeder extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<Channel> up;

        Feeder(CompletableFuture<Channel> up) {
            this.up = up;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                up.complete(ctx.channel());
                feed(ctx.channel());
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            feed(ctx.channel());
        }

        private void feed(Channel ch) {
            while (ch.isActive() && ch.isWritable()) {
                ch.write(run.retainedDuplicate(), ch.voidPromise());
            }
            ch.flush();
        }
    }

    /** Consumes frames without building anything. */
    static final class Skipping implements ZmtpMessageReader {
        @Override
        public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
            in.skipBytes(length);
        }

        @Override
        public void discard() {
        }
    }
}
