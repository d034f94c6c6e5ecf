package io.zmtp.socket.internal;

import io.netty.channel.EventLoopGroup;
import io.zmtp.codec.security.ZmtpAuthenticator;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.transport.Transport;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;

/**
 * What sockets need from their context: the event loops, transports, the async executor, the linger cap, the ZAP
 * client.
 */
public final class SocketContext {
    private final EventLoopGroup group;
    private final Map<String, Transport> transports = new ConcurrentHashMap<>();
    private final ExecutorService asyncExecutor;
    private final long lingerCapMillis;
    private final Set<SocketBase> sockets = ConcurrentHashMap.newKeySet();
    /** Guarded by this: set by {@link #closeAll}. */
    private boolean closing;
    private volatile ZmtpAuthenticator zapAuthenticator = ZmtpAuthenticator.LIBZMQ_DEFAULT;

    public SocketContext(EventLoopGroup group, ExecutorService asyncExecutor, long lingerCapMillis,
                         Transport... transports) {
        this.group = group;
        this.asyncExecutor = asyncExecutor;
        this.lingerCapMillis = lingerCapMillis;
        for (Transport t : transports) {
            this.transports.put(t.scheme(), t);
        }
    }

    public EventLoopGroup group() {
        return group;
    }

    public Transport transport(String scheme) {
        Transport t = transports.get(scheme);
        if (t == null) {
            throw new ZmtpSocketException.EndpointFailed("transport " + scheme + ":// not supported (supported: "
                    + transports.keySet() + ")");
        }
        return t;
    }

    public ExecutorService asyncExecutor() {
        return asyncExecutor;
    }

    public long lingerCapMillis() {
        return lingerCapMillis;
    }

    /** What checks peers of sockets that have no AUTHENTICATOR option: the context's ZAP client. */
    public ZmtpAuthenticator zapAuthenticator() {
        return zapAuthenticator;
    }

    public void zapAuthenticator(ZmtpAuthenticator authenticator) {
        this.zapAuthenticator = authenticator;
    }

    /**
     * Adds a socket made by the context, once constructed; false if the context is closing, whose list of sockets to
     * close is taken already (the caller closes the socket and refuses it). Synchronized with {@link #closeAll}, so
     * every socket registered is in that list.
     */
    public synchronized boolean register(SocketBase socket) {
        if (closing) {
            return false;
        }
        sockets.add(socket);
        return true;
    }

    /** The context is closing: no socket registers from now on; returns those to close. */
    public synchronized List<SocketBase> closeAll() {
        closing = true;
        return List.copyOf(sockets);
    }

    void unregister(SocketBase socket) {
        sockets.remove(socket);
    }

    /** The sockets open now (a copy). */
    public List<SocketBase> sockets() {
        return List.copyOf(sockets);
    }
}
