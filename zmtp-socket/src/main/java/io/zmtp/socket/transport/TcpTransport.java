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
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.InetNameResolver;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * {@code tcp://host:port}. {@code *} as host binds every interface; {@code *} (or 0) as port picks a free one. IPv6
 * literals go in brackets: {@code tcp://[::1]:5555}.
 *
 * <p>Host names to connect to are resolved on {@code resolveExecutor}, never on an I/O thread: a resolver that hangs
 * would otherwise stall every connection of that thread. They are resolved again at each reconnection attempt, so a
 * changed DNS record is picked up. Literal addresses are not looked up.
 */
public final class TcpTransport implements Transport {
    /** Name resolution, blocking; {@link InetAddress#getByName} unless a context is built with another one. */
    @FunctionalInterface
    public interface HostResolver {
        InetAddress resolve(String host) throws UnknownHostException;
    }

    private final EventLoopGroup group;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> channelClass;
    private final HostResolver hostResolver;
    private final AddressResolverGroup<InetSocketAddress> connectResolver;

    /**
     * @param io the kind of I/O {@code group}'s loops run: the channel classes must match it.
     * @param resolveExecutor where connections look up host names; it must not be an I/O thread of {@code group}.
     */
    public TcpTransport(EventLoopGroup group, IoKind io, HostResolver hostResolver, Executor resolveExecutor) {
        this.group = group;
        this.hostResolver = Objects.requireNonNull(hostResolver, "hostResolver");
        this.connectResolver = new OffLoopResolverGroup(hostResolver, Objects.requireNonNull(resolveExecutor,
                "resolveExecutor"));
        this.serverChannelClass = io.tcpServerChannel();
        this.channelClass = io.tcpChannel();
    }

    @Override
    public String scheme() {
        return "tcp";
    }

    /**
     * host and port of a tcp address; a null host means every interface, port 0 an ephemeral one. A host name is
     * resolved with {@code resolver}, or left unresolved if that is null.
     */
    static InetSocketAddress parse(String address, boolean forBind, HostResolver resolver) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("tcp address: " + address + " (expected: host:port)");
        }
        String host = address.substring(0, colon);
        String portText = address.substring(colon + 1);
        int port;
        if ("*".equals(portText)) {
            if (!forBind) {
                throw new IllegalArgumentException(
                        "tcp address: " + address + " (a wildcard port can't be connected to)");
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
                throw new IllegalArgumentException(
                        "tcp address: " + address + " (a wildcard host can't be connected to)");
            }
            return new InetSocketAddress(port);
        }
        try {
            if (NetUtil.isValidIpV4Address(host) || NetUtil.isValidIpV6Address(host)) {
                // getByName parses a literal (scope id included) without a lookup.
                return new InetSocketAddress(InetAddress.getByName(host), port);
            }
            if (resolver == null) {
                return InetSocketAddress.createUnresolved(host, port);
            }
            return new InetSocketAddress(resolver.resolve(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("tcp host: " + host + " (unknown)", e);
        }
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer) {
        // bind blocks its caller anyway, and runs on a user thread: resolving here stalls no I/O thread.
        InetSocketAddress address = parse(endpoint.address(), true, hostResolver);
        return new ServerBootstrap()
                .group(group)
                .channel(serverChannelClass)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(childInitializer)
                .bind(address);
    }

    @Override
    public void checkConnectAddress(Endpoint endpoint) {
        String a = endpoint.address();
        int colon = a.lastIndexOf(':');
        if (colon <= 0 || a.startsWith("*") || a.endsWith("*")) {
            throw new IllegalArgumentException("tcp address to connect to: " + a + " (expected: host:port)");
        }
    }

    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        InetSocketAddress address = parse(endpoint.address(), false, null);
        return new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .resolver(connectResolver)
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

    @Override
    public boolean namesListener(Endpoint endpoint, Channel serverChannel) {
        InetSocketAddress named;
        try {
            named = parse(endpoint.address(), true, hostResolver);
        } catch (IllegalArgumentException e) {
            return false;
        }
        InetSocketAddress local = (InetSocketAddress) serverChannel.localAddress();
        if (named.getPort() == 0 || local == null || local.getPort() != named.getPort()) {
            return false;
        }
        // A listener on every interface may report the IPv6 wildcard even when bound as 0.0.0.0.
        InetAddress a = named.getAddress();
        InetAddress b = local.getAddress();
        return a.isAnyLocalAddress() ? b.isAnyLocalAddress() : a.equals(b);
    }

    /**
     * Netty's resolution hook for connections: Bootstrap registers the channel, asks this for the address, and
     * connects on the channel's loop once the promise completes, so the loop never waits for the lookup.
     */
    private static final class OffLoopResolverGroup extends AddressResolverGroup<InetSocketAddress> {
        private final HostResolver hostResolver;
        private final Executor executor;

        OffLoopResolverGroup(HostResolver hostResolver, Executor executor) {
            this.hostResolver = hostResolver;
            this.executor = executor;
        }

        @Override
        protected AddressResolver<InetSocketAddress> newResolver(EventExecutor loop) {
            return new InetNameResolver(loop) {
                @Override
                protected void doResolve(String host, Promise<InetAddress> promise) {
                    lookUp(host, loop, promise, a -> a);
                }

                @Override
                protected void doResolveAll(String host, Promise<List<InetAddress>> promise) {
                    lookUp(host, loop, promise, Collections::singletonList);
                }
            }.asAddressResolver();
        }

        private <T> void lookUp(String host, EventExecutor loop, Promise<T> promise,
                                Function<InetAddress, T> result) {
            try {
                executor.execute(() -> {
                    T value;
                    try {
                        value = result.apply(hostResolver.resolve(host));
                    } catch (Throwable t) {
                        // Once the context is closing nobody waits for this attempt, and completing it would
                        // only make Netty complain that the loop can't run the listeners.
                        if (!loop.isShuttingDown()) {
                            promise.tryFailure(t);
                        }
                        return;
                    }
                    if (!loop.isShuttingDown()) {
                        promise.trySuccess(value);
                    }
                });
            } catch (RejectedExecutionException e) {
                promise.tryFailure(e);
            }
        }
    }
}
