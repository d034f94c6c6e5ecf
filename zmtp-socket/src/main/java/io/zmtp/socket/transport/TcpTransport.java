package io.zmtp.socket.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * {@code tcp://host:port}. {@code *} as host binds every interface; {@code *} (or 0) as port picks a free one. IPv6
 * literals go in brackets: {@code tcp://[::1]:5555}.
 */
public final class TcpTransport implements Transport {
    private final EventLoopGroup group;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> channelClass;

    public TcpTransport(EventLoopGroup group, boolean epoll) {
        this.group = group;
        if (epoll) {
            this.serverChannelClass = io.netty.channel.epoll.EpollServerSocketChannel.class;
            this.channelClass = io.netty.channel.epoll.EpollSocketChannel.class;
        } else {
            this.serverChannelClass = NioServerSocketChannel.class;
            this.channelClass = NioSocketChannel.class;
        }
    }

    @Override
    public String scheme() {
        return "tcp";
    }

    /** host and port of a tcp address; a null host means every interface, port 0 an ephemeral one. */
    static InetSocketAddress parse(String address, boolean forBind) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("tcp address: " + address + " (expected: host:port)");
        }
        String host = address.substring(0, colon);
        String portText = address.substring(colon + 1);
        int port;
        if ("*".equals(portText)) {
            if (!forBind) {
                throw new IllegalArgumentException("tcp address: " + address + " (a wildcard port can't be connected to)");
            }
            port = 0;
        } else {
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("tcp port: " + portText + " (expected: 0..65535 or *)");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("tcp port: " + port + " (expected: 0..65535 or *)");
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if ("*".equals(host)) {
            if (!forBind) {
                throw new IllegalArgumentException("tcp address: " + address + " (a wildcard host can't be connected to)");
            }
            return new InetSocketAddress(port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("tcp host: " + host + " (unknown)", e);
        }
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer) {
        InetSocketAddress address = parse(endpoint.address(), true);
        return new ServerBootstrap()
                .group(group)
                .channel(serverChannelClass)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(childInitializer)
                .bind(address);
    }

    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        InetSocketAddress address = parse(endpoint.address(), false);
        return new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(initializer)
                .connect(address);
    }

    @Override
    public String boundEndpoint(Endpoint requested, Channel serverChannel) {
        InetSocketAddress local = (InetSocketAddress) serverChannel.localAddress();
        InetAddress a = local.getAddress();
        String host = a.isAnyLocalAddress() ? "0.0.0.0" : a.getHostAddress();
        if (host.indexOf(':') >= 0) {
            host = "[" + host + "]";
        }
        return "tcp://" + host + ":" + local.getPort();
    }
}
