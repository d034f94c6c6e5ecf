package io.zmtp.jeromq.guide.majordomo;

import java.util.Arrays;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;

/**
 * Majordomo Protocol 0.1 (rfc.zeromq.org 7/MDP) constants: the client and worker protocol headers and the
 * worker commands, each with the frame that carries it on the wire.
 */
public enum MDP {
    /** This is the version of MDP/Client we implement. */
    C_CLIENT("MDPC01"),
    /** This is the version of MDP/Worker we implement. */
    W_WORKER("MDPW01"),
    // MDP/Server commands, as byte values
    W_READY(1),
    W_REQUEST(2),
    W_REPLY(3),
    W_HEARTBEAT(4),
    W_DISCONNECT(5);

    private final byte[] data;

    MDP(String value) {
        this.data = value.getBytes(ZMQ.CHARSET);
    }

    MDP(int value) {
        this.data = new byte[] {(byte) (value & 0xFF)};
    }

    /** A new frame holding this constant. */
    public ZFrame newFrame() {
        return new ZFrame(data);
    }

    /** True if {@code frame} holds this constant. */
    public boolean frameEquals(ZFrame frame) {
        return Arrays.equals(data, frame.getData());
    }
}
