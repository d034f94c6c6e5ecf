package io.zmtp.socket.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramChannel;
import io.netty.util.NetUtil;
import io.zmtp.codec.ZmtpConfig;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;

/**
 * {@code udp://} for RADIO and DISH, as libzmq's udp engine: no handshake and no ZMTP framing; each message is one
 * datagram of the group's length (one byte), the group, then the body, at most {@link UdpHandler#MAX_DATAGRAM} bytes.
 * A RADIO connects ({@code udp://127.0.0.1:5556}, or a multicast group {@code udp://239.0.0.1:5556}) and sends every
 * message there: filtering is the DISH's. A DISH binds ({@code udp://*:5556}, {@code udp://127.0.0.1:5556}, or a
 * multicast group, which it joins; {@code *} as the port binds a free one, which the endpoint bind returns tells). An interface may come first, before a {@code ;}, as in libzmq:
 * {@code udp://eth0;239.0.0.1:5556} or {@code udp://10.0.0.1;239.0.0.1:5556} (by name or by one of its addresses): the
 * interface a DISH joins the group on, or a RADIO sends multicast from. Without one, a DISH joins on the first
 * multicast-capable interface that is up (loopback last), and a RADIO lets the kernel choose. Names are not looked
 * up: addresses are literal IPv4, as libzmq's udp takes them.
 */
public final class UdpTransport implements Transport {
    private final EventLoopGroup group;
    private final IoKind io;

    /** @param io the kind of I/O {@code group}'s loops run: the channel class must match it. */
    public UdpTransport(EventLoopGroup group, IoKind io) {
        this.group = group;
        this.io = io;
    }

    /** An IPv4 socket ({@link IoKind#newIpv4DatagramChannel} says why). */
    private DatagramChannel newChannel() {
        return io.newIpv4DatagramChannel();
    }

    @Override
    public String scheme() {
        return "udp";
    }

    /** An address: the optional interface, the IPv4 address and port. */
    record UdpAddress(String iface, InetSocketAddress address) {
        boolean isMulticast() {
            return address.getAddress().isMulticastAddress();
        }
    }

