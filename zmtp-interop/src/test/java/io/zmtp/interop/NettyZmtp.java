package io.zmtp.interop;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.atomic.AtomicBoolean;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;

/**
 * Plain Netty clients and servers (NIO, 127.0.0.1, ephemeral ports) whose pipelines are exactly a
 * {@link ZmtpHandshakeHandler} followed by the test's {@link PeerHandler}: nothing but zmtp-codec speaks ZMTP here.
 */
final class NettyZmtp implements AutoCloseable {
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    private final List<Channel> channels = new CopyOnWriteArrayList<>();

    /** A listening server; every accepted connection gets a fresh handler from {@code handlers}. */
    Server bind(ZmtpConfig config, Supplier<? extends PeerHandler> handlers) {
        return bind(config, handlers, true);
    }

    /** A listening server whose connections get {@link Deferred} handlers (not counted as accepted handlers). */
    Server bindDeferred(ZmtpConfig config, Supplier<Deferred> handlers) {
        return bind(config, handlers, false);
    }

    private Server bind(ZmtpConfig config, Supplier<? extends ChannelHandler> handlers, boolean peerHandlers) {
        Server server = new Server();
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        ChannelHandler handler = handlers.get();
                        ch.pipeline().addLast(new ZmtpHandshakeHandler(config), handler);
                        server.accepted.add(peerHandlers ? (PeerHandler) handler : new Handlers.Passive());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0))
                .syncUninterruptibly()
                .channel();
        channels.add(channel);
        server.port = ((InetSocketAddress) channel.localAddress()).getPort();
        return server;
    }

    /** Connects to {@code endpoint} ("tcp://127.0.0.1:port") with {@code handler} after the codec. */
    Channel connect(String endpoint, ZmtpConfig config, PeerHandler handler) {
        Channel channel = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new ZmtpHandshakeHandler(config), handler);
                    }
                })
                .connect(new InetSocketAddress("127.0.0.1", port(endpoint)))
                .syncUninterruptibly()
                .channel();
        channels.add(channel);
        return channel;
    }

    static int port(String endpoint) {
        return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
    }

    @Override
    public void close() {
        for (Channel channel : channels) {
            channel.close().awaitUninterruptibly(scaledSeconds(5), TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(scaledSeconds(10), TimeUnit.SECONDS);
    }

    /**
     * Stands in for a {@link PeerHandler} on an accepted connection: the first connection (of those sharing
     * {@code claimed}) whose handshake succeeds installs the handler in its place and hands it the success event;
     * any other connection just releases what it reads.
     */
    static final class Deferred extends ChannelInboundHandlerAdapter {
        private final PeerHandler handler;
        private final AtomicBoolean claimed;

        Deferred(PeerHandler handler, AtomicBoolean claimed) {
            this.handler = handler;
            this.claimed = claimed;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent && claimed.compareAndSet(false, true)) {
                ctx.pipeline().addAfter(ctx.name(), "test-handler", handler);
                ctx.fireUserEventTriggered(evt);
                ctx.pipeline().remove(this);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }
    }

    static final class Server {
        private final BlockingQueue<PeerHandler> accepted = new LinkedBlockingQueue<>();
        private final List<PeerHandler> all = new CopyOnWriteArrayList<>();
        private int port;

        int port() {
            return port;
        }

        String endpoint() {
            return "tcp://127.0.0.1:" + port;
        }

        /** The handler of the next connection accepted; fails if none comes in time. */
        PeerHandler nextAccepted(Duration timeout) {
            try {
                PeerHandler handler = accepted.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
                if (handler == null) {
                    throw new AssertionError("no connection accepted on " + endpoint() + " within " + timeout);
                }
                all.add(handler);
                return handler;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        /** How many connections were accepted so far (taken or not). */
        int acceptedCount() {
            return all.size() + accepted.size();
        }
    }
}
