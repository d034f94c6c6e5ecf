package io.zmtp.codec;

/**
 * Why a handshake failed.
 */
public enum ZmtpHandshakeFailureReason {
    /** The peer's bytes broke the greeting or command grammar. */
    PROTOCOL_ERROR,
    /** The peer speaks a ZMTP version this side was configured not to accept. */
    VERSION_REFUSED,
    /** The peer's greeting names a different security mechanism. */
    MECHANISM_MISMATCH,
    /** The peer's Socket-Type may not talk to ours, or is missing or unknown. */
    INCOMPATIBLE_SOCKET_TYPE,
    /** The peer sent an ERROR command. */
    PEER_ERROR,
    /** The peer's credentials were refused, or ours were. */
    AUTHENTICATION_FAILED,
    /** The handshake did not finish in time. */
    TIMEOUT,
    /** The connection closed before the handshake finished. */
    CONNECTION_CLOSED
}
