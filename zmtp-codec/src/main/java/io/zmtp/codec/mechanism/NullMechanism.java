package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;

import java.util.Collections;
import java.util.List;

/**
 * The NULL mechanism (rfc 23): no security; each side sends READY with its metadata. Like libzmq, both sides send
 * READY as soon as the greetings are exchanged rather than the server waiting for the client's. A side with an
 * authenticator asks it first (by the peer's address: NULL has no credentials) and sends READY once allowed, as libzmq
 * asks its ZAP handler when a ZAP domain is set.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "The NULL Security Mechanism"</a>
 */
public final class NullMechanism implements ZmtpMechanism {
    public static final String NAME = "NULL";

    private static final ZmtpMechanismFactory FACTORY = new ZmtpMechanismFactory() {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public ZmtpMechanism create(ZmtpMetadata localMetadata) {
            return new NullMechanism(localMetadata);
        }

        @Override
        public String toString() {
            return NAME;
        }
    };

    private final ZmtpMetadata localMetadata;
    private ZmtpMetadata peerMetadata;
    private boolean authenticating;
    private boolean readySent;

    public NullMechanism(ZmtpMetadata localMetadata) {
        this.localMetadata = localMetadata;
    }

    /** The factory to configure a connection with the NULL mechanism. */
    public static ZmtpMechanismFactory factory() {
        return FACTORY;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean isServer() {
        return false;
    }

    @Override
    public List<ZmtpCommand> start() {
        authenticating = true;
        return Collections.emptyList();
    }

    @Override
    public ZmtpCredentials pendingCredentials() {
        return authenticating ? ZmtpCredentials.none(NAME) : null;
    }

    @Override
    public List<ZmtpCommand> authenticated(ZmtpAuthResult result) {
        authenticating = false;
        MechanismSupport.checkAllowed(NAME, result);
        readySent = true;
        return Collections.singletonList(ZmtpCommand.ready(localMetadata));
    }

    @Override
    public List<ZmtpCommand> handle(ZmtpCommand command) {
        if (command.is(ZmtpCommand.ERROR)) {
            throw MechanismSupport.peerError(NAME, command);
        }
        if (!command.is(ZmtpCommand.READY) || peerMetadata != null) {
            throw MechanismSupport.unexpected(NAME, command, "READY");
        }
        peerMetadata = MechanismSupport.metadata(command.content(), "READY");
        return Collections.emptyList();
    }

    @Override
    public boolean isComplete() {
        return readySent && peerMetadata != null;
    }

    @Override
    public ZmtpMetadata peerMetadata() {
        return peerMetadata;
    }
}
