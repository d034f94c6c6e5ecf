package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * The thread-safe types' rule, as libzmq has it: a message is one part. A multipart send fails (libzmq's EINVAL); a
 * multipart message received is dropped, counted as a drop of the socket (with its monitor event), and the next one
 * is read.
 */
final class SinglePart {
    private SinglePart() {
    }

    /** Throws, before anything is queued, if {@code msg} has more than one part; the caller releases it. */
    static void checkSend(ZmtpSocketType type, ZmtpMessage msg) {
        if (msg.size() != 1) {
            throw new ZmtpSocketException.InvalidMessage(type + " sends single-part messages only; this one has "
                    + msg.size() + " parts (libzmq: EINVAL)");
        }
    }

    /** The next single-part message from {@code fq}, dropping (and counting) multipart ones; null if none. */
    static ZmtpMessage receive(SocketBase socket, FairQueue fq) {
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            if (m.size() == 1) {
                return m;
            }
            m.release();
            socket.messagesDropped(1);
        }
        return null;
    }
}
