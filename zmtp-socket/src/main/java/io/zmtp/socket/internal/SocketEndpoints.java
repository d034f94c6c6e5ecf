package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.ssl.SslContext;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.transport.Endpoint;
import io.zmtp.socket.transport.InprocTransport;
import io.zmtp.socket.transport.Transport;
import io.zmtp.socket.transport.WsTransport;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A socket's endpoints: the listeners {@code bind} made and the connections they accepted, and the connectors and
 * pipes {@code connect} made. What a transport knows (address forms, equivalent endpoints) stays in the
 * {@link Transport}; this class only keeps the books.
 *
 * <p>Called with the socket's lock held. The one exception is a listener's set of accepted pipes, which the I/O
 * thread fills as connections arrive and empties as they close (a concurrent set).
 */
final class SocketEndpoints {
    private static final class Listener {
        /** As bind returns it; set once bound. */
        volatile String endpoint;
        /** As given to bind, which unbind accepts too. */
        final String requested;
        final Transport transport;
        /** Set once bound. */
        volatile Channel serverChannel;
        /** The pipes of the connections it accepted, with their channels (a pipe knows its channel only once up). */
        final Map<Pipe, Channel> accepted = new ConcurrentHashMap<>();
        /** Set by unbind before it closes what was accepted. */
        volatile boolean unbound;

        Listener(String requested, Transport transport) {
            this.requested = requested;
            this.transport = transport;
        }
    }

    /** Closing a listener is one syscall or two on its event loop; this only bounds a loop that is stuck. */
    private static final long LISTENER_CLOSE_WAIT_MILLIS = 2000;

    private final SocketBase socket;
    private final Map<String, List<Connector>> connectors = new ConcurrentHashMap<>();
    private final Map<String, List<Pipe>> connectPipes = new ConcurrentHashMap<>();
    private final Map<String, Listener> listeners = new ConcurrentHashMap<>();
    /** Listeners on an application's HTTP port (webSocketAcceptor): connections, but no server channel. */
    private final List<Listener> sharedListeners = new CopyOnWriteArrayList<>();

    SocketEndpoints(SocketBase socket) {
        this.socket = socket;
    }

    /** SNDBUF and RCVBUF as they were when bind or connect was called (-1: the OS default). */
    private record KernelBuffers(int send, int receive) {
        static KernelBuffers of(SocketOptions options) {
            return new KernelBuffers(options.value(ZmtpSocketOption.SNDBUF), options.value(ZmtpSocketOption.RCVBUF));
        }

        /**
         * Before the connection is made (connecting) or used (accepted). Transports without kernel buffers (inproc)
         * refuse the options by returning false: nothing to do then.
         */
        void apply(Channel ch) {
            if (send > 0) {
                ch.config().setOption(ChannelOption.SO_SNDBUF, send);
            }
            if (receive > 0) {
                ch.config().setOption(ChannelOption.SO_RCVBUF, receive);
            }
        }
    }

    private void initPipeline(Channel ch, Transport transport, Pipe pipe, ZmtpConfig config, KernelBuffers buffers,
                              SslContext tls, Runnable onHandshake) {
        buffers.apply(ch);
        if (tls != null) {
            // wss://: read by the transport's handshake handler, which puts TLS first in the pipeline.
            ch.attr(WsTransport.SSL_CONTEXT).set(tls);
        }
        if (transport instanceof InprocTransport) {
            // Before the handlers, whose hello goes out at once: the peer joins its queue to this pipe on reading it.
            pipe.inbound().readRules(socket.readsMessages(), socket.inboundCommands());
            ch.attr(InprocTransport.LOCAL_END).set(new InprocEnd(pipe, ch));
        }
        ch.pipeline().addLast(ConnectionMonitorHandler.NAME, new ConnectionMonitorHandler(pipe));
        if (socket.xrawStream()) {
            ch.pipeline().addLast("zmtp-handshake", new StreamConnectionHandler());
        } else {
            // Messages go from the decoder straight to the pipe (PipeMessageReader); commands down the pipeline.
            boolean readsMessages = socket.readsMessages();
            ZmtpConfig connectionConfig = config.toBuilder()
                    .messageReader(() -> new PipeMessageReader(pipe, readsMessages)).build();
            ch.pipeline().addLast("zmtp-handshake", transport.handshakeHandler(connectionConfig));
        }
        ch.pipeline().addLast("zmtp-socket",
                new PipeHandler(pipe, socket.readsMessages(), socket.inboundCommands(), onHandshake));
    }

