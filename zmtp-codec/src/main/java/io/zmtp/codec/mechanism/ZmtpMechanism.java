package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;

import java.util.List;

/**
 * One side of a ZMTP security handshake (NULL, PLAIN, CURVE) for one connection. A mechanism does no I/O: the
 * handshake handler feeds it the peer's commands and sends the commands it returns, so a mechanism can be tested
 * with plain objects. Commands it returns are released by the handler once written; commands it is given are
 * released by the handler after {@link #handle} returns.
 *
 * <h2>Authentication</h2>
 * A side that checks its peer (the server of PLAIN and CURVE; both sides of NULL) says so by returning credentials
 * from {@link #pendingCredentials()} after {@link #start()} or {@link #handle}. The handler then asks the configured
 * authenticator, feeds the mechanism no command until the decision arrives, and passes it to {@link #authenticated}.
 *
 * <h2>After the handshake</h2>
 * A mechanism that encrypts (CURVE) returns a {@link ZmtpFrameCipher} from {@link #frameCipher()}; every frame then
 * travels through it. Whatever the outcome, the handler then calls {@link #close()}.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Authentication and Confidentiality"</a>
 * @see <a href="https://rfc.zeromq.org/spec/24/">24/ZMTP-PLAIN</a>
 * @see <a href="https://rfc.zeromq.org/spec/25/">25/ZMTP-CURVE</a>
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

    /**
     * The peer's credentials waiting for an authenticator's decision, or {@code null}: asked after {@link #start()}
     * and after each {@link #handle}.
     */
    default ZmtpCredentials pendingCredentials() {
        return null;
    }

    /**
     * The authenticator's decision on {@link #pendingCredentials()}; returns the commands to send (possibly none).
     *
     * @throws ZmtpHandshakeException ({@code ZmtpAuthenticationException}) if the peer is refused
     */
    default List<ZmtpCommand> authenticated(ZmtpAuthResult result) {
        throw new IllegalStateException(name() + " asked for no authentication");
    }

    /** Whether the handshake is complete: both sides' final commands are sent and received. */
    boolean isComplete();

    /** The peer's metadata, once {@link #isComplete()}. */
    ZmtpMetadata peerMetadata();

    /**
     * Once {@link #isComplete()}: what carries the frames from now on, or {@code null} for clear text. Asked once; a
     * cipher returned belongs to the connection from then on, which {@linkplain ZmtpFrameCipher#close closes} it.
     */
    default ZmtpFrameCipher frameCipher() {
        return null;
    }

    /**
     * The handshake is over, whatever its outcome: done (after {@link #frameCipher()} was taken), failed, or cut
     * short by the connection closing or the handler being removed. A mechanism zeroes here whatever secrets of the
     * handshake it still holds (CURVE: transient keys, the cookie key; see docs/security.md), so that reading the
     * process's memory later opens no recorded session. May be called more than once, and nothing else is called
     * after it. The default does nothing.
     */
    default void close() {
    }
}
