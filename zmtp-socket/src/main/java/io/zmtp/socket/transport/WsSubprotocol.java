package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.security.ZmtpAuthenticator;
import io.zmtp.socket.internal.ZapClient;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

/**
 * The ZWS 2.0 subprotocols (rfc 45, libzmq's {@code ws_engine.cpp} {@code select_protocol}): which a socket offers
 * and accepts, and what the chosen one means for the unchanged codec behind {@link WsHandler}.
 * <ul>
 * <li>{@code ZWS2.0/NULL}, {@code /PLAIN}, {@code /CURVE}: the mechanism's handshake, as ZMTP 3.0 (the codec is
 * fed the greeting of a 3.0 peer with that mechanism, and its own 64 greeting bytes are not sent).</li>
 * <li>The bare {@code ZWS2.0}, only when the socket's mechanism is NULL: no handshake at all; the first message
 * each way is the sender's routing id, then messages, subscriptions as {@code 0x01}/{@code 0x00}-prefixed
 * messages: ZMTP 2.0 without its greeting. The codec speaks 2.0 ({@link ZmtpVersion#ZMTP_20} only) and is fed a
 * 2.0 greeting's first 12 bytes; the peer's first message completes it as its identity frame, which the codec
 * checks as any 2.0 identity (no MORE flag, at most 255 bytes). The peer announces no socket type: the fed greeting
 * names the first type ours may talk to, so none is checked (libzmq checks none either), and the peer's
 * {@code ZmtpPeer.socketType()} is that type, not one the peer said. A command frame after it is a protocol error
 * (2.0 has none; libzmq's ws heartbeats are WebSocket pings, which Netty answers). The thread-safe types need ZMTP
 * 3's commands and never take it. Nor does a socket whose NULL handshake would ask someone about the peer (a ZAP
 * domain, or an {@code AUTHENTICATOR} of the application's): with no handshake there is nobody to ask, and the bare
 * form must not be a way around them. Browsers need it: their {@code WebSocket} refuses {@code ZWS2.0/NULL}, whose
 * {@code /} is not a token character (RFC 6455 section 4.1, RFC 2616 section 2.2).</li>
 * </ul>
 * A client offers what libzmq's offers ({@code ZWS2.0/NULL,ZWS2.0} with NULL, else its mechanism's); a server
 * accepts the same list and takes the first the client offers that is on it, as libzmq's server does.
 */
final class WsSubprotocol {
    /** The bare subprotocol: no mechanism, ZMTP 2.0-like. */
    static final String BARE = "ZWS2.0";
    private static final String PREFIX = "ZWS2.0/";
    /** A ZMTP 2.0 greeting's signature, revision and socket type: what comes before its identity frame. */
    private static final int ZMTP20_GREETING_HEAD = ZmtpConstants.SIGNATURE_LENGTH + 2;

    private WsSubprotocol() {
    }

    /** The subprotocol that names {@code config}'s mechanism, {@code ZWS2.0/NULL} and the like. */
    static String withMechanism(ZmtpConfig config) {
        return PREFIX + config.mechanism().name();
    }

    /** What a client offers and a server accepts: the mechanism's subprotocol, then the bare one if allowed. */
    static String offered(ZmtpConfig config) {
        return acceptsBare(config) ? withMechanism(config) + "," + BARE : withMechanism(config);
    }

    /**
     * Whether {@code config} may speak the bare form: NULL security (nothing to strip) that asks nobody about the
     * peer, a type with a ZMTP 2.0 code, and 2.0 among the accepted versions.
     */
    static boolean acceptsBare(ZmtpConfig config) {
        return NullMechanism.NAME.equals(config.mechanism().name()) && !nullAsksAnyone(config)
                && !config.socketType().isThreadSafe() && config.socketType().zmtp20Code() >= 0
                && config.acceptedVersions().contains(ZmtpVersion.ZMTP_20) && peerTypeFor(config.socketType()) != null;
    }