    String bind(String endpoint, SocketOptions options) {
        Endpoint ep = parse(endpoint);
        checkRawStream(ep);
        checkUdp(ep, true);
        Transport transport = socket.context.transport(ep.scheme());
        SslContext tls = null;
        if (isSecure(transport)) {
            tls = options.value(ZmtpSocketOption.WSS_SERVER_CONTEXT);
            if (tls == null) {
                IllegalStateException e = new IllegalStateException("a wss:// listener needs the server's certificate"
                        + " and key: set the socket's WSS_SERVER_CONTEXT option (a Netty SslContext) first");
                reportBindFailed(endpoint, e);
                throw new ZmtpSocketException.EndpointFailed("bind " + endpoint + " failed: " + e.getMessage(), e);
            }
        }
        // Made before binding: a connection may be accepted before bind returns (an inproc peer waiting for the
        // name connects the moment it is bound), and its pipe belongs to this listener all the same.
        Listener l = new Listener(endpoint, transport);
        ChannelFuture f;
        try {
            f = transport.bind(ep, acceptor(l, ch -> l.endpoint != null ? l.endpoint : endpoint, options, tls));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            // The transport's checks before any channel exists: a malformed address, or (ipc) a path in use.
            reportBindFailed(endpoint, e);
            throw new ZmtpSocketException.EndpointFailed("bind " + endpoint + " failed: " + e.getMessage(), e);
        }
        f.awaitUninterruptibly();
        if (!f.isSuccess()) {
            reportBindFailed(endpoint, f.cause());
            throw new ZmtpSocketException.EndpointFailed("bind " + endpoint + " failed: " + f.cause(), f.cause());
        }
        String real = transport.boundEndpoint(ep, f.channel());
        // After Netty's acceptor, which passes on what failed to accept.
        f.channel().pipeline().addLast(new AcceptFailureHandler(socket, real));
        l.serverChannel = f.channel();
        l.endpoint = real;
        listeners.put(real, l);
        reportListening(real, f.channel());
        return real;
    }

