package io.zmtp.codec.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An authenticator for the usual policies, as CZMQ's {@code zauth} and JeroMQ's {@code ZAuth} offer them: peer
 * addresses allowed or denied, PLAIN users with their passwords, and CURVE client keys (or any key). Immutable and
 * thread-safe; share one among connections.
 *
 * <p>The rules, in order:
 * <ol>
 *   <li>Addresses (the peer's IP address as text, {@link ZmtpAuthRequest#address()}): if any address is
 *       {@linkplain Builder#allow allowed}, a peer from any other is refused; else a peer from a
 *       {@linkplain Builder#deny denied} address is refused.</li>
 *   <li>NULL: a peer that passed the address rules is allowed, with no user id.</li>
 *   <li>PLAIN: the username must be known and the password equal (compared in constant time); the user id is the
 *       username.</li>
 *   <li>CURVE: the client key must be one of the {@linkplain Builder#curveKey keys}, unless
 *       {@linkplain Builder#curveAnyKey any key} is allowed; the user id is the key in Z85.</li>
 * </ol>
 * A refusal is status 400 with a text saying which rule refused; the text is for the server's logs, the peer gets
 * only the code.
 */
public final class DefaultZmtpAuthenticator implements ZmtpAuthenticator {
    private final Set<String> allowed;
    private final Set<String> denied;
    private final Map<String, byte[]> passwords;
    private final Set<ByteBuffer> curveKeys;
    private final boolean curveAnyKey;

    private DefaultZmtpAuthenticator(Builder b) {
        this.allowed = Collections.unmodifiableSet(new LinkedHashSet<>(b.allowed));
        this.denied = Collections.unmodifiableSet(new LinkedHashSet<>(b.denied));
        this.passwords = Collections.unmodifiableMap(new HashMap<>(b.passwords));
        this.curveKeys = Collections.unmodifiableSet(new HashSet<>(b.curveKeys));
        this.curveAnyKey = b.curveAnyKey;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public CompletionStage<ZmtpAuthResult> authenticate(ZmtpAuthRequest request) {
        return CompletableFuture.completedFuture(decide(request));
    }

    /** The decision, synchronously. */
    public ZmtpAuthResult decide(ZmtpAuthRequest request) {
        String address = request.address();
        if (!allowed.isEmpty()) {
            if (!allowed.contains(address)) {
                return ZmtpAuthResult.deny("address " + address + " is not allowed");
            }
        } else if (denied.contains(address)) {
            return ZmtpAuthResult.deny("address " + address + " is denied");
        }
        switch (request.mechanism()) {
            case "NULL":
                return ZmtpAuthResult.allow();
            case "PLAIN":
                return plain(request);
            case "CURVE":
                return curve(request);
            default:
                return ZmtpAuthResult.deny("mechanism " + request.mechanism() + " is not supported");
        }
    }

    private ZmtpAuthResult plain(ZmtpAuthRequest request) {
        String user = request.username();
        byte[] expected = user == null ? null : passwords.get(user);
        // Compare even for an unknown user, so the time taken doesn't tell which users exist.
        byte[] given = request.password() == null ? new byte[0] : request.password();
        boolean match = MessageDigest.isEqual(expected == null ? new byte[given.length] : expected, given);
        if (expected == null || !match) {
            return ZmtpAuthResult.deny("PLAIN user " + user + ": unknown user or wrong password");
        }
        return ZmtpAuthResult.allow(user);
    }

    private ZmtpAuthResult curve(ZmtpAuthRequest request) {
        byte[] key = request.clientPublicKey();
        if (key == null) {
            return ZmtpAuthResult.deny("CURVE request without a client key");
        }
        String z85 = Z85.encode(key);
        if (curveAnyKey || curveKeys.contains(ByteBuffer.wrap(key))) {
            return ZmtpAuthResult.allow(z85);
        }
        return ZmtpAuthResult.deny("CURVE client key " + z85 + " is not allowed");
    }

    @Override
    public String toString() {
        return "DefaultZmtpAuthenticator{allowed=" + allowed + ", denied=" + denied + ", " + passwords.size()
                + " PLAIN users, " + (curveAnyKey ? "any CURVE key" : curveKeys.size() + " CURVE keys") + '}';
    }

    /** Builds a {@link DefaultZmtpAuthenticator}. */
    public static final class Builder {
        private final Set<String> allowed = new LinkedHashSet<>();
        private final Set<String> denied = new LinkedHashSet<>();
        private final Map<String, byte[]> passwords = new HashMap<>();
        private final Set<ByteBuffer> curveKeys = new HashSet<>();
        private boolean curveAnyKey;

        private Builder() {
        }

        /** Allows peers from these IP addresses (as text, "127.0.0.1", "::1") and from no other. */
        public Builder allow(String... addresses) {
            Collections.addAll(allowed, addresses);
            return this;
        }

        /** Refuses peers from these IP addresses; ignored once any address is {@linkplain #allow allowed}. */
        public Builder deny(String... addresses) {
            Collections.addAll(denied, addresses);
            return this;
        }

        /** A PLAIN user and its password (UTF-8). */
        public Builder plainUser(String username, String password) {
            passwords.put(username, password.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        /** A CURVE client public key (32 bytes) that is allowed. */
        public Builder curveKey(byte[] publicKey) {
            curveKeys.add(ByteBuffer.wrap(CurveKeyPair.checkKey(publicKey, "client public key").clone()));
            return this;
        }

        /** A CURVE client public key, in Z85 (40 characters), that is allowed. */
        public Builder curveKey(String publicKeyZ85) {
            return curveKey(CurveKeyPair.decodeKey(publicKeyZ85, "client public key"));
        }

        /** Allows any CURVE client key: the connection is encrypted, the client unauthenticated (CZMQ's CURVE_ALLOW_ANY). */
        public Builder curveAnyKey() {
            curveAnyKey = true;
            return this;
        }

        public DefaultZmtpAuthenticator build() {
            return new DefaultZmtpAuthenticator(this);
        }
    }
}
