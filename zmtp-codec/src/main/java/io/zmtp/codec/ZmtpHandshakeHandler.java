package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpFrameCipher;
import io.zmtp.codec.mechanism.ZmtpMechanism;
import io.zmtp.codec.security.ZmtpAuthResult;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The handler to add to a pipeline to speak ZMTP: it runs the handshake, installs the handlers that carry the
 * connection from then on, and removes itself. In a connected pipeline there is no "ZMTP handler" to find: look for
 * {@link #ENCODER_NAME}, {@link #DECODER_NAME} and {@link #HEARTBEAT_NAME}.
 *
 * <p>The handshake is version detection with libzmq's staged greeting (rfc 23 "Version Negotiation"), downgrade to
 * ZMTP 2.0 and 1.0 peers, the security mechanism's commands, and the socket-type check (rfc 37's table).
 *
 * <h2>The pipeline before and after</h2>
 * While the handshake runs, under whatever name it was added with:
 * <pre>
 *   ... | ZmtpHandshakeHandler | your handlers
 * </pre>
 * Once it succeeds (names in quotes):
 * <pre>
 *   ... | "zmtp-encoder" {@link ZmtpFrameEncoder} | "zmtp-decoder" {@link ZmtpFrameDecoder}
 *       | "zmtp-heartbeat" {@link ZmtpHeartbeatHandler} | your handlers
 * </pre>
 * With a mechanism that encrypts (CURVE), "zmtp-cipher" opens frames before "zmtp-decoder" reads them, and the
 * encoder seals what it writes; handlers after them see clear text either way.
 * The three are in place before {@link ZmtpHandshakeSuccessEvent} is fired; this handler removes itself right after
 * firing it, passing on any bytes that followed the handshake. From then on handlers after it read
 * {@link ZmtpMessage}s (or what the configured {@link ZmtpMessageReader} makes) and {@link ZmtpCommand}s such as
 * SUBSCRIBE, and write {@code ZmtpMessage}s (or what the configured {@link ZmtpMessageWriter} takes).
 *
 * <p>Writes made before the handshake completes are held and sent after it, in order. A failed handshake fires
 * {@link ZmtpHandshakeFailureEvent}, fails held writes, and closes the connection; the pipeline is left as it was.
 * {@link #handshakeFuture()} completes either way. Not sharable: one per connection.
 *
 * <pre>{@code
 * pipeline.addLast("zmtp-handshake", new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.DEALER).build()));
 * pipeline.addLast(new MyMessageHandler());
 * }</pre>
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1)</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
public final class ZmtpHandshakeHandler extends ByteToMessageDecoder implements ChannelOutboundHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpHandshakeHandler.class);
    /** Refused peers tend to retry in a loop (libzmq reconnects every 100 ms by default). */
    static final WarnLimiter WARNINGS = new WarnLimiter();

    /** Pipeline name of the {@link ZmtpFrameEncoder} the handshake installs. */
    public static final String ENCODER_NAME = "zmtp-encoder";
    /** Pipeline name of the {@link ZmtpFrameDecoder} the handshake installs. */
    public static final String DECODER_NAME = "zmtp-decoder";
    /** Pipeline name of the decoder that opens sealed frames (CURVE), installed before the frame decoder. */
    public static final String CIPHER_NAME = "zmtp-cipher";
    /** Pipeline name of the {@link ZmtpHeartbeatHandler} the handshake installs. */
    public static final String HEARTBEAT_NAME = "zmtp-heartbeat";

    private enum State {
        /** Greetings: the peer's version is being found and greetings exchanged ({@link GreetingExchange}). */
        GREETING,
        /** 3.x: greeting done; mechanism commands until READY ({@link SecurityHandshake}). */
        COMMANDS,
        DONE,
        FAILED
    }

    private final ZmtpConfig config;
    private final GreetingExchange greetings;
    private final CompletableFuture<ZmtpHandshakeSuccessEvent> handshakeFuture = new CompletableFuture<>();
    private State state = State.GREETING;
    private boolean started;
    private ZmtpMechanism mechanism;
    private SecurityHandshake security;
    private PendingWriteQueue pendingWrites;
    private ScheduledFuture<?> timeout;

    /**
     * @param config this side of the connection: socket type, identity, mechanism, accepted versions and limits
     * @throws IllegalArgumentException if only ZMTP 1.0 or 2.0 is accepted with a mechanism other than NULL
     */
    public ZmtpHandshakeHandler(ZmtpConfig config) {
        this.config = config;
        this.greetings = new GreetingExchange(config);
    }

    /** Completes with the handshake's outcome (on the channel's event loop). */
    public CompletionStage<ZmtpHandshakeSuccessEvent> handshakeFuture() {
        return handshakeFuture;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        pendingWrites = new PendingWriteQueue(ctx);
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (started) {
            return;
        }
        started = true;
        mechanism = config.mechanism().create(config.localMetadata());
        security = new SecurityHandshake(config, mechanism);
        if (config.handshakeTimeoutMillis() > 0) {
            timeout = ctx.executor().schedule(() -> fail(ctx, new ZmtpHandshakeException(
                    ZmtpHandshakeFailureReason.TIMEOUT,
                    "handshake not done in " + config.handshakeTimeoutMillis() + " ms")),
                    config.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
        greetings.start(ctx, mechanism);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (state == State.DONE || state == State.FAILED || !started) {
            if (state == State.FAILED) {
                in.skipBytes(in.readableBytes());
            }
            return;
        }
        try {
            while (state != State.DONE && state != State.FAILED && step(ctx, in)) {
                // each step consumes a stage of the greeting or one command
            }
        } catch (ZmtpHandshakeException e) {
            in.skipBytes(in.readableBytes());
            fail(ctx, e);
        } catch (RuntimeException e) {
            in.skipBytes(in.readableBytes());
            // Not a declared failure: keep the exception, so that logs (and the fuzz tests) show what broke.
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, String.valueOf(e), e));
        }
        if (state == State.DONE) {
            ctx.pipeline().remove(this);
        }
    }

    /** Advances the handshake by one stage of the greeting or one command; false when more bytes are needed. */
    private boolean step(ChannelHandlerContext ctx, ByteBuf in) {
        if (state == State.COMMANDS) {
            return readCommand(ctx, in);
        }
        if (!greetings.read(ctx, in)) {
            return false;
        }
        if (greetings.isDone()) {
            ZmtpVersion version = greetings.version();
            if (version.hasCommands()) {
                state = State.COMMANDS;
                security.start(ctx, () -> resumeAfterAuthentication(ctx));
                checkMechanismComplete(ctx);
            } else {
                // 1.0 and 2.0: the greeting carried the peer's identity, and there is nothing more.
                complete(ctx, version, greetings.legacyPeerMetadata());
            }
        }
        return true;
    }

    private boolean readCommand(ChannelHandlerContext ctx, ByteBuf in) {
        if (!security.readCommand(ctx, in)) {
            return false;
        }
        checkMechanismComplete(ctx);
        return true;
    }

    /** An authenticator's late decision arrived (on the event loop): apply it, then read what came meanwhile. */
    private void resumeAfterAuthentication(ChannelHandlerContext ctx) {
        if (state != State.COMMANDS) {
            return;
        }
        try {
            security.applyDecision(ctx);
            checkMechanismComplete(ctx);
        } catch (ZmtpHandshakeException e) {
            fail(ctx, e);
        } catch (RuntimeException e) {
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, e.getMessage()));
        }
        if (state == State.DONE) {
            ctx.pipeline().remove(this);
        } else if (state == State.COMMANDS && internalBuffer().isReadable()) {
            // Commands held while the decision was pending: decode them as if they had just arrived.
            try {
                channelRead(ctx, Unpooled.EMPTY_BUFFER);
            } catch (Exception e) {
                ctx.fireExceptionCaught(e);
            }
        }
    }

    private void checkMechanismComplete(ChannelHandlerContext ctx) {
        if (security.isComplete()) {
            complete(ctx, greetings.version(), security.peerMetadata());
        }
    }

    private void complete(ChannelHandlerContext ctx, ZmtpVersion version, ZmtpMetadata peerMetadata) {
        state = State.DONE;
        cancelTimeout();
        ChannelPipeline p = ctx.pipeline();
        String name = ctx.name();
        ZmtpFrameCipher cipher = version.hasCommands() ? mechanism.frameCipher() : null;
        // The cipher is the connection's now; whatever else the handshake held (CURVE's transient keys) goes.
        closeMechanism();
        p.addBefore(name, ENCODER_NAME, new ZmtpFrameEncoder(version, config.messageWriter(), cipher));
        if (cipher != null) {
            p.addAfter(name, CIPHER_NAME, new CipherFrameDecoder(cipher, config.maxMessageSize()));
        }
        p.addAfter(cipher != null ? CIPHER_NAME : name, DECODER_NAME,
                new ZmtpFrameDecoder(version, config.maxMessageSize(), config.newMessageReader()));
        p.addAfter(DECODER_NAME, HEARTBEAT_NAME, new ZmtpHeartbeatHandler(version, config));
        // Held writes go out first, through the encoder just installed before us.
        pendingWrites.removeAndWriteAll();
        ctx.flush();
        String mechanismName = version.hasCommands() ? mechanism.name() : NullMechanism.NAME;
        ZmtpAuthResult auth = version.hasCommands() ? security.authResult() : null;
        ZmtpHandshakeSuccessEvent success = new ZmtpHandshakeSuccessEvent(version, mechanismName, peerMetadata,
                ctx.channel().remoteAddress(), auth == null ? "" : auth.userId(),
                auth == null ? ZmtpMetadata.EMPTY : auth.metadata());
        if (logger.isDebugEnabled()) {
            logger.debug("{} handshake done: {}", ctx.channel(), success);
        }
        handshakeFuture.complete(success);
        ctx.fireUserEventTriggered(success);
    }

    private void fail(ChannelHandlerContext ctx, ZmtpHandshakeException cause) {
        if (state == State.DONE || state == State.FAILED) {
            return;
        }
        ZmtpCommand error = state == State.COMMANDS && ctx.channel().isActive()
                ? SecurityHandshake.errorFor(cause) : null;
        state = State.FAILED;
        cancelTimeout();
        closeMechanism();
        SocketAddress remote = ctx.channel().remoteAddress();
        ZmtpHandshakeFailureReason reason = cause.reason();
        if (reason == ZmtpHandshakeFailureReason.CONNECTION_CLOSED || reason == ZmtpHandshakeFailureReason.TIMEOUT) {
            // What health checks and port scanners do (connect, then close or say nothing): not worth a WARN.
            logger.debug("ZMTP handshake with {} failed ({}): {}", remote, reason, cause.getMessage());
        } else {
            WARNINGS.log(logger, "ZMTP handshake with {} failed ({}): {}", remote, reason, cause.getMessage());
        }
        if (pendingWrites != null) {
            pendingWrites.removeAndFailAll(cause);
        }
        handshakeFuture.completeExceptionally(cause);
        ctx.fireUserEventTriggered(new ZmtpHandshakeFailureEvent(cause, remote));
        if (error != null) {
            // rfc 23: tell the peer why before closing (libzmq just closes, and ignores ERROR it gets here).
            ByteBuf buf = ctx.alloc().buffer(64);
            try {
                ZmtpWire.writeCommand(buf, error);
            } finally {
                error.release();
            }
            ctx.writeAndFlush(buf).addListener(f -> ctx.close());
        } else {
            ctx.close();
        }
    }

    /** Lets the mechanism zero its handshake's secrets: once the handshake is over, however it ended. */
    private void closeMechanism() {
        if (mechanism != null) {
            mechanism.close();
        }
    }

    private void cancelTimeout() {
        if (timeout != null) {
            timeout.cancel(false);
            timeout = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (state != State.DONE) {
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.CONNECTION_CLOSED,
                    "connection closed during the handshake"));
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (state == State.DONE) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        // An I/O error mid-handshake: the close that follows reports it as a failed handshake.
        logger.debug("{} error during ZMTP handshake", ctx.channel(), cause);
        ctx.close();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cancelTimeout();
        closeMechanism();
        if (pendingWrites != null && !pendingWrites.isEmpty()) {
            pendingWrites.removeAndFailAll(new ZmtpHandshakeException(
                    ZmtpHandshakeFailureReason.CONNECTION_CLOSED, "ZmtpHandshakeHandler removed before the handshake"));
        }
    }

    // Outbound: hold application writes until the handshake is done.

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (state == State.DONE) {
            ctx.write(msg, promise);
        } else if (state == State.FAILED) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ZmtpHandshakeException(ZmtpHandshakeFailureReason.CONNECTION_CLOSED,
                    "ZMTP handshake failed"));
        } else {
            pendingWrites.add(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        // Held writes are flushed when the handshake completes.
        if (state == State.DONE) {
            ctx.flush();
        }
    }

    @Override
    public void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) {
        ctx.bind(localAddress, promise);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                        ChannelPromise promise) {
        ctx.connect(remoteAddress, localAddress, promise);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.close(promise);
    }

    @Override
    public void deregister(ChannelHandlerContext ctx, ChannelPromise promise) {
        ctx.deregister(promise);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        ctx.read();
    }
}
