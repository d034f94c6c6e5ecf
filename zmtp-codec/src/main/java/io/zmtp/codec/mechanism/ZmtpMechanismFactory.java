package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpMetadata;

/**
 * Creates a {@link ZmtpMechanism} for each connection.
 */
public interface ZmtpMechanismFactory {

    /** The mechanism name, as in the greeting. */
    String name();

    /**
     * A mechanism for a new connection.
     *
     * @param localMetadata the properties this side announces (Socket-Type, Identity, user properties)
     */
    ZmtpMechanism create(ZmtpMetadata localMetadata);
}
