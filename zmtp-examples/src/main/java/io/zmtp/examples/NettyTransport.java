package io.zmtp.examples;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * epoll where its native library loads, NIO elsewhere: what a {@code ZmtpContext} picks, so the plain Netty programs
 * the examples are measured against run on the same transport.
 */
public final class NettyTransport {
    private static final boolean EPOLL = epollAvailable();

    private NettyTransport() {
    }

    private static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    public static EventLoopGroup group(int threads, String name) {
        IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    public static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> channel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }
}
