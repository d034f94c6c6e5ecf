package io.zmtp.codec.security;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A request to authenticate one connecting peer: the fields of a ZAP request (rfc 27) as a
 * {@link ZmtpAuthenticator} receives them. The domain is this side's ZAP domain ({@code ZmtpConfig.Builder.zapDomain},
 * ZMQ_ZAP_DOMAIN); the identity is, as libzmq sends it, this side's own routing id, not the peer's.
 *
 * @see <a href="https://rfc.zeromq.org/spec/27/">27/ZAP, "Request"</a>
 */
public final class ZmtpAuthRequest {
    private final String domain;
    private final SocketAddress remoteAddress;
    private final byte[] identity;
    private final ZmtpCredentials credentials;

    /**
     * @param domain        the ZAP domain ("" if none)
     * @param remoteAddress the peer's address (may be null for transports without one)
     * @param identity      this side's routing id
     * @param credentials   what the peer presented
     */
    public ZmtpAuthRequest(String domain, SocketAddress remoteAddress, byte[] identity, ZmtpCredentials credentials) {
        this.domain = Objects.requireNonNull(domain, "domain");
        this.remoteAddress = remoteAddress;
        this.identity = identity.clone();
        this.credentials = Objects.requireNonNull(credentials, "credentials");
    }

    public String domain() {
        return domain;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** The peer's address as a ZAP request carries it: the IP address as text, as libzmq sends it; else "". */
    public String address() {
        if (remoteAddress instanceof InetSocketAddress) {
            InetSocketAddress inet = (InetSocketAddress) remoteAddress;
            return inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
        }
        return "";
    }

    /** This side's routing id (libzmq's ZAP "identity" frame). */
    public byte[] identity() {
        return identity.clone();
    }

    /** "NULL", "PLAIN" or "CURVE". */
    public String mechanism() {
        return credentials.mechanism();
    }

    public ZmtpCredentials credentials() {
        return credentials;
    }

    /** PLAIN: the username as UTF-8 text; {@code null} for other mechanisms. */
    public String username() {
        return isPlain() ? new String(credentials.frame(0), StandardCharsets.UTF_8) : null;
    }

    /** PLAIN: the password bytes; {@code null} for other mechanisms. */
    public byte[] password() {
        return isPlain() ? credentials.frame(1) : null;
    }

    /** CURVE: the client's permanent public key (32 bytes); {@code null} for other mechanisms. */
    public byte[] clientPublicKey() {
        return "CURVE".equals(mechanism()) && credentials.size() == 1 ? credentials.frame(0) : null;
    }

    private boolean isPlain() {
        return "PLAIN".equals(mechanism()) && credentials.size() == 2;
    }

    @Override
    public String toString() {
        return "ZmtpAuthRequest{domain=" + domain + ", address=" + address() + ", " + credentials + '}';
    }
}
