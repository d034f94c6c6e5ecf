package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanism;

import java.util.Set;

/**
 * The greeting half of {@link ZmtpHandshakeHandler}: finds which ZMTP version the peer speaks with libzmq's staged
 * greeting (rfc 23 "Version Negotiation": our signature, then our major version once the peer's signature says it is
 * versioned, then the rest once its major version is known) and exchanges that version's greetings. It ends with
 * the version to talk: for 3.x the mechanism's command phase follows ({@link SecurityHandshake}); a 1.0 or 2.0 peer's
 * greeting already carried its identity (and, for 2.0, socket type), which is the whole handshake
 * ({@link LegacyGreeting}). Configured to accept only 1.0 or only 2.0, it sends that version's greeting whole instead.
 *
 * <p>Confined to the channel's event loop, as the handler that owns it. It writes (and flushes) each stage of our
 * greeting itself; what it reads it peeks at until a stage has fully arrived, and throws
 * {@link ZmtpHandshakeException} on a refused version or a malformed greeting.
 */
final class GreetingExchange {
    private enum Stage {
        /** Waiting for the peer's first bytes (our staged greeting sent, or one version's whole). */
        DETECT,
        /** Versioned peer; our major version is sent; waiting for the peer's byte 10. */
        MAJOR_VERSION,
        /** 3.x: rest of our greeting sent; waiting for the peer's 64 bytes. */
        ZMTP3_GREETING,
        /** 1.0 peer: waiting for its identity frame. */
        ZMTP10_IDENTITY,
        /** 2.0 peer: waiting for its socket type and identity frame. */
        ZMTP20_IDENTITY,
        DONE
    }

    /** What we send first: the staged greeting that detects any version, or one version's greeting whole. */
    private enum Mode { STAGED, ZMTP10_ONLY, ZMTP20_ONLY }

    private final ZmtpConfig config;
    private final Mode mode;
    private final LegacyGreeting legacy;
    private Zmtp3Greeting greeting;
    private Stage stage = Stage.DETECT;
    private ZmtpVersion version;
    private ZmtpMetadata legacyPeerMetadata;

    /**
     * @throws IllegalArgumentException if only ZMTP 1.0 or 2.0 is accepted with a mechanism other than NULL
     */
    GreetingExchange(ZmtpConfig config) {
        this.config = config;
        this.legacy = new LegacyGreeting(config);
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

    /** Sends the first bytes: our signature (staged), or the one version's whole greeting. */
    void start(ChannelHandlerContext ctx, ZmtpMechanism mechanism) {
        greeting = new Zmtp3Greeting(config, mechanism.name(), mechanism.isServer());
        ByteBuf first = ctx.alloc().buffer(ZmtpConstants.GREETING_LENGTH);
        switch (mode) {
            case ZMTP10_ONLY:
                legacy.writeZmtp10Greeting(first);
                break;
            case ZMTP20_ONLY:
                legacy.writeZmtp20Greeting(first);
                break;
            default:
                legacy.writeSignature(first);
                break;
        }
        ctx.writeAndFlush(first);
    }

    /** Whether the greetings are exchanged: {@link #version()} is known. */
    boolean isDone() {
        return stage == Stage.DONE;
    }

    /** The version to talk, once {@link #isDone()}. */
    ZmtpVersion version() {
        return version;
    }

    /** A 1.0 or 2.0 peer's identity and socket type, read from its greeting; null for 3.x (READY carries them). */
    ZmtpMetadata legacyPeerMetadata() {
        return legacyPeerMetadata;
    }

    /** Advances by one stage of the peer's greeting; false when more bytes are needed. */
    boolean read(ChannelHandlerContext ctx, ByteBuf in) {
        switch (stage) {
            case DETECT:
                return detect(ctx, in);
            case MAJOR_VERSION:
                return readMajorVersion(ctx, in);
            case ZMTP3_GREETING:
                return readZmtp3Greeting(in);
            case ZMTP10_IDENTITY:
                return readLegacyGreeting(ZmtpVersion.ZMTP_10, legacy.readZmtp10Greeting(in));
            case ZMTP20_IDENTITY:
                return readLegacyGreeting(ZmtpVersion.ZMTP_20, legacy.readZmtp20Greeting(in));
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
            stage = Stage.ZMTP10_IDENTITY;
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
            stage = Stage.ZMTP20_IDENTITY;
            return true;
        }
        ByteBuf major = ctx.alloc().buffer(1);
        major.writeByte(3);
        ctx.writeAndFlush(major);
        stage = Stage.MAJOR_VERSION;
        return true;
    }

    private boolean peerIsZmtp10(ChannelHandlerContext ctx) {
        if (mode == Mode.ZMTP20_ONLY || !legacy.accepts(ZmtpVersion.ZMTP_10)) {
            throw ZmtpHandshakeException.versionRefused(config, ZmtpVersion.ZMTP_10);
        }
        // Our signature was the header of a long identity frame; its body completes it.
        if (config.identityLength() > 0) {
            ByteBuf body = ctx.alloc().buffer(config.identityLength());
            legacy.writeIdentityBody(body);
            ctx.writeAndFlush(body);
        }
        stage = Stage.ZMTP10_IDENTITY;
        return true;
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
            if (!legacy.accepts(ZmtpVersion.ZMTP_20)) {
                throw ZmtpHandshakeException.versionRefused(config, ZmtpVersion.ZMTP_20);
            }
            ByteBuf rest = ctx.alloc().buffer(1 + 2 + config.identityLength());
            legacy.writeZmtp20Rest(rest);
            ctx.writeAndFlush(rest);
            stage = Stage.ZMTP20_IDENTITY;
            return true;
        }
        if (!config.acceptedVersions().contains(ZmtpVersion.ZMTP_31)
                && !config.acceptedVersions().contains(ZmtpVersion.ZMTP_30)) {
            throw ZmtpHandshakeException.versionRefused(config, ZmtpVersion.ZMTP_31);
        }
        ByteBuf rest = ctx.alloc().buffer(ZmtpConstants.GREETING_LENGTH - 11);
        greeting.writeRest(rest);
        ctx.writeAndFlush(rest);
        stage = Stage.ZMTP3_GREETING;
        return true;
    }

    private boolean readZmtp3Greeting(ByteBuf in) {
        if (in.readableBytes() < ZmtpConstants.GREETING_LENGTH) {
            return false;
        }
        version = greeting.check(in);
        in.skipBytes(ZmtpConstants.GREETING_LENGTH);
        stage = Stage.DONE;
        return true;
    }

    /** {@code peer} is what {@link LegacyGreeting} read, or null until the greeting has fully arrived. */
    private boolean readLegacyGreeting(ZmtpVersion peerVersion, ZmtpMetadata peer) {
        if (peer == null) {
            return false;
        }
        version = peerVersion;
        legacyPeerMetadata = peer;
        stage = Stage.DONE;
        return true;
    }
}
