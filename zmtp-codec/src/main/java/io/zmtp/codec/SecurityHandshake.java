package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.mechanism.ZmtpMechanism;
import io.zmtp.codec.security.ZmtpAuthRequest;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The command phase of a ZMTP 3.x handshake, after the greetings: feeds the peer's commands to the mechanism, sends
 * what it returns, and, when the mechanism has credentials to check, asks the authenticator and holds the peer's
 * further commands until the decision arrives. Part of {@link ZmtpHandshakeHandler}; event-loop confined.
 *
 * <p>An authenticator may answer later, from any thread: the decision is handed to the event loop, and the handler
 * is told to go on ({@code resume}). What a peer can make us hold meanwhile is bounded: more than one command's worth
 * of bytes while a decision is pending closes the connection (a well-behaved peer sends nothing then).
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Authentication and Confidentiality"</a>
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP</a>
 */
final class SecurityHandshake {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SecurityHandshake.class);
    /** Bytes a peer may send while a decision is pending: one command of the largest size, with its header. */
    static final int MAX_BYTES_WHILE_AUTHENTICATING = ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE + 9;

    private final ZmtpConfig config;
    private final ZmtpMechanism mechanism;
    private final FrameHeader header = new FrameHeader();
    private Runnable resume;
    private boolean authenticating;
    /** True only while the authenticator's stage is being given its callback, on the event loop. */
    private boolean registering;
    /** Set when the decision arrived: it is applied on the event loop, inline or by {@link #applyDecision}. */
    private boolean decided;
    private ZmtpAuthResult decision;
    private Throwable decisionFailure;
    private ZmtpAuthResult authResult;

    SecurityHandshake(ZmtpConfig config, ZmtpMechanism mechanism) {
        this.config = config;
        this.mechanism = mechanism;
    }

    /** Sends the mechanism's first commands; {@code resume} is run on the event loop when a late decision arrives. */
    void start(ChannelHandlerContext ctx, Runnable resume) {
        this.resume = resume;
        writeCommands(ctx, mechanism.start());
        authenticateIfAsked(ctx);
    }

    boolean isAuthenticating() {
        return authenticating;
    }

    /** Whether the mechanism is done and no decision is pending. */
    boolean isComplete() {
        return !authenticating && mechanism.isComplete();
    }

    /** The authenticator's decision on the peer, if it was asked; null otherwise. */
    ZmtpAuthResult authResult() {
        return authResult;
    }

    /** The peer's metadata once complete, its socket type checked against ours. */
    ZmtpMetadata peerMetadata() {
        ZmtpMetadata peer = mechanism.peerMetadata();
        ZmtpSocketType peerType = peer.socketType();
        if (peerType == null) {
            throw ZmtpHandshakeException.incompatible(config, peer.string(ZmtpMetadata.SOCKET_TYPE));
        }
        if (!config.socketType().isCompatibleWith(peerType)) {
            throw ZmtpHandshakeException.incompatible(config, peerType.name());
        }
        return peer;
    }

    /** Reads and handles one command; false when more bytes are needed or a decision is pending. */
    boolean readCommand(ChannelHandlerContext ctx, ByteBuf in) {
        if (authenticating) {
            // Subtraction-free: readableBytes is an int, the bound a constant.
            if (in.readableBytes() > MAX_BYTES_WHILE_AUTHENTICATING) {
                throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "peer sent "
                        + in.readableBytes() + " bytes while its credentials were being checked (expected: <= "
                        + MAX_BYTES_WHILE_AUTHENTICATING + ")");
            }
            return false;
        }
        if (!header.readFlags(in, 0)) {
            return false;
        }
        int flags = header.flags();
        if ((flags & ~ZmtpConstants.FLAG_LONG) != ZmtpConstants.FLAG_COMMAND) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "frame with flags 0x" + Integer.toHexString(flags) + " before the handshake completed"
                            + " (expected: a command)");
        }
        if (!header.readSize(in)) {
            return false;
        }
        long size = header.size();
        if (size < 0 || size > ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "handshake command size: "
                    + size + " (expected: <= " + ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE + ")");
        }
        if (!header.isBodyReadable(in)) {
            return false;
        }
        header.skip(in);
        ZmtpCommand command = ZmtpWire.readCommand(in, (int) size);
        List<ZmtpCommand> replies;
        try {
            replies = mechanism.handle(command);
        } finally {
            command.release();
        }
        writeCommands(ctx, replies);
        authenticateIfAsked(ctx);
        return true;
    }

    private void authenticateIfAsked(ChannelHandlerContext ctx) {
        ZmtpCredentials credentials = mechanism.pendingCredentials();
        if (credentials == null) {
            return;
        }
        authenticating = true;
        decided = false;
        ZmtpAuthRequest request = new ZmtpAuthRequest(config.zapDomain(), ctx.channel().remoteAddress(),
                config.identity(), credentials);
        CompletionStage<ZmtpAuthResult> stage;
        try {
            stage = config.authenticator().authenticate(request);
        } catch (RuntimeException e) {
            decide(null, e);
            applyDecision(ctx);
            return;
        }
        registering = true;
        stage.whenComplete((result, failure) -> {
            // Only this thread, inside this call, ever sees registering true: anything later goes through the loop.
            if (registering && ctx.executor().inEventLoop()) {
                decide(result, failure);
            } else {
                ctx.executor().execute(() -> {
                    decide(result, failure);
                    resume.run();
                });
            }
        });
        registering = false;
        // Answered at once (the usual case): no hop through the event loop's queue.
        if (decided) {
            applyDecision(ctx);
        }
    }

    private void decide(ZmtpAuthResult result, Throwable failure) {
        decided = true;
        decision = result;
        decisionFailure = failure != null ? failure
                : result == null ? new NullPointerException("authenticator answered null") : null;
    }

    /**
     * Applies a decision that arrived, sending what the mechanism returns; a no-op if none is pending (the
     * connection failed meanwhile).
     *
     * @throws ZmtpHandshakeException if the peer is refused
     */
    void applyDecision(ChannelHandlerContext ctx) {
        if (!authenticating || !decided) {
            return;
        }
        authenticating = false;
        ZmtpAuthResult result = decision;
        if (decisionFailure != null) {
            logger.warn("{} authenticator failed; refusing the peer", ctx.channel(), decisionFailure);
            result = ZmtpAuthResult.of(ZmtpAuthResult.INTERNAL_ERROR, "authenticator failed: " + decisionFailure,
                    "", ZmtpMetadata.EMPTY);
        }
        decision = null;
        decisionFailure = null;
        authResult = result;
        writeCommands(ctx, mechanism.authenticated(result));
    }

    private static void writeCommands(ChannelHandlerContext ctx, List<ZmtpCommand> commands) {
        if (commands.isEmpty()) {
            return;
        }
        int length = 0;
        for (ZmtpCommand c : commands) {
            length += ZmtpWire.commandLength(c);
        }
        ByteBuf buf = ctx.alloc().buffer(length);
        for (ZmtpCommand c : commands) {
            try {
                ZmtpWire.writeCommand(buf, c);
            } finally {
                c.release();
            }
        }
        ctx.writeAndFlush(buf);
    }

    /**
     * The ERROR to tell the peer why the handshake failed, or null when it gets none: after its own ERROR, after
     * a 300 refusal (libzmq closes without one, so the client retries), and after our handshake timeout. A refusal's
     * reason is its ZAP status code, which libzmq peers report as an authentication failure.
     *
     * <p>The timeout closes silently as libzmq's does ({@code timeout_error}): libzmq and JeroMQ clients stop
     * reconnecting for good after any ERROR they receive during the handshake (a protocol error ends their session),
     * and a timeout is often ours (a slow ZAP handler), not the client's fault.
     */
    static ZmtpCommand errorFor(ZmtpHandshakeException cause) {
        if (cause.reason() == ZmtpHandshakeFailureReason.PEER_ERROR
                || cause.reason() == ZmtpHandshakeFailureReason.TIMEOUT || cause.isSilent()) {
            return null;
        }
        if (cause instanceof ZmtpAuthenticationException) {
            ZmtpAuthenticationException auth = (ZmtpAuthenticationException) cause;
            if (auth.isByPeer() || auth.statusCode() == ZmtpAuthResult.TEMPORARY_FAILURE) {
                return null;
            }
            return ZmtpCommand.error(Integer.toString(auth.statusCode()));
        }
        return ZmtpCommand.error(cause.getMessage() == null ? "" : cause.getMessage());
    }
}
