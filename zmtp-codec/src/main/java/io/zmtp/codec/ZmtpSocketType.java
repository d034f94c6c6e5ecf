package io.zmtp.codec;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The ZeroMQ socket types, with their wire names, ZMTP 2.0 codes and the compatibility table of rfc 23/37 (which is
 * libzmq's {@code check_socket_type}): the standard eleven, STREAM, and the thread-safe types of libzmq's drafts.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "The Socket-Type Property"</a>
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1)</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0), socket-type codes</a>
 */
public enum ZmtpSocketType {
    PAIR(0x00),
    PUB(0x01),
    SUB(0x02),
    REQ(0x03),
    REP(0x04),
    DEALER(0x05),
    ROUTER(0x06),
    PULL(0x07),
    PUSH(0x08),
    // rfc 15 says XPUB/XSUB look like PUB/SUB to a 2.0 peer; libzmq sends its own codes 09/0A and we accept both.
    XPUB(0x09),
    XSUB(0x0A),
    /**
     * libzmq's ZMQ_STREAM: raw tcp peers, no ZMTP at all, so it never takes part in a handshake and is compatible
     * with no type (a peer announcing it is refused). It is here so that a socket API can name it; it has no ZMTP
     * 2.0 code ({@link #zmtp20Code()} is -1).
     */
    STREAM(-1),
    // The thread-safe types (libzmq's drafts, JeroMQ 0.6): single-part messages, ZMTP 3.x only (no 2.0 code; a 1.0 or
    // 2.0 peer is refused). rfc 41 CLIENT/SERVER, 48 RADIO/DISH, 49 SCATTER/GATHER, 51 PEER, 52 CHANNEL.
    /** rfc 41: round-robins to SERVERs, fair-queues from them. */
    CLIENT(-1),
    /** rfc 41: gives each CLIENT a routing id, told on each message received, by which a reply is routed. */
    SERVER(-1),
    /** rfc 48: publishes each message to the DISHes that joined its group. */
    RADIO(-1),
    /** rfc 48: receives the messages of the groups it joined. */
    DISH(-1),
    /** rfc 49: fair-queues from SCATTERs. */
    GATHER(-1),
    /** rfc 49: round-robins to GATHERs. */
    SCATTER(-1),
    /** rfc 51: routes by routing id, like SERVER, and may connect as well as bind. */
    PEER(-1),
    /** rfc 52: one peer, like PAIR. */
    CHANNEL(-1);

    private static final ZmtpSocketType[] VALUES = values();

    private final int zmtp20Code;
    private final byte[] wireName;

    ZmtpSocketType(int zmtp20Code) {
        this.zmtp20Code = zmtp20Code;
        this.wireName = name().getBytes(StandardCharsets.US_ASCII);
    }

    /** The socket type's code in a ZMTP 2.0 greeting. */
    public int zmtp20Code() {
        return zmtp20Code;
    }

    /** The exact ASCII bytes of the {@code Socket-Type} property. */
    public byte[] wireName() {
        return wireName.clone();
    }

    /** Whether a socket of this type may talk to a peer of {@code peer}'s type. */
    public boolean isCompatibleWith(ZmtpSocketType peer) {
        switch (this) {
            case REQ:
                return peer == REP || peer == ROUTER;
            case REP:
                return peer == REQ || peer == DEALER;
            case DEALER:
                return peer == REP || peer == DEALER || peer == ROUTER;
            case ROUTER:
                return peer == REQ || peer == DEALER || peer == ROUTER;
            case PUB:
            case XPUB:
                return peer == SUB || peer == XSUB;
            case SUB:
            case XSUB:
                return peer == PUB || peer == XPUB;
            case PUSH:
                return peer == PULL;
            case PULL:
                return peer == PUSH;
            case PAIR:
                return peer == PAIR;
            case STREAM:
                return false;
            case CLIENT:
                return peer == SERVER;
            case SERVER:
                return peer == CLIENT;
            case RADIO:
                return peer == DISH;
            case DISH:
                return peer == RADIO;
            case GATHER:
                return peer == SCATTER;
            case SCATTER:
                return peer == GATHER;
            case PEER:
                return peer == PEER;
            case CHANNEL:
                return peer == CHANNEL;
            default:
                throw new AssertionError(this);
        }
    }

    /**
     * Whether this is one of the thread-safe types (CLIENT, SERVER, RADIO, DISH, GATHER, SCATTER, PEER, CHANNEL): their
     * messages have one part, and they speak ZMTP 3.x only.
     */
    public boolean isThreadSafe() {
        return compareTo(CLIENT) >= 0;
    }

    /** Whether this type announces an {@code Identity} (libzmq: REQ, DEALER and ROUTER do, even when empty). */
    public boolean announcesIdentity() {
        return this == REQ || this == DEALER || this == ROUTER;
    }

    /**
     * The type named by a {@code Socket-Type} property value, or {@code null} if it names none of the standard
     * types. libzmq compares case-sensitively, and so do we.
     */
    public static ZmtpSocketType fromWireName(byte[] name) {
        if (name == null) {
            return null;
        }
        String s = new String(name, StandardCharsets.US_ASCII);
        for (ZmtpSocketType type : VALUES) {
            if (type.name().equals(s)) {
                return type;
            }
        }
        return null;
    }

    /**
     * The type with the given ZMTP 2.0 code, or {@code null}: the rfc 15 table (00 PAIR to 08 PUSH; rfc 15 calls
     * DEALER and ROUTER XREQ and XREP), plus libzmq's 09 XPUB and 0A XSUB.
     */
    public static ZmtpSocketType fromZmtp20Code(int code) {
        switch (code) {
            case 0x00:
                return PAIR;
            case 0x01:
                return PUB;
            case 0x02:
                return SUB;
            case 0x03:
                return REQ;
            case 0x04:
                return REP;
            case 0x05:
                return DEALER;
            case 0x06:
                return ROUTER;
            case 0x07:
                return PULL;
            case 0x08:
                return PUSH;
            case 0x09:
                return XPUB;
            case 0x0A:
                return XSUB;
            default:
                return null;
        }
    }

    /** Parses a user-supplied name, case-insensitively. */
    public static ZmtpSocketType parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
