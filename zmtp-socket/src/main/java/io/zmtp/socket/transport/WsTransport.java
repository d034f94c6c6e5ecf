package io.zmtp.socket.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.AttributeKey;
import io.zmtp.codec.ZmtpConfig;

import javax.net.ssl.SSLException;

/**
 * {@code ws://host:port/path}: ZeroMQ over WebSocket, ZWS 2.0 (rfc 45) as libzmq 4.3.5 speaks it. The host and port
 * are tcp's (same wildcards, same name resolution, through {@link TcpTransport}); the path, {@code /} if none, is
 * the resource the WebSocket upgrade asks for. A binding side is an HTTP server on host:port that upgrades requests
 * for the path; a connecting side is a WebSocket client. What runs on the connection is {@link WsHandler}'s.
 *
 * <p>{@code wss://host:port/path} is the same with TLS: an {@code SslHandler} first in the pipeline, made from the
 * {@link SslContext} the socket layer puts in {@link #SSL_CONTEXT} (the socket's {@code WSS_SERVER_CONTEXT} or
 * {@code WSS_CLIENT_CONTEXT} option, or {@link #defaultClientContext()}). One instance per scheme.
 *
 * <p>A port shared with an application's HTTP server ({@code io.zmtp.socket.ZmtpWebSocketHandler}): the channel
 * is the application's, with its {@code HttpServerCodec} and {@code HttpObjectAggregator} already there; it is marked
 * by {@link #markSharedPort} before the socket's handlers are added, and {@link WsHandler} then adds only the
 * WebSocket handlers. A ws:// listener of our own answers requests for other paths with 404.
 */
public final class WsTransport implements Transport {
    /** Where a connection's upgrade goes (set on each channel before the socket's handlers are added). */
    static final AttributeKey<WsAddress> ADDRESS = AttributeKey.valueOf(WsTransport.class, "address");

    /**
     * The TLS context of a wss:// connection: set on each channel by the socket layer before the transport's
     * handshake handler is added (a server context on accepted channels, a client one on connecting channels).
     * Absent on ws:// channels.
     */
    public static final AttributeKey<SslContext> SSL_CONTEXT = AttributeKey.valueOf(WsTransport.class, "sslContext");

    /** Set on a channel of an application's HTTP server that is being upgraded (see {@link #markSharedPort}). */
    static final AttributeKey<Boolean> SHARED_PORT = AttributeKey.valueOf(WsTransport.class, "sharedPort");

    private static volatile SslContext defaultClientContext;

    private final TcpTransport tcp;
    private final boolean secure;

    /** ws://. */
    public WsTransport(TcpTransport tcp) {
        this(tcp, false);
    }

    /** wss:// if {@code secure}, else ws://. */
    public WsTransport(TcpTransport tcp, boolean secure) {
        this.tcp = tcp;
        this.secure = secure;
    }

    @Override
    public String scheme() {
        return secure ? "wss" : "ws";
    }

    /** Whether this is wss://: its channels need an {@link #SSL_CONTEXT}. */
    public boolean secure() {
        return secure;
    }

    /**
     * The client context of wss:// connections whose socket has none: the JDK's default trust store (its CA
     * certificates) and HTTPS's host name check, so a server is accepted only with a certificate a CA vouches for,
     * naming the host connected to. Made once.
     */
    public static SslContext defaultClientContext() throws SSLException {
        SslContext c = defaultClientContext;
        if (c == null) {
            synchronized (WsTransport.class) {
                c = defaultClientContext;
                if (c == null) {
                    // Named, not left to Netty's default (which a system property can turn off).
                    c = SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS").build();
                    defaultClientContext = c;
                }
            }
        }
        return c;
    }

    /** {@code host:port} (tcp's form) and the path, which starts with {@code /}. */
    record WsAddress(String hostPort, String path) {
        Endpoint tcpEndpoint() {
            return Endpoint.parse("tcp://" + hostPort);
        }
    }

    static WsAddress parse(String address) {
        // The host part has no '/' (an IPv6 literal is in brackets, a scope id is a name): the first one starts the
        // path.
        int slash = address.indexOf('/');
        String hostPort = slash < 0 ? address : address.substring(0, slash);
        String path = slash < 0 ? "/" : address.substring(slash);
        if (hostPort.isEmpty()) {
            throw new IllegalArgumentException("ws address: " + address + " (expected: host:port/path)");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7F || c == '#') {
                throw new IllegalArgumentException("ws path: " + path + " (expected: printable ASCII, no spaces)");
            }
        }
        return new WsAddress(hostPort, path);
    }

    /**
     * Marks {@code ch}, a connection of an application's HTTP server whose pipeline decodes and aggregates HTTP
     * already, as about to be upgraded to ZWS on {@code path}: call before adding the socket's handlers, then pass
     * the upgrade request (a {@code FullHttpRequest}) to them.
     */
    public static void markSharedPort(Channel ch, String path) {
        checkPath(path);
        ch.attr(ADDRESS).set(parse("*" + path));
        ch.attr(SHARED_PORT).set(Boolean.TRUE);
    }

    /**
     * Checks a ws path as bind and connect check it: starts with {@code /}, printable ASCII, no spaces or
     * {@code #}.
     *
     * @throws IllegalArgumentException if it isn't one
     */
    public static String checkPath(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("ws path: " + path + " (expected: /...)");
        }
        parse("*" + path);
        return path;
    }

    /** The socket's initializer, after the attribute that tells {@link WsHandler} which side and path it is. */
    private static ChannelInitializer<Channel> withAddress(WsAddress a, ChannelInitializer<Channel> inner) {
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.attr(ADDRESS).set(a);
                ch.pipeline().addLast(inner);
            }
        };
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer) {
        WsAddress a = parse(endpoint.address());
        ChannelFuture f;
        try {
            f = tcp.bind(a.tcpEndpoint(), withAddress(a, childInitializer));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ws address: " + endpoint.address() + ": " + e.getMessage(), e);
        }
        f.channel().attr(ADDRESS).set(a);
        return f;
    }

    @Override
    public void checkConnectAddress(Endpoint endpoint) {
        WsAddress a = parse(endpoint.address());
        try {
            tcp.checkConnectAddress(a.tcpEndpoint());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("ws address: " + endpoint.address() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        WsAddress a = parse(endpoint.address());
        return tcp.connect(a.tcpEndpoint(), loop, withAddress(a, initializer));
    }

    @Override
    public ChannelHandler handshakeHandler(ZmtpConfig config) {
        return new WsHandler(config);
    }

    @Override
    public String boundEndpoint(Endpoint requested, Channel serverChannel) {
        String tcpBound = tcp.boundEndpoint(requested, serverChannel);
        return scheme() + "://" + tcpBound.substring("tcp://".length()) + parse(requested.address()).path();
    }

    @Override
    public boolean namesListener(Endpoint endpoint, Channel serverChannel) {
        WsAddress named;
        try {
            named = parse(endpoint.address());
        } catch (IllegalArgumentException e) {
            return false;
        }
        WsAddress bound = serverChannel.attr(ADDRESS).get();
        return bound != null && bound.path().equals(named.path())
                && tcp.namesListener(named.tcpEndpoint(), serverChannel);
    }
}
