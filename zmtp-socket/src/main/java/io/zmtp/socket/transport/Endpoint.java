package io.zmtp.socket.transport;

import java.util.Locale;
import java.util.Objects;

/**
 * A parsed ZeroMQ endpoint: {@code transport://address}. Only the split is done here; each {@link Transport}
 * interprets its own address (tcp: {@code host:port}, {@code *:port}, {@code host:*}; ipc: a path, {@code @name}
 * or {@code *}; later inproc: a name).
 */
public final class Endpoint {
    private final String scheme;
    private final String address;

    private Endpoint(String scheme, String address) {
        this.scheme = scheme;
        this.address = address;
    }

    /** Parses {@code scheme://address}; throws {@link IllegalArgumentException} if the shape is wrong. */
    public static Endpoint parse(String endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        int i = endpoint.indexOf("://");
        if (i <= 0 || i + 3 >= endpoint.length()) {
            throw new IllegalArgumentException("endpoint: " + endpoint + " (expected: transport://address)");
        }
        return new Endpoint(endpoint.substring(0, i).toLowerCase(Locale.ROOT), endpoint.substring(i + 3));
    }

    public String scheme() {
        return scheme;
    }

    public String address() {
        return address;
    }

    @Override
    public String toString() {
        return scheme + "://" + address;
    }
}
