package io.zmtp.socket.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;

/**
 * Builds channels for one endpoint scheme. Transports differ only in channel class and address; the pipeline
 * ({@code ZmtpHandshakeHandler} then the socket's handler) is the same and comes in as an initializer: tcp
 * ({@link TcpTransport}) and ipc ({@link IpcTransport}, Unix domain sockets), except that inproc
 * ({@link InprocTransport}, Netty {@code LocalChannel}) carries no messages (the socket layer joins the two ends'
 * queues) and replaces the handshake ({@link #handshakeHandler}), as udp ({@link UdpTransport}) does; ws
 * ({@link WsTransport}) puts an adapter there that runs the HTTP upgrade, then the usual handshake behind it.
 */
public interface Transport {
    /** The endpoint scheme, e.g. {@code tcp}. */
    String scheme();

    /**
     * Binds a listener; {@code childInitializer} sets up each accepted connection. Checks made before any channel
     * exists throw {@link IllegalArgumentException} (a malformed address) or {@link java.io.UncheckedIOException}
     * (the address can't be used, e.g. an ipc path another process listens on); the socket reports either as
     * {@code EndpointFailed}.
     */
    ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer);

    /**
     * Checks an address to connect to when {@code connect} is called, so that a malformed one fails there rather than
     * in every reconnection attempt. Throws {@link IllegalArgumentException}; does no I/O (no name lookup).
     */
    default void checkConnectAddress(Endpoint endpoint) {
    }

    /**
     * The handler that starts a connection's pipeline and fires {@code ZmtpHandshakeSuccessEvent}: the ZMTP handshake
     * for transports that carry bytes.
     */
    default ChannelHandler handshakeHandler(ZmtpConfig config) {
        return new ZmtpHandshakeHandler(config);
    }

    /** The loop a connector of this transport runs on: one of the context's, unless its channels need others. */
    default EventLoop connectLoop(EventLoopGroup contextGroup) {
        return contextGroup.next();
    }

    /** Starts one connection attempt on {@code loop}. */
    ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer);

    /** The endpoint as it is really bound (the actual port for {@code *}). */
    String boundEndpoint(Endpoint requested, Channel serverChannel);

    /**
     * Whether {@code endpoint}, given to unbind, names the listener {@code serverChannel} of this transport, in a
     * form other than the strings bind was given and returned: tcp's {@code tcp://*:5555} names the listener on
     * 0.0.0.0:5555, as in libzmq. False for a form that names no one listener (a wildcard port).
     */
    boolean namesListener(Endpoint endpoint, Channel serverChannel);
}
