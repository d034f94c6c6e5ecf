package io.zmtp.codec.mechanism;

import io.zmtp.codec.ZmtpMetadata;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The PLAIN mechanism (rfc 24): a client proves itself with a username and password, sent in clear text; messages
 * are not encrypted. Use it on trusted networks or inside a tunnel; CURVE is the mechanism for untrusted ones.
 *
 * <pre>{@code
 * ZmtpConfig client = ZmtpConfig.builder(ZmtpSocketType.DEALER)
 *         .mechanism(PlainMechanism.client("admin", "secret")).build();
 * ZmtpConfig server = ZmtpConfig.builder(ZmtpSocketType.ROUTER)
 *         .mechanism(PlainMechanism.server())
 *         .authenticator(DefaultZmtpAuthenticator.builder().plainUser("admin", "secret").build()).build();
 * }</pre>
 *
 * <p>A server checks credentials with its authenticator; with none it refuses every client, as libzmq does with no
 * ZAP handler. Both sides accept libzmq's malformed ERROR ({@code 5E "RROR"}), and send the correct form.
 *
 * @see <a href="https://rfc.zeromq.org/spec/24/">24/ZMTP-PLAIN</a>
 */
public final class PlainMechanism {
    public static final String NAME = "PLAIN";

    private PlainMechanism() {
    }

    /**
     * The client side, sending {@code username} and {@code password} (UTF-8, at most 255 bytes each).
     *
     * @throws IllegalArgumentException if either is longer
     */
    public static ZmtpMechanismFactory client(String username, String password) {
        byte[] user = checkLength(Objects.requireNonNull(username, "username").getBytes(StandardCharsets.UTF_8),
                "username");
        byte[] pass = checkLength(Objects.requireNonNull(password, "password").getBytes(StandardCharsets.UTF_8),
                "password");
        return new Factory("client " + username) {
            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                return new PlainClientMechanism(user, pass, localMetadata);
            }
        };
    }

    /** The server side: clients are checked by the configured authenticator. */
    public static ZmtpMechanismFactory server() {
        return SERVER;
    }

    private static final ZmtpMechanismFactory SERVER = new Factory("server") {
        @Override
        public ZmtpMechanism create(ZmtpMetadata localMetadata) {
            return new PlainServerMechanism(localMetadata);
        }
    };

    private static byte[] checkLength(byte[] value, String what) {
        if (value.length > 255) {
            throw new IllegalArgumentException("PLAIN " + what + " length: " + value.length + " bytes (expected: <= 255)");
        }
        return value;
    }

    private abstract static class Factory implements ZmtpMechanismFactory {
        private final String role;

        Factory(String role) {
            this.role = role;
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String toString() {
            // Never the password.
            return NAME + " " + role;
        }
    }
}
