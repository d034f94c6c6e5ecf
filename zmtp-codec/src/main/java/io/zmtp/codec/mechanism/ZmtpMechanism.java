package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpMetadata;

import java.util.List;

/**
 * One side of a ZMTP security handshake (NULL, PLAIN, CURVE) for one connection. A mechanism does no I/O: the
 * handshake handler feeds it the peer's commands and sends the commands it returns, so a mechanism can be tested
 * with plain objects. Commands it returns are released by the handler once written; commands it is given are
 * released by the handler after {@link #handle} returns.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Authentication and Confidentiality"</a>
 * @see <a href="https://rfc.zeromq.org/spec/24/">24/ZMTP-PLAIN (a mechanism this interface is shaped for; not implemented yet)</a>
 */
public interface ZmtpMechanism {

    /** The mechanism name as it appears in the greeting ("NULL", "PLAIN", "CURVE"). */
    String name();

    /** The greeting's as-server bit: true for the server role of PLAIN and CURVE. */
    boolean isServer();

    /** Called once both greetings are exchanged; returns the commands to send first (possibly none). */
    List<ZmtpCommand> start();

    /**
     * Handles one command from the peer and returns the commands to send in reply (possibly none).
     *
     * @throws ZmtpHandshakeException if the command is unexpected, malformed, an ERROR, or fails authentication
     */
    List<ZmtpCommand> handle(ZmtpCommand command);

    /** Whether the handshake is complete: both sides' final commands are sent and received. */
    boolean isComplete();

    /** The peer's metadata, once {@link #isComplete()}. */
    ZmtpMetadata peerMetadata();
}
