package io.zmtp.tools.perf;

import java.net.InetSocketAddress;

/**
 * A ZeroMQ tcp endpoint as the perf tools take it: {@code tcp://host:port}, or {@code tcp://*:port} to bind on
 * every interface.
 */
public final class Endpoint {
    private final String text;
    private final String host;
    private final int port;

    private Endpoint(String text, String host, int port) {
        this.text = text;
        this.host = host;
        this.port = port;
    }

    /** Parses {@code tcp://host:port}; throws {@link IllegalArgumentException} naming what was expected. */
    public static Endpoint parse(String text) {
        String prefix = "tcp://";
        if (!text.startsWith(prefix)) {
            throw new IllegalArgumentException("endpoint: " + text + " (expected: tcp://host:port or tcp://*:port)");
        }
        String rest = text.substring(prefix.length());
        int colon = rest.lastIndexOf(':');
        if (colon <= 0 || colon == rest.length() - 1) {
            throw new IllegalArgumentException("endpoint: " + text + " (expected: tcp://host:port or tcp://*:port)");
        }
        String host = rest.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(rest.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("endpoint port: " + rest.substring(colon + 1) + " (expected: 0..65535)");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("endpoint port: " + port + " (expected: 0..65535)");
        }
        return new Endpoint(text, host, port);
    }

    /** The address to bind: {@code *} is the wildcard address. */
    public InetSocketAddress bindAddress() {
        return "*".equals(host) ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    /** The address to connect to; {@code *} means this machine, as libzmq allows for connect. */
    public InetSocketAddress connectAddress() {
        return new InetSocketAddress("*".equals(host) ? "127.0.0.1" : host, port);
    }

    @Override
    public String toString() {
        return text;
    }
}
