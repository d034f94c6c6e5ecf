package io.zmtp.socket;

/**
 * What a send does when the peer (or every peer) it would go to has SNDHWM messages queued: the
 * {@link ZmtpSocketOption#OVERFLOW} option. Every message dropped under a policy is counted (the socket's and the
 * peer's {@code droppedCount()}) and reported to monitors ({@link ZmtpSocketEvent.Type#MESSAGES_DROPPED}, once per
 * burst).
 *
 * <p>REQ keeps its lockstep: a dropped request would leave it waiting for a reply forever, so for REQ the drop
 * policies act as {@link #BLOCK}; REP answers the peer it was asked by, and drops a reply for a peer that is gone or
 * full, as libzmq does. XSUB never waits (its messages go to every publisher): {@link #BLOCK} and {@link #FAIL} act
 * as {@link #DROP_NEWEST} there.
 */
public enum ZmtpOverflowPolicy {
    /**
     * libzmq's behaviour for the socket's type: PUB, XPUB, XSUB and ROUTER {@link #DROP_NEWEST} (but XPUB with
     * XPUB_NODROP and ROUTER with ROUTER_MANDATORY {@link #BLOCK}); PUSH, DEALER, PAIR, REQ {@link #BLOCK}.
     */
    DEFAULT,
    /** Wait for room: {@code send} blocks, {@code send(msg, timeout)} and {@code trySend} return false. */
    BLOCK,
    /**
     * Don't wait: {@code send} and {@code send(msg, timeout)} throw {@link ZmtpSocketException.QueueFull},
     * {@code sendAsync} fails with it; {@code trySend} returns false as always.
     */
    FAIL,
    /** Drop the message being sent; the send succeeds. PUB's way: the latecomer loses. */
    DROP_NEWEST,
    /**
     * Drop the oldest message queued for the peer to make room for this one: the freshest data wins (market data,
     * telemetry). The oldest is one not yet handed to the connection; what the connection already holds goes out.
     */
    DROP_OLDEST
}
