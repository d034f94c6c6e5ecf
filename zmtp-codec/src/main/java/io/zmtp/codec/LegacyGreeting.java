package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.mechanism.NullMechanism;

/**
 * The ZMTP 1.0 and 2.0 greetings, for {@link GreetingExchange}'s downgrade path (rfc 23 "Backwards
 * Interoperability"). A 1.0 greeting is one identity frame (rfc 13); a 2.0 greeting is the signature, revision 01,
 * a socket-type byte and an identity frame (rfc 15). Our first ten bytes, libzmq's staged signature, double as the
 * header of a long 1.0 identity frame, so one opening serves every version.
 *
 * <p>The reads take the peer's greeting from the buffer once it has fully arrived (returning {@code null} until
 * then) and throw {@link ZmtpHandshakeException} on anything malformed or refused. Sizes are checked through
 * {@link FrameHeader}, against what is left, before anything is awaited or allocated.
 *
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Backwards Interoperability"</a>
 */
final class LegacyGreeting {
    /** Logs as the handler it works for. */
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpHandshakeHandler.class);
    /** A 2.0 greeting's signature (10 bytes), revision and socket type come before its identity frame. */
    private static final int ZMTP20_IDENTITY_OFFSET = 12;
    private static final int MAX_IDENTITY_LENGTH = 255;

    private final ZmtpConfig config;
    private final FrameHeader header = new FrameHeader();

    LegacyGreeting(ZmtpConfig config) {
        this.config = config;
    }

    /**
     * 1.0 and 2.0 have no security: accepted only if configured and our mechanism is NULL (rfc 23, downgrading would
     * otherwise let an attacker strip the mechanism). The thread-safe types have no 2.0 code and need ZMTP 3's
     * commands (JOIN, LEAVE): never.
     */
    boolean accepts(ZmtpVersion version) {
        return config.acceptedVersions().contains(version) && NullMechanism.NAME.equals(config.mechanism().name())
                && !config.socketType().isThreadSafe();
    }

    /** FF, u64 (identity length + 1), 7F: to a 1.0 peer, the header of our long-form identity frame. */
    void writeSignature(ByteBuf out) {
        out.writeByte(0xFF);
        out.writeLong(config.identityLength() + 1L);
        out.writeByte(0x7F);
    }

    /** The body that completes the identity frame {@link #writeSignature} began, for a peer found to speak 1.0. */
    void writeIdentityBody(ByteBuf out) {
        out.writeBytes(config.identity());
    }

    /** Our whole 1.0 greeting: an identity frame. */
    void writeZmtp10Greeting(ByteBuf out) {
        writeIdentityFrame(out, ZmtpVersion.ZMTP_10);
    }

    /** Our whole 2.0 greeting, when speaking only 2.0. */
    void writeZmtp20Greeting(ByteBuf out) {
        writeSignature(out);
        out.writeByte(1);
        writeZmtp20Rest(out);
    }

    /** What follows the signature and revision in a 2.0 greeting: the socket type and the identity frame. */
    void writeZmtp20Rest(ByteBuf out) {
        out.writeByte(zmtp20SocketTypeCode());
        writeIdentityFrame(out, ZmtpVersion.ZMTP_20);
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

    /** Reads a 1.0 peer's identity frame: the peer's metadata, or {@code null} until the frame has arrived. */
    ZmtpMetadata readZmtp10Greeting(ByteBuf in) {
        if (!header.read10(in, 0)) {
            return null;
        }
        long length = header.lengthField();
        int flags = header.flags();
        // libzmq's staged signature doubles as a long identity frame whose flags byte is 7F.
        boolean validFlags = flags == 0 || (header.length() == 10 && flags == 0x7F);
        if (!validFlags || length < 1 || length > MAX_IDENTITY_LENGTH + 1) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "not a ZMTP greeting: first frame length " + length + ", flags 0x" + Integer.toHexString(flags));
        }
        if (!accepts(ZmtpVersion.ZMTP_10)) {
            throw ZmtpHandshakeException.versionRefused(config, ZmtpVersion.ZMTP_10);
        }
        if (!header.isBodyReadable(in)) {
            return null;
        }
        header.skip(in);
        byte[] identity = new byte[(int) header.size()];
        in.readBytes(identity);
        return ZmtpMetadata.builder().identity(identity).build();
    }

    /**
     * Reads a 2.0 peer's greeting after its signature (which is still in the buffer): the peer's metadata, or
     * {@code null} until the greeting has arrived.
     */
    ZmtpMetadata readZmtp20Greeting(ByteBuf in) {
        if (!header.readFlags(in, ZMTP20_IDENTITY_OFFSET)) {
            return null;
        }
        int flags = header.flags();
        if (flags != 0 && flags != ZmtpConstants.FLAG_LONG) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "ZMTP/2.0 identity frame with flags 0x" + Integer.toHexString(flags) + " (expected: 0x00)");
        }
        // The short size is read unsigned: identities of 128..255 bytes are valid (netty-zmtp 0.4 read it signed).
        if (!header.readSize(in)) {
            return null;
        }
        long size = header.size();
        if (size < 0 || size > MAX_IDENTITY_LENGTH) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "ZMTP/2.0 identity length: " + size + " (expected: <= " + MAX_IDENTITY_LENGTH + ")");
        }
        if (!header.isBodyReadable(in)) {
            return null;
        }
        int typeCode = in.getUnsignedByte(in.readerIndex() + ZMTP20_IDENTITY_OFFSET - 1);
        ZmtpSocketType peerType = ZmtpSocketType.fromZmtp20Code(typeCode);
        if (peerType == null) {
            throw ZmtpHandshakeException.incompatible(config, "code 0x" + Integer.toHexString(typeCode));
        }
        if (!config.socketType().isCompatibleWith(peerType) && !isSwappedPubSubCode(peerType)) {
            throw ZmtpHandshakeException.incompatible(config, peerType.name());
        }
        header.skip(in);
        byte[] identity = new byte[(int) size];
        in.readBytes(identity);
        return ZmtpMetadata.builder().socketType(peerType).identity(identity).build();
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
}
