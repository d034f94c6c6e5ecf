package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * ZMTP heartbeats (rfc 37), with every 3.x peer as libzmq does them: a PING every interval (a fixed timer, not reset
 * by other traffic); after a PING, the connection closes if nothing arrives within the timeout; a PING from the peer
 * is answered with a PONG echoing its context, and its TTL closes the connection if the peer then goes silent that
 * long. Anything received counts as traffic. Installed by {@link ZmtpHandshakeHandler}; PING and PONG never travel
 * further down the pipeline.
 *
 * <h2>What a PING can make us hold</h2>
 * At most one PONG is in flight (written and not yet handed to the socket): while it is, a PING's context is kept
 * (16 bytes at most, a copy) and answered once the PONG before it has gone out; a later PING replaces it. So a peer
 * that floods PINGs and never reads makes us hold one PONG and one context, as libzmq does, however many it sends.
 *
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1), "Connection Heartbeating"</a>
 */
public final class ZmtpHeartbeatHandler extends ChannelDuplexHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpHeartbeatHandler.class);
    /** Dead or broken peers can recur connection after connection. */
    static final WarnLimiter WARNINGS = new WarnLimiter();

    private final long intervalMillis;
    private final long timeoutMillis;
    private final int ttlDeciseconds;
    private final boolean sendPings;
    private ScheduledFuture<?> pingTimer;
    private ScheduledFuture<?> timeoutTimer;
    private ScheduledFuture<?> ttlTimer;
    /** The TTL timer was started by a PING of the read now in progress: that read's end must not cancel it. */
    private boolean ttlStartedThisRead;
    /** A PONG was written and has not reached the socket yet. */
    private boolean pongInFlight;
    /** The newest PING's context, answered when the PONG in flight is out; null if none waits. */
    private ByteBuf waitingPongContext;

    public ZmtpHeartbeatHandler(ZmtpVersion version, ZmtpConfig config) {
        this.intervalMillis = config.heartbeatIntervalMillis();
        this.timeoutMillis = config.heartbeatTimeoutMillis();
        this.ttlDeciseconds = (int) Math.min(0xFFFF, config.heartbeatTtlMillis() / 100);
        this.sendPings = intervalMillis > 0 && version.hasHeartbeats();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (sendPings && ctx.channel().isActive()) {
            pingTimer = ctx.executor().scheduleAtFixedRate(() -> ping(ctx), intervalMillis, intervalMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    private void ping(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(ZmtpCommand.ping(ttlDeciseconds, new byte[0]));
        if (timeoutTimer == null && timeoutMillis > 0) {
            timeoutTimer = ctx.executor().schedule(() -> expire(ctx, "no traffic " + timeoutMillis
                    + " ms after PING"), timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        cancelTrafficTimers();
        if (msg instanceof ZmtpCommand) {
            ZmtpCommand command = (ZmtpCommand) msg;
            if (command.is(ZmtpCommand.PING)) {
                try {
                    onPing(ctx, command.content());
                } finally {
                    command.release();
                }
                return;
            }
            if (command.is(ZmtpCommand.PONG)) {
                command.release();
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * Any read counts as traffic, whether or not it reached this handler: a message reader may hand messages to the
     * application without sending them down the pipeline.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (ttlStartedThisRead) {
            ttlStartedThisRead = false;
            cancelTimeoutTimer();
        } else {
            cancelTrafficTimers();
        }
        ctx.fireChannelReadComplete();
    }

    private void onPing(ChannelHandlerContext ctx, ByteBuf body) {
        if (body.readableBytes() < 2) {
            // Like the frame decoder's protocol errors: close with an event, don't throw at the application.
            ZmtpCodecException cause = new ZmtpCodecException("PING body of " + body.readableBytes()
                    + " bytes (expected: >= 2)");
            WARNINGS.log(logger, "closing connection to {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(), cause));
            ctx.close();
            return;
        }
        int ttl = body.readUnsignedShort();
        int contextLength = Math.min(body.readableBytes(), ZmtpConstants.MAX_PING_CONTEXT_LENGTH);
        if (pongInFlight) {
            // A copy, not a slice: a slice would pin the whole read buffer for as long as the peer doesn't read.
            ByteBuf context = ctx.alloc().heapBuffer(contextLength).writeBytes(body, contextLength);
            if (waitingPongContext != null) {
                waitingPongContext.release();
            }
            waitingPongContext = context;
        } else {
            pong(ctx, body.readRetainedSlice(contextLength));
        }
        if (ttl > 0 && ttlTimer == null) {
            long ttlMillis = ttl * 100L;
            ttlStartedThisRead = true;
            ttlTimer = ctx.executor().schedule(() -> expire(ctx, "no traffic within the peer's TTL of " + ttlMillis
                    + " ms"), ttlMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void pong(ChannelHandlerContext ctx, ByteBuf context) {
        pongInFlight = true;
        ctx.writeAndFlush(ZmtpCommand.pong(context)).addListener(f -> {
            // On the event loop, as every other access to these fields.
            pongInFlight = false;
            ByteBuf next = waitingPongContext;
            if (next != null) {
                waitingPongContext = null;
                if (f.isSuccess() && ctx.channel().isActive()) {
                    pong(ctx, next);
                } else {
                    next.release();
                }
            }
        });
    }

    private void expire(ChannelHandlerContext ctx, String reason) {
        WARNINGS.log(logger, "closing connection to {}: heartbeat expired, {}", ctx.channel().remoteAddress(), reason);
        ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(),
                new ZmtpCodecException("heartbeat expired: " + reason)));
        ctx.close();
    }

    private void cancelTrafficTimers() {
        cancelTimeoutTimer();
        if (ttlTimer != null) {
            ttlTimer.cancel(false);
            ttlTimer = null;
        }
    }

    private void cancelTimeoutTimer() {
        if (timeoutTimer != null) {
            timeoutTimer.cancel(false);
            timeoutTimer = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    private void stop() {
        if (waitingPongContext != null) {
            waitingPongContext.release();
            waitingPongContext = null;
        }
        cancelTrafficTimers();
        if (pingTimer != null) {
            pingTimer.cancel(false);
            pingTimer = null;
        }
    }
}
