package io.zmtp.socket.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.socket.ZmtpSocketEvent;

/**
 * The last handler of a listener's pipeline: a failure to accept (out of file descriptors, mostly) becomes an
 * ACCEPT_FAILED monitor event and one WARN line, instead of reaching the pipeline's tail, which logs a stack trace per
 * failure. Netty's acceptor stops accepting on that listener for a second after each failure, which also bounds how
 * often this runs; the listener keeps listening.
 */
final class AcceptFailureHandler extends ChannelInboundHandlerAdapter {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(AcceptFailureHandler.class);

    private final SocketBase socket;
    private final String endpoint;

    AcceptFailureHandler(SocketBase socket, String endpoint) {
        this.socket = socket;
        this.endpoint = endpoint;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        logger.warn("{} failed to accept a connection (accepting again in 1 s): {}", endpoint, cause.toString());
        socket.report(ConnectionEvent.ofEndpoint(ZmtpSocketEvent.Type.ACCEPT_FAILED, endpoint,
                ctx.channel().localAddress(), null, cause, 0));
    }
}
