package io.zmtp.codec;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * The ZMTP 3.x greeting after the signature and major version (which {@link GreetingExchange} stages as libzmq
 * does): our minor version, mechanism and as-server bit, and the check of the peer's. The 1.0 and 2.0 greetings are
 * {@link LegacyGreeting}'s.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Greeting"</a>
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1)</a>
 */
final class Zmtp3Greeting {
    private final ZmtpConfig config;
    private final byte[] mechanismField = new byte[ZmtpConstants.MECHANISM_LENGTH];
    private final String mechanism;
    private final boolean asServer;

    Zmtp3Greeting(ZmtpConfig config, String mechanism, boolean asServer) {
        this.config = config;
        this.mechanism = mechanism;
        this.asServer = asServer;
        byte[] name = mechanism.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, mechanismField, 0, name.length);
    }

    /** We announce 3.1 unless configured to speak only 3.0. */
    int ownMinorVersion() {
        return config.acceptedVersions().contains(ZmtpVersion.ZMTP_31) ? 1 : 0;
    }

    /** The greeting's last 53 bytes: minor version, mechanism, as-server, filler. */
    void writeRest(ByteBuf out) {
        out.writeByte(ownMinorVersion());
        out.writeBytes(mechanismField);
        out.writeByte(asServer ? 1 : 0);
        out.writeZero(31);
    }

    /**
     * Checks the peer's whole greeting (64 readable bytes, not consumed) and returns the version to talk. The
     * mechanism must match ours byte for byte, as libzmq compares it; as-server is not read (libzmq always sends 0).
     *
     * @throws ZmtpHandshakeException if the version is not accepted or the mechanism differs
     */
    ZmtpVersion check(ByteBuf in) {
        int r = in.readerIndex();
        int major = in.getUnsignedByte(r + 10);
        int minor = in.getUnsignedByte(r + 11);
        // A 3.1 peer must accept later versions and talk 3.1 to them; a 3.0 peer gets 3.0.
        ZmtpVersion version = (major == 3 && minor == 0) || ownMinorVersion() == 0
                ? ZmtpVersion.ZMTP_30 : ZmtpVersion.ZMTP_31;
        if (!config.acceptedVersions().contains(version)) {
            throw ZmtpHandshakeException.versionRefused(config, version);
        }
        for (int i = 0; i < ZmtpConstants.MECHANISM_LENGTH; i++) {
            if (in.getByte(r + 12 + i) != mechanismField[i]) {
                String peer = in.toString(r + 12, ZmtpConstants.MECHANISM_LENGTH, StandardCharsets.US_ASCII)
                        .replace("\0", "");
                // A peer offering NULL to a PLAIN or CURVE side is a downgrade attempt: refused here, before any
                // command of it is read.
                throw new ZmtpHandshakeException(ZmtpHandshakeFailureReason.MECHANISM_MISMATCH,
                        "peer mechanism " + ZmtpPrintable.of(peer.getBytes(StandardCharsets.US_ASCII))
                                + " (expected: " + mechanism + ")");
            }
        }
        return version;
    }
}
