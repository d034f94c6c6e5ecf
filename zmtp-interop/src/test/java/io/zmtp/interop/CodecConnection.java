package io.zmtp.interop;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;

/**
 * One connection of the codec under test (a {@link ZmtpHandshakeHandler} on Netty 4.2, no socket semantics), seen
 * from a test thread: everything the pipeline delivers lands in a queue (messages copied to {@code byte[][]} and
 * released at once, so a test that fails half-way leaks nothing).
 */
final class CodecConnection implements AutoCloseable {
    static final Duration TIMEOUT = scaled(Duration.ofSeconds(20));
    private static final Object CLOSED = new Object();

    private final Channel channel;
    private final BlockingQueue<Object> events;

    private CodecConnection(Channel channel, BlockingQueue<Object> events) {
        this.channel = channel;
        this.events = events;
    }

    static EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    static CodecConnection connect(EventLoopGroup group, int port, ZmtpConfig config) {
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        Channel ch = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(initializer(config, events))
                .connect(new InetSocketAddress("127.0.0.1", port))
                .syncUninterruptibly()
                .channel();
        return new CodecConnection(ch, events);
    }

    /** A listening socket on 127.0.0.1 whose connections get a {@link ZmtpHandshakeHandler} with {@code config}. */
    static Server listen(EventLoopGroup group, ZmtpConfig config) {
        BlockingQueue<CodecConnection> accepted = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
                        ch.pipeline().addLast(new ZmtpHandshakeHandler(config), new Collector(events));
                        accepted.add(new CodecConnection(ch, events));
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .syncUninterruptibly()
                .channel();
        return new Server(server, accepted);
    }

    private static ChannelInitializer<SocketChannel> initializer(ZmtpConfig config, BlockingQueue<Object> events) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new ZmtpHandshakeHandler(config), new Collector(events));
            }
        };
    }

    /** The handshake's success event; fails the test if the handshake failed or did not finish in time. */
    ZmtpHandshakeSuccessEvent awaitHandshake() {
        Object o = poll(TIMEOUT);
        if (o instanceof ZmtpHandshakeSuccessEvent success) {
            return success;
        }
        throw new AssertionError("expected a ZMTP handshake, got " + describe(o));
    }

    /** The handshake's failure event; fails the test if the handshake succeeded. */
    ZmtpHandshakeFailureEvent awaitHandshakeFailure() {
        Object o = poll(TIMEOUT);
        if (o instanceof ZmtpHandshakeFailureEvent failure) {
            return failure;
        }
        throw new AssertionError("expected the ZMTP handshake to fail, got " + describe(o));
    }

    /** The next message's frames; fails on timeout, close or any other event. */
    byte[][] receive(String what) {
        Object o = poll(TIMEOUT);
        if (o instanceof byte[][] frames) {
            return frames;
        }
        throw new AssertionError("waiting for " + what + ": " + describe(o));
    }

    /** Fails if a message arrives within {@code wait}. */
    void assertNoMessage(Duration wait) {
        Object o = poll(wait);
        if (o instanceof byte[][] frames) {
            throw new AssertionError("unexpected message " + LegacyPayloads.render(frames));
        }
    }

    /** Whether the peer closed the connection within {@code wait}. */
    boolean awaitClosed(Duration wait) {
        return channel.closeFuture().awaitUninterruptibly(wait.toMillis());
    }

    /** Queues a message (the arrays are wrapped, not copied); {@link #flush} sends. */
    void write(byte[][] frames) {
        channel.write(ZmtpMessage.ofBytes(frames));
    }

    void flush() {
        channel.flush();
    }

    void send(byte[][] frames) {
        channel.writeAndFlush(ZmtpMessage.ofBytes(frames));
    }

    /** Sends a command: SUBSCRIBE/CANCEL become 0x01/0x00 messages for pre-3.1 peers. */
    void send(ZmtpCommand command) {
        channel.writeAndFlush(command);
    }

    Channel channel() {
        return channel;
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5_000);
    }

    private Object poll(Duration timeout) {
        try {
            return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private String describe(Object o) {
        if (o == null) {
            return "nothing within the timeout";
        }
        if (o == CLOSED) {
            return "connection closed" + (events.isEmpty() ? "" : ", then " + events);
        }
        if (o instanceof byte[][] frames) {
            return "message " + LegacyPayloads.render(frames);
        }
        return String.valueOf(o);
    }

    /** The listening side of {@link #listen}. */
    static final class Server implements AutoCloseable {
        private final Channel channel;
        private final BlockingQueue<CodecConnection> accepted;

        private Server(Channel channel, BlockingQueue<CodecConnection> accepted) {
            this.channel = channel;
            this.accepted = accepted;
        }

        int port() {
            return ((InetSocketAddress) channel.localAddress()).getPort();
        }

        CodecConnection accept() {
            try {
                CodecConnection c = accepted.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (c == null) {
                    throw new AssertionError("no connection accepted within " + TIMEOUT);
                }
                return c;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }

        @Override
        public void close() {
            channel.close().awaitUninterruptibly(5_000);
        }
    }

    private static final class Collector extends ChannelInboundHandlerAdapter {
        private final BlockingQueue<Object> events;

        Collector(BlockingQueue<Object> events) {
            this.events = events;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof ZmtpMessage m) {
                    byte[][] frames = new byte[m.size()][];
                    for (int j = 0; j < m.size(); j++) {
                        frames[j] = m.frameBytes(j);
                    }
                    events.add(frames);
                } else if (msg instanceof ZmtpCommand c) {
                    events.add("unexpected command " + c.name());
                } else if (msg instanceof ByteBuf b) {
                    events.add("unexpected bytes (" + b.readableBytes() + ")");
                } else {
                    events.add("unexpected inbound " + msg);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent || evt instanceof ZmtpHandshakeFailureEvent
                    || evt instanceof ZmtpProtocolErrorEvent) {
                events.add(evt);
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            events.add(CLOSED);
        }
    }
}
