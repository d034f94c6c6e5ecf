package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpMetadata;

import java.util.Collections;
import java.util.List;

/**
 * The NULL mechanism (rfc 23): no security; each side sends READY with its metadata. Like libzmq, both sides send
 * READY as soon as the greetings are exchanged rather than the server waiting for the client's.
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
        return Collections.singletonList(ZmtpCommand.ready(localMetadata));
    }

    @Override
    public List<ZmtpCommand> handle(ZmtpCommand command) {
        if (command.is(ZmtpCommand.ERROR)) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PEER_ERROR,
                    "peer sent ERROR: " + command.errorReason());
        }
        if (!command.is(ZmtpCommand.READY) || peerMetadata != null) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "unexpected " + command.name() + " command in NULL handshake");
        }
        try {
            peerMetadata = ZmtpMetadata.decode(command.content().duplicate());
        } catch (ZmtpCodecException e) {
            throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "malformed READY: " + e.getMessage());
        }
        return Collections.emptyList();
    }

    @Override
    public boolean isComplete() {
        return peerMetadata != null;
    }

    @Override
    public ZmtpMetadata peerMetadata() {
        return peerMetadata;
    }
}
