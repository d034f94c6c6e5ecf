package io.zmtp.codec;

/**
 * A ZMTP protocol revision that a connection can negotiate.
 *
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1)</a>
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
public enum ZmtpVersion {
    /** rfc 13: length-first frames, identity as the first frame, no socket type. */
    ZMTP_10(1, 0),
    /** rfc 15: 12-byte greeting with socket type and identity frame; no commands, no mechanism. */
    ZMTP_20(2, 0),
    /** rfc 23: 64-byte greeting, mechanisms, commands; subscriptions travel as messages. */
    ZMTP_30(3, 0),
    /** rfc 37: adds PING/PONG and SUBSCRIBE/CANCEL commands. */
    ZMTP_31(3, 1);

    private final int major;
    private final int minor;

    ZmtpVersion(int major, int minor) {
        this.major = major;
        this.minor = minor;
    }

    public int major() {
        return major;
    }

    public int minor() {
        return minor;
    }

    /** Whether this version frames commands (3.0 and later). */
    public boolean hasCommands() {
        return major >= 3;
    }

    /** Whether subscriptions go as SUBSCRIBE/CANCEL commands rather than 0x01/0x00-prefixed messages. */
    public boolean hasSubscriptionCommands() {
        return this == ZMTP_31;
    }

    /**
     * Whether PING/PONG may be exchanged: with any 3.x peer. rfc 37 defines them for 3.1, but libzmq sends PINGs to
     * every 3.x peer once ZMQ_HEARTBEAT_IVL is set and 3.0 peers such as JeroMQ answer them; gating on 3.1 would
     * leave a dead 3.0 peer undetected.
     */
    public boolean hasHeartbeats() {
        return hasCommands();
    }

    @Override
    public String toString() {
        return "ZMTP/" + major + "." + minor;
    }
}