    /**
     * Whether a NULL handshake would ask anyone: yes with a ZAP domain (as in libzmq), or with any authenticator
     * but the two that let NULL in without asking when there is none (libzmq's default, and the context's ZAP
     * client, which asks a ZAP handler only for a ZAP domain).
     */
    private static boolean nullAsksAnyone(ZmtpConfig config) {
        ZmtpAuthenticator a = config.authenticator();
        return !config.zapDomain().isEmpty() || !(a == ZmtpAuthenticator.LIBZMQ_DEFAULT || a instanceof ZapClient);
    }

    /** Whether the subprotocol the upgrade chose is the bare one. */
    static boolean isBare(String chosen) {
        return BARE.equals(chosen);
    }

    /** The codec's configuration for the chosen subprotocol: 2.0 only if bare, else the socket's as it is. */
    static ZmtpConfig codecConfig(ZmtpConfig config, boolean bare) {
        return bare ? config.toBuilder().acceptedVersions(EnumSet.of(ZmtpVersion.ZMTP_20)).build() : config;
    }

    /**
     * The greeting bytes our codec writes that ZWS does not send: all 64 of 3.0's; of 2.0's, what precedes the
     * identity frame (the identity frame itself is our first message, the routing id).
     */
    static int ourGreetingToSwallow(boolean bare) {
        return bare ? ZMTP20_GREETING_HEAD : ZmtpConstants.GREETING_LENGTH;
    }

    /** What the codec is fed as the peer's greeting once the upgrade is done. */
    static ByteBuf peerGreeting(ByteBufAllocator alloc, ZmtpConfig config, boolean bare) {
        return bare ? zmtp20GreetingHead(alloc, config) : zmtp30Greeting(alloc, config);
    }

    /**
     * The greeting of a ZMTP 3.0 peer with our mechanism (the subprotocol matched it). 3.0, not 3.1: libzmq's ws
     * engine has no SUBSCRIBE and CANCEL commands (its decoder marks a command frame only as a command, not as a
     * subscription, and its session drops such commands), and sends and expects subscriptions as
     * 0x01/0x00-prefixed messages, which is what our codec does with a 3.0 peer. PING and PONG go to 3.0 peers too,
     * so heartbeats still work.
     */
    private static ByteBuf zmtp30Greeting(ByteBufAllocator alloc, ZmtpConfig config) {
        ByteBuf g = alloc.buffer(ZmtpConstants.GREETING_LENGTH);
        writeSignature(g);
        g.writeByte(3).writeByte(0);
        byte[] mechanism = config.mechanism().name().getBytes(StandardCharsets.US_ASCII);
        g.writeBytes(mechanism).writeZero(ZmtpConstants.MECHANISM_LENGTH - mechanism.length);
        // as-server: not read by our greeting check (libzmq's greeting always has 0 there too).
        g.writeByte(0);
        g.writeZero(ZmtpConstants.GREETING_LENGTH - g.writerIndex());
        return g;
    }

    /** A 2.0 greeting up to its identity frame: the signature, revision 01, a socket type ours may talk to. */
    private static ByteBuf zmtp20GreetingHead(ByteBufAllocator alloc, ZmtpConfig config) {
        ByteBuf g = alloc.buffer(ZMTP20_GREETING_HEAD);
        writeSignature(g);
        g.writeByte(1).writeByte(peerTypeFor(config.socketType()).zmtp20Code());
        return g;
    }

    /** A versioned signature (FF, 8 bytes, 7F); the 8 bytes are a 1.0 frame's length, which nobody reads here. */
    private static void writeSignature(ByteBuf g) {
        g.writeByte(0xFF).writeZero(8).writeByte(0x7F);
    }

    /** The first type with a ZMTP 2.0 code that {@code ours} may talk to, or null if none. */
    private static ZmtpSocketType peerTypeFor(ZmtpSocketType ours) {
        for (ZmtpSocketType t : ZmtpSocketType.values()) {
            if (t.zmtp20Code() >= 0 && ours.isCompatibleWith(t)) {
                return t;
            }
        }
        return null;
    }
}
