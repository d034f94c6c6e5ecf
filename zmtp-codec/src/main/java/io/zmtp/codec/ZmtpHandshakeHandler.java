package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandler;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanism;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The one handler to add to a pipeline to speak ZMTP. It runs the handshake (version detection with libzmq's staged
 * greeting, downgrade to ZMTP 2.0 and 1.0 peers, the security mechanism, socket-type check), then replaces itself
 * with {@link ZmtpFrameEncoder}, {@link ZmtpFrameDecoder} and {@link ZmtpHeartbeatHandler} and fires
 * {@link ZmtpHandshakeSuccessEvent}. From then on handlers after it read {@link ZmtpMessage}s (or what the configured
 * {@link ZmtpMessageReader} makes) and {@link ZmtpCommand}s such as SUBSCRIBE, and write {@code ZmtpMessage}s.
 *
 * <p>Writes made before the handshake completes are held and sent after it, in order. A failed handshake fires
 * {@link ZmtpHandshakeFailureEvent}, fails held writes, and closes the connection. Not sharable: one per connection.
 *
 * <pre>{@code
 * pipeline.addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.DEALER).build()));
 * pipeline.addLast(new MyMessageHandler());
 * }</pre>
 */
public final class ZmtpHandshakeHandler extends ByteToMessageDecoder implements ChannelOutboundHandler {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpHandshakeHandler.class);
    /** Refused peers tend to retry in a loop (libzmq reconnects every 100 ms by default). */
    static final WarnLimiter WARNINGS = new WarnLimiter();

    /** Pipeline names of the handlers the handshake installs. */
    public static final String ENCODER_NAME = "zmtp-encoder";
    public static final String DECODER_NAME = "zmtp-decoder";
    public static final String HEARTBEAT_NAME = "zmtp-heartbeat";

    private enum State {
        /** Waiting for the peer's first bytes (staged greeting sent or about to be). */
        DETECT,
        /** Versioned peer; our major version is sent; waiting for the peer's byte 10. */
        MAJOR_VERSION,
        /** 3.x: rest of our greeting sent; waiting for the peer's 64 bytes. */
        GREETING,
        /** 3.x: greeting done; mechanism commands until READY. */
        COMMANDS,
        /** 1.0 peer: waiting for its identity frame. */
        ZMTP10_IDENTITY,
        /** 2.0 peer: waiting for its socket type and identity frame. */
        ZMTP20_IDENTITY,
        DONE,
        FAILED
    }

    /** What we send first: the staged greeting that detects any version, or one version's greeting whole. */
    private enum Mode { STAGED, ZMTP10_ONLY, ZMTP20_ONLY }

    private final ZmtpConfig config;
    private final Mode mode;
    private final CompletableFuture<ZmtpHandshakeSuccessEvent> handshakeFuture = new CompletableFuture<>();
    private State state = State.DETECT;
    private boolean started;
    private ZmtpMechanism mechanism;
    private ZmtpVersion negotiated;
    private PendingWriteQueue pendingWrites;
    private ScheduledFuture<?> timeout;

    public ZmtpHandshakeHandler(ZmtpConfig config) {
        this.config = config;
        Set<ZmtpVersion> versions = config.acceptedVersions();
        if (versions.size() == 1 && versions.contains(ZmtpVersion.ZMTP_10)) {
            mode = Mode.ZMTP10_ONLY;
        } else if (versions.size() == 1 && versions.contains(ZmtpVersion.ZMTP_20)) {
            mode = Mode.ZMTP20_ONLY;
        } else {
            mode = Mode.STAGED;
        }
        if (mode != Mode.STAGED && !NullMechanism.NAME.equals(config.mechanism().name())) {
            throw new IllegalArgumentException("ZMTP 1.0 and 2.0 have no security mechanism; "
                    + config.mechanism().name() + " needs ZMTP 3.x");
        }
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
        if (config.handshakeTimeoutMillis() > 0) {
            timeout = ctx.executor().schedule(() -> fail(ctx, new ZmtpHandshakeException(
                    ZmtpHandshakeFailureReason.TIMEOUT,
                    "handshake not done in " + config.handshakeTimeoutMillis() + " ms")),
                    config.handshakeTimeoutMillis(), TimeUnit.MILLISECONDS);
        }
        ByteBuf first = ctx.alloc().buffer(ZmtpConstants.GREETING_LENGTH);
        switch (mode) {
            case ZMTP10_ONLY:
                writeIdentityFrame(first, ZmtpVersion.ZMTP_10);
                break;
            case ZMTP20_ONLY:
                writeSignature(first);
                first.writeByte(1);
                first.writeByte(zmtp20SocketTypeCode());
                writeIdentityFrame(first, ZmtpVersion.ZMTP_20);
                break;
            default:
                writeSignature(first);
                break;
        }
        ctx.writeAndFlush(first);
    }

    /** FF, u64 (identity length + 1), 7F: to a 1.0 peer, the header of our long-form identity frame. */
    private void writeSignature(ByteBuf out) {
        out.writeByte(0xFF);
        out.writeLong(config.identityLength() + 1L);
        out.writeByte(0x7F);
    }

    private void writeIdentityFrame(ByteBuf out, ZmtpVersion version) {
        byte[] identity = config.identity();
        ZmtpWire.writeHeader(out, version, identity.length, 0);
        out.writeBytes(identity);
    }

    // rfc 15: XPUB and XSUB look like PUB and SUB to a 2.0 peer.
    private int zmtp20SocketTypeCode() {
        switch (config.socketType()) {
            case XPUB:
                return ZmtpSocketType.PUB.zmtp20Code();
            case XSUB:
                return ZmtpSocketType.SUB.zmtp20Code();
            default:
                return config.socketType().zmtp20Code();
        }
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
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, e.getMessage()));
        }
        if (state == State.DONE) {
            ctx.pipeline().remove(this);
        }
    }

    /** Advances the handshake by one stage; false when more bytes are needed. */
    private boolean step(ChannelHandlerContext ctx, ByteBuf in) {
        switch (state) {
            case DETECT:
                return detect(ctx, in);
            case MAJOR_VERSION:
                return readMajorVersion(ctx, in);
            case GREETING:
                return readGreeting(ctx, in);
            case COMMANDS:
                return readCommand(ctx, in);
            case ZMTP10_IDENTITY:
                return readIdentity10(ctx, in);
            case ZMTP20_IDENTITY:
                return readIdentity20(ctx, in);
            default:
                return false;
        }
    }

    private boolean detect(ChannelHandlerContext ctx, ByteBuf in) {
        int r = in.readerIndex();
        if (!in.isReadable()) {
            return false;
        }
        if (mode == Mode.ZMTP10_ONLY) {
            // Whatever the peer sent first is its identity frame: a downgrading libzmq's 10 bytes are one too.
            state = State.ZMTP10_IDENTITY;
            return true;
        }
        if (in.getUnsignedByte(r) != 0xFF) {
            return peerIsZmtp10(ctx);
        }
        if (in.readableBytes() < ZmtpConstants.SIGNATURE_LENGTH) {
            return false;
        }
        if ((in.getByte(r + 9) & 0x01) == 0) {
            return peerIsZmtp10(ctx);
        }
        if (mode == Mode.ZMTP20_ONLY) {
            state = State.ZMTP20_IDENTITY;
            return true;
        }
        ByteBuf major = ctx.alloc().buffer(1);
        major.writeByte(3);
        ctx.writeAndFlush(major);
        state = State.MAJOR_VERSION;
        return true;
    }

    private boolean peerIsZmtp10(ChannelHandlerContext ctx) {
        if (mode == Mode.ZMTP20_ONLY || !acceptsLegacy(ZmtpVersion.ZMTP_10)) {
            throw refused(ZmtpVersion.ZMTP_10);
        }
        // Our signature was the header of a long identity frame; its body completes it.
        byte[] identity = config.identity();
        if (identity.length > 0) {
            ctx.writeAndFlush(ctx.alloc().buffer(identity.length).writeBytes(identity));
        }
        state = State.ZMTP10_IDENTITY;
        return true;
    }

    /** 1.0 and 2.0 have no security: accepted only if configured and our mechanism is NULL (rfc 23 downgrade). */
    private boolean acceptsLegacy(ZmtpVersion version) {
        return config.acceptedVersions().contains(version) && NullMechanism.NAME.equals(config.mechanism().name());
    }

    private ZmtpHandshakeException refused(ZmtpVersion peerVersion) {
        if (!NullMechanism.NAME.equals(config.mechanism().name())) {
            // rfc 23: downgrading would let an attacker strip the security mechanism.
            return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.VERSION_REFUSED, "peer speaks "
                    + peerVersion + ", which has no security mechanism; " + config.mechanism().name() + " required");
        }
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.VERSION_REFUSED,
                "peer speaks " + peerVersion + " (accepted: " + config.acceptedVersions() + ")");
    }

    private boolean readMajorVersion(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < ZmtpConstants.SIGNATURE_LENGTH + 1) {
            return false;
        }
        int revision = in.getUnsignedByte(in.readerIndex() + 10);
        if (revision == 0) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.VERSION_REFUSED,
                    "peer announced protocol revision 0, which no ZMTP version uses after a versioned signature");
        }
        if (revision == 1) {
            if (!acceptsLegacy(ZmtpVersion.ZMTP_20)) {
                throw refused(ZmtpVersion.ZMTP_20);
            }
            ByteBuf rest = ctx.alloc().buffer(1 + 2 + config.identityLength());
            rest.writeByte(zmtp20SocketTypeCode());
            writeIdentityFrame(rest, ZmtpVersion.ZMTP_20);
            ctx.writeAndFlush(rest);
            state = State.ZMTP20_IDENTITY;
            return true;
        }
        if (!config.acceptedVersions().contains(ZmtpVersion.ZMTP_31)
                && !config.acceptedVersions().contains(ZmtpVersion.ZMTP_30)) {
            throw refused(ZmtpVersion.ZMTP_31);
        }
        ByteBuf rest = ctx.alloc().buffer(ZmtpConstants.GREETING_LENGTH - 11);
        rest.writeByte(ownMinorVersion());
        byte[] name = mechanism.name().getBytes(StandardCharsets.US_ASCII);
        rest.writeBytes(name);
        rest.writeZero(ZmtpConstants.MECHANISM_LENGTH - name.length);
        rest.writeByte(mechanism.isServer() ? 1 : 0);
        rest.writeZero(31);
        ctx.writeAndFlush(rest);
        state = State.GREETING;
        return true;
    }

    /** We announce 3.1 unless configured to speak only 3.0. */
    private int ownMinorVersion() {
        return config.acceptedVersions().contains(ZmtpVersion.ZMTP_31) ? 1 : 0;
    }

    private boolean readGreeting(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < ZmtpConstants.GREETING_LENGTH) {
            return false;
        }
        int r = in.readerIndex();
        int major = in.getUnsignedByte(r + 10);
        int minor = in.getUnsignedByte(r + 11);
        // A 3.1 peer must accept later versions and talk 3.1 to them; a 3.0 peer gets 3.0.
        ZmtpVersion version = (major == 3 && minor == 0) || ownMinorVersion() == 0
                ? ZmtpVersion.ZMTP_30 : ZmtpVersion.ZMTP_31;
        if (!config.acceptedVersions().contains(version)) {
            throw refused(version);
        }
        byte[] expected = new byte[ZmtpConstants.MECHANISM_LENGTH];
        byte[] name = mechanism.name().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, expected, 0, name.length);
        for (int i = 0; i < ZmtpConstants.MECHANISM_LENGTH; i++) {
            if (in.getByte(r + 12 + i) != expected[i]) {
                String peer = in.toString(r + 12, ZmtpConstants.MECHANISM_LENGTH, StandardCharsets.US_ASCII)
                        .replace("\0", "");
                throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH,
                        "peer mechanism " + ZmtpPrintable.of(peer.getBytes(StandardCharsets.US_ASCII))
                                + " (expected: " + mechanism.name() + ")");
            }
        }
        in.skipBytes(ZmtpConstants.GREETING_LENGTH);
        negotiated = version;
        state = State.COMMANDS;
        writeCommands(ctx, mechanism.start());
        checkMechanismComplete(ctx);
        return true;
    }

    private boolean readCommand(ChannelHandlerContext ctx, ByteBuf in) {
        int readable = in.readableBytes();
        if (readable < 2) {
            return false;
        }
        int r = in.readerIndex();
        int flags = in.getUnsignedByte(r);
        if ((flags & ~ZmtpConstants.FLAG_LONG) != ZmtpConstants.FLAG_COMMAND) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "frame with flags 0x" + Integer.toHexString(flags) + " before the handshake completed"
                            + " (expected: a command)");
        }
        long size;
        int headerLength;
        if ((flags & ZmtpConstants.FLAG_LONG) != 0) {
            if (readable < 9) {
                return false;
            }
            size = in.getLong(r + 1);
            headerLength = 9;
        } else {
            size = in.getUnsignedByte(r + 1);
            headerLength = 2;
        }
        if (size < 0 || size > ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR, "handshake command size: "
                    + size + " (expected: <= " + ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE + ")");
        }
        if (size > readable - headerLength) {
            return false;
        }
        in.skipBytes(headerLength);
        ZmtpCommand command = ZmtpWire.readCommand(in, (int) size);
        List<ZmtpCommand> replies;
        try {
            replies = mechanism.handle(command);
        } finally {
            command.release();
        }
        writeCommands(ctx, replies);
        checkMechanismComplete(ctx);
        return true;
    }

    private void writeCommands(ChannelHandlerContext ctx, List<ZmtpCommand> commands) {
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

    private void checkMechanismComplete(ChannelHandlerContext ctx) {
        if (!mechanism.isComplete()) {
            return;
        }
        ZmtpMetadata peer = mechanism.peerMetadata();
        ZmtpSocketType peerType = peer.socketType();
        if (peerType == null) {
            throw incompatible(peer.string(ZmtpMetadata.SOCKET_TYPE));
        }
        if (!config.socketType().isCompatibleWith(peerType)) {
            throw incompatible(peerType.name());
        }
        complete(ctx, negotiated, peer);
    }

    private ZmtpHandshakeException incompatible(String peerType) {
        return new ZmtpHandshakeException(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE,
                "peer socket type " + (peerType == null ? "missing" : peerType) + " can't talk to "
                        + config.socketType());
    }

    private boolean readIdentity10(ChannelHandlerContext ctx, ByteBuf in) {
        int headerLength = ZmtpWire.header10Length(in);
        if (headerLength == 0) {
            return false;
        }
        long length = ZmtpWire.length10(in, headerLength);
        int flags = in.getUnsignedByte(in.readerIndex() + headerLength - 1);
        // libzmq's staged signature doubles as a long identity frame whose flags byte is 7F.
        boolean validFlags = flags == 0 || (headerLength == 10 && flags == 0x7F);
        if (!validFlags || length < 1 || length > 256) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "not a ZMTP greeting: first frame length " + length + ", flags 0x" + Integer.toHexString(flags));
        }
        if (!acceptsLegacy(ZmtpVersion.ZMTP_10)) {
            throw refused(ZmtpVersion.ZMTP_10);
        }
        if (length - 1 > in.readableBytes() - headerLength) {
            return false;
        }
        in.skipBytes(headerLength);
        byte[] identity = new byte[(int) length - 1];
        in.readBytes(identity);
        complete(ctx, ZmtpVersion.ZMTP_10, ZmtpMetadata.builder().identity(identity).build());
        return true;
    }

    private boolean readIdentity20(ChannelHandlerContext ctx, ByteBuf in) {
        int readable = in.readableBytes();
        if (readable < 14) {
            return false;
        }
        int r = in.readerIndex();
        int typeCode = in.getUnsignedByte(r + 11);
        int flags = in.getUnsignedByte(r + 12);
        long size;
        int headerLength;
        if (flags == ZmtpConstants.FLAG_LONG) {
            if (readable < 12 + 9) {
                return false;
            }
            size = in.getLong(r + 13);
            headerLength = 9;
        } else if (flags == 0) {
            // Read as unsigned: identities of 128..255 bytes are valid (netty-zmtp 0.4 read this byte signed).
            size = in.getUnsignedByte(r + 13);
            headerLength = 2;
        } else {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "ZMTP/2.0 identity frame with flags 0x" + Integer.toHexString(flags) + " (expected: 0x00)");
        }
        if (size < 0 || size > 255) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "ZMTP/2.0 identity length: " + size + " (expected: <= 255)");
        }
        if (size > readable - 12 - headerLength) {
            return false;
        }
        ZmtpSocketType peerType = ZmtpSocketType.fromZmtp20Code(typeCode);
        if (peerType == null) {
            throw incompatible("code 0x" + Integer.toHexString(typeCode));
        }
        if (!config.socketType().isCompatibleWith(peerType) && !isSwappedPubSubCode(peerType)) {
            throw incompatible(peerType.name());
        }
        in.skipBytes(12 + headerLength);
        byte[] identity = new byte[(int) size];
        in.readBytes(identity);
        complete(ctx, ZmtpVersion.ZMTP_20,
                ZmtpMetadata.builder().socketType(peerType).identity(identity).build());
        return true;
    }

    /**
     * Spotify's netty-zmtp 0.4.0 writes the ZMTP 2.0 socket-type codes of PUB and SUB swapped (its PUB sends 02,
     * its SUB 01; it reads them correctly). libzmq doesn't check the 2.0 byte at all, so those services talk to it;
     * we let exactly that case through: a PUB-side peer announcing PUB to our PUB/XPUB, or SUB to our SUB/XSUB.
     */
    private boolean isSwappedPubSubCode(ZmtpSocketType peerType) {
        boolean swapped;
        switch (config.socketType()) {
            case PUB:
            case XPUB:
                swapped = peerType == ZmtpSocketType.PUB;
                break;
            case SUB:
            case XSUB:
                swapped = peerType == ZmtpSocketType.SUB;
                break;
            default:
                swapped = false;
        }
        if (swapped) {
            logger.debug("ZMTP/2.0 peer announced {} to our {}: taken as netty-zmtp 0.4's swapped PUB/SUB codes",
                    peerType, config.socketType());
        }
        return swapped;
    }

    private void complete(ChannelHandlerContext ctx, ZmtpVersion version, ZmtpMetadata peerMetadata) {
        state = State.DONE;
        cancelTimeout();
        ChannelPipeline p = ctx.pipeline();
        String name = ctx.name();
        p.addBefore(name, ENCODER_NAME, new ZmtpFrameEncoder(version, config.messageWriter()));
        p.addAfter(name, DECODER_NAME,
                new ZmtpFrameDecoder(version, config.maxMessageSize(), config.newMessageReader()));
        p.addAfter(DECODER_NAME, HEARTBEAT_NAME, new ZmtpHeartbeatHandler(version, config));
        // Held writes go out first, through the encoder just installed before us.
        pendingWrites.removeAndWriteAll();
        ctx.flush();
        String mechanismName = version.hasCommands() ? mechanism.name() : NullMechanism.NAME;
        ZmtpHandshakeSuccessEvent success = new ZmtpHandshakeSuccessEvent(version, mechanismName, peerMetadata,
                ctx.channel().remoteAddress());
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
        boolean sendError = state == State.COMMANDS && cause.reason() != ZmtpHandshakeFailureReason.PEER_ERROR
                && ctx.channel().isActive();
        state = State.FAILED;
        cancelTimeout();
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
        if (sendError) {
            // rfc 23: tell the peer why before closing (libzmq just closes, and ignores ERROR it gets here).
            ByteBuf buf = ctx.alloc().buffer(64);
            ZmtpCommand error = ZmtpCommand.error(cause.getMessage() == null ? "" : cause.getMessage());
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
            io.netty.util.ReferenceCountUtil.release(msg);
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