    static UdpAddress parse(String text, boolean forBind) {
        String iface = null;
        String rest = text;
        int semi = text.lastIndexOf(';');
        if (semi >= 0) {
            iface = text.substring(0, semi);
            rest = text.substring(semi + 1);
        }
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            throw new IllegalArgumentException("udp address: " + text + " (expected: [interface;]host:port)");
        }
        String host = rest.substring(0, colon);
        String portText = rest.substring(colon + 1);
        int port;
        if ("*".equals(portText) && forBind) {
            // Ours, not libzmq's: a free port, told by the endpoint bind returns.
            port = 0;
        } else {
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("udp port: " + portText + " (expected: 1..65535)");
            }
            if (port <= 0 || port > 65535) {
                throw new IllegalArgumentException("udp port: " + port + " (expected: 1..65535)");
            }
        }
        if ("*".equals(host)) {
            if (!forBind) {
                throw new IllegalArgumentException("udp address: " + text + " (a wildcard host can't be sent to)");
            }
            return new UdpAddress(iface, new InetSocketAddress(port));
        }
        if (!NetUtil.isValidIpV4Address(host)) {
            throw new IllegalArgumentException("udp host: " + host + " (expected: an IPv4 address or *)");
        }
        try {
            return new UdpAddress(iface, new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("udp host: " + host, e);
        }
    }

    /** The interface named by {@code iface} (a name or one of its addresses), or a default for a DISH's join. */
    static NetworkInterface networkInterface(String iface) {
        try {
            if (iface != null) {
                NetworkInterface ni = NetworkInterface.getByName(iface);
                if (ni == null && NetUtil.isValidIpV4Address(iface)) {
                    ni = NetworkInterface.getByInetAddress(InetAddress.getByName(iface));
                }
                if (ni == null) {
                    throw new IllegalArgumentException("udp interface: " + iface + " (no such interface)");
                }
                return ni;
            }
            NetworkInterface loopback = null;
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp() || !ni.supportsMulticast()) {
                    continue;
                }
                if (!ni.isLoopback()) {
                    return ni;
                }
                loopback = ni;
            }
            if (loopback == null) {
                throw new IllegalArgumentException("udp: no multicast-capable interface is up; name one"
                        + " (udp://eth0;239.0.0.1:5556)");
            }
            return loopback;
        } catch (SocketException | UnknownHostException e) {
            throw new UncheckedIOException(new java.io.IOException("udp interface: " + iface, e));
        }
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> initializer) {
        UdpAddress a = parse(endpoint.address(), true);
        if (a.isMulticast()) {
            NetworkInterface ni = networkInterface(a.iface());
            Bootstrap b = bootstrap(initializer).option(ChannelOption.SO_REUSEADDR, true);
            // Bound to any address on the group's port, so several DISHes of one host can share it, then joined.
            return joinAfterBind(b.bind(new InetSocketAddress(a.address().getPort())), a, ni);
        }
        return bootstrap(initializer).bind(a.address());
    }

    private static ChannelFuture joinAfterBind(ChannelFuture bound, UdpAddress a, NetworkInterface ni) {
        var joined = bound.channel().newPromise();
        bound.addListener(f -> {
            if (!f.isSuccess()) {
                joined.setFailure(f.cause());
                return;
            }
            ((DatagramChannel) bound.channel()).joinGroup(a.address(), ni).addListener(j -> {
                if (j.isSuccess()) {
                    joined.setSuccess();
                } else {
                    bound.channel().close();
                    joined.setFailure(j.cause());
                }
            });
        });
        return joined;
    }

    private Bootstrap bootstrap(ChannelHandler initializer) {
        return new Bootstrap()
                .group(group)
                .channelFactory(this::newChannel)
                // A datagram is read whole or not at all: a buffer of libzmq's largest, one datagram per read.
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(UdpHandler.MAX_DATAGRAM))
                .handler(initializer);
    }

    @Override
    public void checkConnectAddress(Endpoint endpoint) {
        UdpAddress a = parse(endpoint.address(), false);
        if (a.iface() != null) {
            networkInterface(a.iface());
        }
    }

    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        UdpAddress a = parse(endpoint.address(), false);
        Bootstrap b = new Bootstrap().group(loop).channelFactory(this::newChannel).handler(initializer);
        if (a.isMulticast() && a.iface() != null) {
            b.option(ChannelOption.IP_MULTICAST_IF, networkInterface(a.iface()));
        }
        return b.connect(a.address());
    }

    @Override
    public ChannelHandler handshakeHandler(ZmtpConfig config) {
        return new UdpHandler(config.socketType());
    }

    @Override
    public String boundEndpoint(Endpoint requested, Channel channel) {
        UdpAddress a = parse(requested.address(), true);
        InetSocketAddress local = (InetSocketAddress) channel.localAddress();
        String host = a.isMulticast() ? a.address().getAddress().getHostAddress()
                : local.getAddress().isAnyLocalAddress() ? "0.0.0.0" : local.getAddress().getHostAddress();
        return "udp://" + (a.iface() == null ? "" : a.iface() + ";") + host + ":" + local.getPort();
    }

    @Override
    public boolean namesListener(Endpoint endpoint, Channel channel) {
        UdpAddress named;
        try {
            named = parse(endpoint.address(), true);
        } catch (IllegalArgumentException e) {
            return false;
        }
        InetSocketAddress local = (InetSocketAddress) channel.localAddress();
        if (local == null || local.getPort() != named.address().getPort()) {
            return false;
        }
        InetAddress n = named.address().getAddress();
        InetAddress l = local.getAddress();
        return n.isAnyLocalAddress() || n.isMulticastAddress() ? l.isAnyLocalAddress() : n.equals(l);
    }
}