    /**
     * What a listener of {@code l} does with each connection it accepts: a pipe of its own, owned by {@code l} (so
     * unbind and close end it), and the socket's handlers. The options are read now, as bind reads them.
     */
    private ChannelInitializer<Channel> acceptor(Listener l, Function<Channel, String> pipeEndpoint,
                                                 SocketOptions options, SslContext tls) {
        Transport transport = l.transport;
        ZmtpConfig config = options.zmtpConfig(socket.type, socket.context.zapAuthenticator());
        int sndHwm = options.value(ZmtpSocketOption.SNDHWM);
        int rcvHwm = options.value(ZmtpSocketOption.RCVHWM);
        long maxSubscriptionBytes = options.value(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES);
        KernelBuffers buffers = KernelBuffers.of(options);
        return new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                Pipe pipe = new Pipe(socket, false, pipeEndpoint.apply(ch), sndHwm, rcvHwm);
                pipe.budget().limitSubscriptions(maxSubscriptionBytes);
                // Added, then the check: close and unbind set their flag, then collect the accepted pipes (both
                // volatile), so either they end this connection or this sees the flag. Checked first, a
                // connection accepted while they collected would outlive them, open and unread.
                l.accepted.put(pipe, ch);
                if (socket.isClosed() || l.unbound) {
                    l.accepted.remove(pipe);
                    ch.close();
                    return;
                }
                ch.closeFuture().addListener(x -> l.accepted.remove(pipe));
                initPipeline(ch, transport, pipe, config, buffers, tls, null);
            }
        };
    }

    /**
     * The initializer for connections an application's own HTTP server upgrades to ZWS on {@code path}
     * ({@code ZmtpWebSocketHandler}): as a ws:// listener's, with a listener that has no server channel of its own.
     * Its pipes are named {@code ws://<local address><path>}; the socket's close ends them, as a listener's.
     */
    ChannelInitializer<Channel> webSocketAcceptor(String path, SocketOptions options) {
        Listener l = new Listener("ws://*" + path, socket.context.transport("ws"));
        sharedListeners.add(l);
        return acceptor(l, ch -> {
            java.net.SocketAddress local = ch.localAddress();
            String hostPort = local instanceof InetSocketAddress
                    ? hostPort((InetSocketAddress) local) : String.valueOf(local);
            return "ws://" + hostPort + path;
        }, options, null);
    }

    private static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /**
     * Stops every listener {@code endpoint} names: the string bind returned, the one it was given, or a form the
     * transport says is equivalent. Several when one wildcard string was bound more than once (libzmq also unbinds
     * every listener the string names).
     */
    void unbind(String endpoint) {
        Endpoint ep;
        try {
            ep = Endpoint.parse(endpoint);
        } catch (IllegalArgumentException e) {
            ep = null;
        }
        List<Listener> named = new ArrayList<>();
        for (Listener l : listeners.values()) {
            if (l.endpoint.equals(endpoint) || l.requested.equals(endpoint)
                    || (ep != null && ep.scheme().equals(l.transport.scheme())
                        && l.transport.namesListener(ep, l.serverChannel))) {
                named.add(l);
            }
        }
        if (named.isEmpty()) {
            throw new ZmtpSocketException.EndpointFailed(
                    "not bound to " + endpoint + " (bound: " + listeners.keySet() + ")");
        }
        for (Listener l : named) {
            listeners.remove(l.endpoint, l);
            l.unbound = true;
            l.serverChannel.close().awaitUninterruptibly();
            reportClosed(l.endpoint, l.serverChannel);
            // Those still in their handshake too: their pipes have no channel yet.
            l.accepted.values().forEach(Channel::close);
        }
    }

    /** Starts connecting to {@code endpoint}; returns the pipe that will carry the connection. */
    Pipe connect(String endpoint, SocketOptions options) {
        Endpoint ep = parse(endpoint);
        checkRawStream(ep);
        checkUdp(ep, false);
        Transport transport = socket.context.transport(ep.scheme());
        try {
            transport.checkConnectAddress(ep);
        } catch (IllegalArgumentException e) {
            throw new ZmtpSocketException.EndpointFailed(e.getMessage(), e);
        }
        SslContext tls = null;
        if (isSecure(transport)) {
            tls = options.value(ZmtpSocketOption.WSS_CLIENT_CONTEXT);
            if (tls == null) {
                try {
                    tls = WsTransport.defaultClientContext();
                } catch (javax.net.ssl.SSLException e) {
                    throw new ZmtpSocketException.EndpointFailed("connect " + endpoint + ": no default TLS client"
                            + " context (" + e.getMessage() + "); set the socket's WSS_CLIENT_CONTEXT option", e);
                }
            }
        }
        SslContext clientTls = tls;
        ZmtpConfig config = options.zmtpConfig(socket.type, socket.context.zapAuthenticator());
        KernelBuffers buffers = KernelBuffers.of(options);
        Pipe pipe = new Pipe(socket, true, endpoint,
                options.value(ZmtpSocketOption.SNDHWM), options.value(ZmtpSocketOption.RCVHWM));
        pipe.budget().limitSubscriptions(options.value(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES));
        if (transport instanceof InprocTransport) {
            pipe.inproc();
        }
        Connector c = new Connector(transport, ep, pipe, transport.connectLoop(socket.context.group()),
                onHandshake -> new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        initPipeline(ch, transport, pipe, config, buffers, clientTls, onHandshake);
                    }
                },
                options.value(ZmtpSocketOption.RECONNECT_IVL), options.value(ZmtpSocketOption.RECONNECT_IVL_MAX));
        c.events(connectorEvents(endpoint, pipe));
        connectors.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(c);
        connectPipes.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(pipe);
        c.start();
        return pipe;
    }

    /** Whether {@code endpoint} is an inproc name bound in this context now (connect then waits for the join). */
    boolean isBoundInproc(String endpoint) {
        Endpoint ep = parse(endpoint);
        return "inproc".equals(ep.scheme())
                && socket.context.transport("inproc") instanceof InprocTransport inproc
                && inproc.hasListener(ep.address());
    }

    /** Stops connecting to {@code endpoint} (as given to connect); returns the pipes that carried it. */
    List<Pipe> disconnect(String endpoint) {
        List<Connector> cs = connectors.remove(endpoint);
        List<Pipe> ps = connectPipes.remove(endpoint);
        if (cs == null) {
            throw new ZmtpSocketException.EndpointFailed("not connected to " + endpoint);
        }
        cs.forEach(Connector::stop);
        return ps;
    }

    /** Every pipe that may have a connection, including those the socket hasn't attached yet. */
    void forEachLivePipe(Consumer<Pipe> action) {
        for (List<Pipe> ps : connectPipes.values()) {
            ps.forEach(action);
        }
        for (Listener l : listeners.values()) {
            l.accepted.keySet().forEach(action);
        }
        for (Listener l : sharedListeners) {
            l.accepted.keySet().forEach(action);
        }
    }

    /**
     * Closing: stops listening, and hands over the connectors, which keep reconnecting while the socket lingers (so
     * messages queued for a peer that isn't up yet can still go out, as in libzmq) and are to be stopped after.
     */
    List<Connector> stopListening() {
        for (Listener l : listeners.values()) {
            // Not awaited here, under the socket's lock and maybe on an I/O thread: close awaits it at its end
            // (awaitListenersClosed), so the address (a port, a path, an inproc name) is free once close returns.
            l.serverChannel.close();
            // Connections still in their handshake: nothing can be queued for them, so there is nothing to linger
            // for, and their pipe doesn't know their channel yet, so terminating it wouldn't close them. Left open,
            // they lived until HANDSHAKE_IVL, or for ever with HANDSHAKE_IVL 0. One whose handshake completes
            // meanwhile finds its pipe terminated and closes itself (Pipe.onHandshake).
            closeHandshaking(l);
        }
        for (Listener l : sharedListeners) {
            // The port is the application's; what this socket accepted on it is its own.
            l.unbound = true;
            closeHandshaking(l);
        }
        List<Connector> stopping = new ArrayList<>();
        for (List<Connector> cs : connectors.values()) {
            stopping.addAll(cs);
        }
        connectors.clear();
        return stopping;
    }

    private static void closeHandshaking(Listener l) {
        l.accepted.forEach((pipe, ch) -> {
            if (pipe.channel() == null) {
                pipe.endBySocket();
                ch.close();
            }
        });
    }

    /**
     * Waits (briefly) for the listeners {@link #stopListening} closed to be closed: an ipc listener removes its
     * socket file as it closes, and a bind of the same path right after close must not find that file still there,
     * nor have the old listener delete the new one's file. Not on an I/O thread, which would wait for itself.
     */
    void awaitListenersClosed() {
        for (Listener l : listeners.values()) {
            Channel ch = l.serverChannel;
            if (!ch.eventLoop().inEventLoop()) {
                ch.closeFuture().awaitUninterruptibly(LISTENER_CLOSE_WAIT_MILLIS);
            }
            if (!ch.isOpen()) {
                reportClosed(l.endpoint, ch);
            }
        }
    }

    /** Adds every pipe of every endpoint to {@code out}. */
    void collectPipes(Collection<Pipe> out) {
        for (List<Pipe> ps : connectPipes.values()) {
            out.addAll(ps);
        }
        for (Listener l : listeners.values()) {
            out.addAll(l.accepted.keySet());
        }
        for (Listener l : sharedListeners) {
            out.addAll(l.accepted.keySet());
        }
    }

    /** Forgets every endpoint (the socket is closed). */
    void clear() {
        listeners.clear();
        sharedListeners.clear();
        connectPipes.clear();
    }

    // ---- monitor events, one peer's disconnection

    private void reportBindFailed(String endpoint, Throwable cause) {
        socket.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.BIND_FAILED, endpoint, null, null, cause, 0));
    }

    /** LISTENING now, and CLOSED whenever the listener closes (unbind, close, or its loop going away). */
    private void reportListening(String endpoint, Channel serverChannel) {
        socket.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.LISTENING, endpoint,
                serverChannel.localAddress(), null, null, 0));
        serverChannel.closeFuture().addListener(x -> reportClosed(endpoint, serverChannel));
    }

    /** Listeners whose CLOSED was reported. */
    private final Set<Channel> closedReported = ConcurrentHashMap.newKeySet();

    /**
     * CLOSED, once per listener: from unbind and close once the listener is closed (so it comes before what follows
     * them, MONITOR_STOPPED included), or from its close future when something else closed it.
     */
    private void reportClosed(String endpoint, Channel serverChannel) {
        if (closedReported.add(serverChannel)) {
            socket.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.CLOSED, endpoint, null, null, null, 0));
        }
    }

    private Connector.Events connectorEvents(String endpoint, Pipe pipe) {
        return new Connector.Events() {
            @Override
            public void delayed() {
                socket.report(ConnectionEvent.ofEndpoint(
                        ZmtpSocketEvent.Type.CONNECT_DELAYED, endpoint, null, pipe, null, 0));
            }

            @Override
            public void retried(long delayMillis) {
                socket.report(ConnectionEvent.ofEndpoint(
                        ZmtpSocketEvent.Type.CONNECT_RETRIED, endpoint, null, pipe, null, delayMillis));
            }
        };
    }

    /** STREAM carries bytes: inproc, which passes message objects, has none to carry. */
    /** udp carries RADIO to DISH only, as in libzmq: a DISH binds (receives), a RADIO connects (sends). */
    private void checkUdp(Endpoint ep, boolean bind) {
        if (!"udp".equals(ep.scheme())) {
            return;
        }
        ZmtpSocketType allowed = bind ? ZmtpSocketType.DISH : ZmtpSocketType.RADIO;
        if (socket.type != allowed) {
            throw new ZmtpSocketException.EndpointFailed("udp:// " + (bind ? "binds a DISH" : "connects a RADIO")
                    + " only (libzmq's rule); " + socket.type + " can't " + (bind ? "bind " : "connect ") + ep);
        }
    }

    private void checkRawStream(Endpoint ep) {
        if (socket.xrawStream() && "inproc".equals(ep.scheme())) {
            throw new ZmtpSocketException.EndpointFailed("STREAM talks to raw tcp or ipc peers; inproc:// has no bytes");
        }
        if (socket.xrawStream() && ("ws".equals(ep.scheme()) || "wss".equals(ep.scheme()))) {
            // libzmq has no raw WebSocket either: a STREAM's bytes would need a framing of their own.
            throw new ZmtpSocketException.EndpointFailed("STREAM talks to raw tcp or ipc peers, not over "
                    + ep.scheme() + "://");
        }
    }

    private static boolean isSecure(Transport transport) {
        return transport instanceof WsTransport && ((WsTransport) transport).secure();
    }

    /** Stops connecting for one pipe {@code connect} made (the others made for its endpoint stay). */
    void disconnect(Pipe pipe) {
        String endpoint = pipe.endpoint();
        List<Pipe> ps = connectPipes.get(endpoint);
        List<Connector> cs = connectors.get(endpoint);
        if (ps == null || cs == null) {
            return;
        }
        int i = ps.indexOf(pipe);
        if (i < 0) {
            return;
        }
        ps.remove(i);
        cs.remove(i).stop();
        if (ps.isEmpty()) {
            connectPipes.remove(endpoint);
            connectors.remove(endpoint);
        }
    }

    private static Endpoint parse(String endpoint) {
        try {
            return Endpoint.parse(endpoint);
        } catch (IllegalArgumentException e) {
            throw new ZmtpSocketException.EndpointFailed(e.getMessage(), e);
        }
    }
}
