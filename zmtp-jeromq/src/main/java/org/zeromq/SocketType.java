package org.zeromq;

import io.zmtp.codec.ZmtpSocketType;

/**
 * The socket types, with JeroMQ 0.6.0's numbers ({@link #type}). JeroMQ numbers the draft types differently from
 * libzmq (CHANNEL is 16 here, 20 in libzmq); these are JeroMQ's, because applications written against JeroMQ pass
 * them as ints. What goes on the wire is the type's name in the READY command, the same in both.
 *
 * <p>{@link #RAW} is JeroMQ's number for libzmq's ZMQ_RAW, which JeroMQ 0.6.0 implements as a PEER over raw bytes;
 * netty-zmtp has no such type, so creating a socket of it throws {@link IllegalArgumentException}.
 */
public enum SocketType {
    PAIR(0, ZmtpSocketType.PAIR),
    PUB(1, ZmtpSocketType.PUB),
    SUB(2, ZmtpSocketType.SUB),
    REQ(3, ZmtpSocketType.REQ),
    REP(4, ZmtpSocketType.REP),
    DEALER(5, ZmtpSocketType.DEALER),
    ROUTER(6, ZmtpSocketType.ROUTER),
    PULL(7, ZmtpSocketType.PULL),
    PUSH(8, ZmtpSocketType.PUSH),
    XPUB(9, ZmtpSocketType.XPUB),
    XSUB(10, ZmtpSocketType.XSUB),
    STREAM(11, ZmtpSocketType.STREAM),
    SERVER(12, ZmtpSocketType.SERVER),
    CLIENT(13, ZmtpSocketType.CLIENT),
    RADIO(14, ZmtpSocketType.RADIO),
    DISH(15, ZmtpSocketType.DISH),
    CHANNEL(16, ZmtpSocketType.CHANNEL),
    PEER(17, ZmtpSocketType.PEER),
    RAW(18, null),
    SCATTER(19, ZmtpSocketType.SCATTER),
    GATHER(20, ZmtpSocketType.GATHER);

    /** JeroMQ's number for the type. */
    public final int type;
    /** The type in netty-zmtp, or null where there is none ({@link #RAW}). */
    private final ZmtpSocketType zmtpType;

    SocketType(int type, ZmtpSocketType zmtpType) {
        this.type = type;
        this.zmtpType = zmtpType;
    }

    /** The type whose JeroMQ number is {@code baseType}. */
    public static SocketType type(int baseType) {
        for (SocketType t : values()) {
            if (t.type == baseType) {
                return t;
            }
        }
        throw new IllegalArgumentException("no socket type found with value " + baseType);
    }

    public int type() {
        return type;
    }

    /** The netty-zmtp type, or null for {@link #RAW}. */
    ZmtpSocketType zmtpType() {
        return zmtpType;
    }
}
