package io.zmtp.socket.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.zmtp.codec.ZmtpConfig;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code inproc://name}: sockets of one context. A connection is a pair of Netty {@code LocalChannel}s, but they are
 * its control plane only: connect before bind, the hello that replaces the ZMTP handshake ({@link InprocHandler}),
 * CONNECTED/DISCONNECTED and monitor events, close. Messages don't travel on them: once both hellos are done, the
 * socket layer joins each side's outbound queue to the other side's pipe (libzmq's pipe pairs), so a message sent by
 * one socket is the object the other receives, with no thread in between, no encoding and no copy. HWMs and
 * back-pressure behave as over tcp (the limit per direction is the sender's SNDHWM plus the receiver's RCVHWM).
 *
 * <p>Names belong to the context: Netty's registry of local addresses is JVM-wide, so each context prefixes its
 * names with an id of its own. A connection to a name nobody has bound yet waits, registered, for the bind, and
 * connects the moment it happens (the connector's RECONNECT_IVL only comes in after a failure or a lost
 * connection).
 *
 * <p>Every inproc channel of a context is on one thread of its own ({@code zmq-inproc}, started on first use and
 * stopped by {@link #close}; Netty's NIO and epoll loops can't register a {@code LocalChannel} anyway). The socket
 * layer relies on it: the two ends of a connection meet there, one after the other, and the second joins both
 * pipes. Only connecting, the hellos and closing run on it; messages never do.
 */
public final class InprocTransport implements Transport {
    private static final AtomicLong CONTEXTS = new AtomicLong();

    /**
     * Set by the socket layer on each inproc channel before its handlers are added: what this end offers the peer
     * (its pipe), sent in the hello. Not for applications.
     */
    public static final AttributeKey<Object> LOCAL_END = AttributeKey.valueOf(InprocTransport.class, "localEnd");
    /** Set from the peer's hello before the handshake event fires: the peer's {@link #LOCAL_END}. */
    public static final AttributeKey<Object> PEER_END = AttributeKey.valueOf(InprocTransport.class, "peerEnd");

    private final String prefix = "zmtp-inproc-" + CONTEXTS.incrementAndGet() + "/";
    private final Object lock = new Object();
    // under lock
    private EventLoopGroup group;
    private boolean closed;
    /** Names bound or being bound; the value is null while the bind is under way. */
    private final Map<String, Channel> bound = new HashMap<>();
    /** Connections waiting for a name to be bound. */
    private final Map<String, List<Waiting>> waiting = new HashMap<>();

    private static final class Waiting {
        final Channel channel;
        final ChannelPromise promise;

        Waiting(Channel channel, ChannelPromise promise) {
            this.channel = channel;
            this.promise = promise;
        }
    }

    public InprocTransport() {
    }

    @Override
    public String scheme() {
        return "inproc";
    }

    private EventLoopGroup group() {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("inproc transport is closed");
            }
            if (group == null) {
                // One thread: the socket layer's join of a connection's two ends relies on it (see the class comment).
                // A loop of its own, not a group of one, whose shutdown would start Netty's GlobalEventExecutor
                // thread (not a daemon), keeping a main that closed its context alive for a second more.
                group = new SingleThreadIoEventLoop(null, new DefaultThreadFactory("zmq-inproc", true),
                        LocalIoHandler.newFactory());
            }
            return group;
        }
    }

    private static String name(Endpoint endpoint) {
        String name = endpoint.address();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("inproc name: empty (expected: inproc://name)");
        }
        return name;
    }

    private LocalAddress address(String name) {
        return new LocalAddress(prefix + name);
    }

    /** Whether a socket of this context has bound {@code inproc://name} (the ZAP handler's, for one). */
    public boolean hasListener(String name) {
        synchronized (lock) {
            return isBound(name);
        }
    }

    /** Whether {@code name} is bound by a listener that is open (a closed one may not have been forgotten yet). */
    private boolean isBound(String name) {
        Channel ch = bound.get(name);
        return ch != null && ch.isOpen();
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer) {
        String name = name(endpoint);
        EventLoopGroup g = group();
        synchronized (lock) {
            if (bound.containsKey(name) && (bound.get(name) == null || isBound(name))) {
                throw new IllegalArgumentException("inproc://" + name + " is already bound");
            }
            // Reserved before binding, outside the lock: the bind completes on the loop, whose listeners take it.
            bound.put(name, null);
        }
        ChannelFuture f = new ServerBootstrap()
                .group(g)
                .channel(LocalServerChannel.class)
                .childHandler(childInitializer)
                .bind(address(name));
        // What bind returns completes once the name is registered here, not when the channel is bound: a thread
        // waiting on the channel's future may run before its listeners, and a connect right after bind then found
        // the name not yet bound, didn't wait for its join (SocketBase.awaitInprocJoin), and with LINGER 0 lost
        // what it sent (InprocIT's send-and-close test, a fresh context's first connection, under load).
        // Completed on the loop, waited on by the binding thread; not the channel's own executor, which a channel
        // that failed to register doesn't have, nor Netty's GlobalEventExecutor, whose thread (not a daemon) a
        // late listener starts and which then kept a main that had closed its context alive for another second.
        ChannelPromise registered = new DefaultChannelPromise(f.channel(), g.next());
        f.addListener(done -> {
            Channel server = f.channel();
            List<Waiting> ready;
            synchronized (lock) {
                if (!done.isSuccess()) {
                    bound.remove(name, null);
                    registered.tryFailure(done.cause());
                    return;
                }
                bound.put(name, server);
                ready = waiting.remove(name);
            }
            registered.trySuccess();
            server.closeFuture().addListener(x -> {
                synchronized (lock) {
                    bound.remove(name, server);
                }
            });
            if (ready != null) {
                for (Waiting w : ready) {
                    connectNow(w.channel, name, w.promise);
                }
            }
        });
        return registered;
    }

    @Override
    public void checkConnectAddress(Endpoint endpoint) {
        name(endpoint);
    }

    @Override
    public EventLoop connectLoop(EventLoopGroup contextGroup) {
        return group().next();
    }

    @Override
    public ChannelHandler handshakeHandler(ZmtpConfig config) {
        return new InprocHandler(config);
    }

    /**
     * Registers the channel (which sets up its pipeline), then connects at once if the name is bound, or else when
     * it is. The returned promise completes with the connection.
     */
    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        String name = name(endpoint);
        ChannelFuture registered = new Bootstrap()
                .group(loop)
                .channel(LocalChannel.class)
                .handler(initializer)
                .register();
        Channel ch = registered.channel();
        ChannelPromise promise = ch.newPromise();
        registered.addListener(r -> {
            if (!r.isSuccess()) {
                promise.tryFailure(r.cause());
                return;
            }
            boolean now;
            synchronized (lock) {
                now = isBound(name);
                if (!now) {
                    waiting.computeIfAbsent(name, k -> new ArrayList<>()).add(new Waiting(ch, promise));
                }
            }
            if (now) {
                connectNow(ch, name, promise);
            }
        });
        // A connector stopped while waiting closes the channel: forget it, and let the connector see the failure.
        ch.closeFuture().addListener(x -> {
            synchronized (lock) {
                List<Waiting> ws = waiting.get(name);
                if (ws != null) {
                    ws.removeIf(w -> w.channel == ch);
                    if (ws.isEmpty()) {
                        waiting.remove(name);
                    }
                }
            }
            promise.tryFailure(new ClosedChannelException());
        });
        return promise;
    }

    private void connectNow(Channel ch, String name, ChannelPromise promise) {
        ch.connect(address(name)).addListener(c -> {
            if (c.isSuccess()) {
                promise.trySuccess();
            } else {
                promise.tryFailure(c.cause());
            }
        });
    }

    @Override
    public String boundEndpoint(Endpoint requested, Channel serverChannel) {
        return "inproc://" + requested.address();
    }

    @Override
    public boolean namesListener(Endpoint endpoint, Channel serverChannel) {
        // A name has one form only; unbind already matched the strings bind was given and returned.
        return false;
    }

    /** Stops inproc's thread, if it started; the context's sockets are closed by then. */
    public void close() {
        EventLoopGroup g;
        synchronized (lock) {
            closed = true;
            g = group;
        }
        if (g != null) {
            g.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
