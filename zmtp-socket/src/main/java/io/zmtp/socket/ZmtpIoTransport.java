package io.zmtp.socket;

import io.zmtp.socket.transport.IoKind;

/**
 * The I/O a context's threads run on ({@link ZmtpContext.Builder#ioTransport}): every tcp://, ipc://, udp://, ws://
 * and wss:// connection of the context uses it; inproc:// uses none.
 *
 * <p>{@link #AUTO} (the default) picks the first of epoll, io_uring and NIO that is available. The others are asked
 * for by name, and {@link ZmtpContext.Builder#build()} fails if the one asked for is not available, saying why and
 * what it needs, rather than running on something else. {@link ZmtpContext#ioTransport()} tells which one a context
 * runs.
 *
 * <p>Only the transport that is used is loaded: a context on NIO never loads epoll's or io_uring's classes, a context
 * on epoll never loads io_uring's, and AUTO looks at io_uring only where epoll is not available. epoll ahead of
 * io_uring in AUTO is a measurement, not a preference: docs/performance-notes.md ("io_uring, round 4").
 */
public enum ZmtpIoTransport {
    /** epoll where available, else io_uring where available, else NIO. */
    AUTO(null, ""),
    /** The JDK's NIO selectors: every OS. */
    NIO(IoKind.NIO, ""),
    /** Linux epoll. */
    EPOLL(IoKind.EPOLL, "it needs Linux and io.netty:netty-transport-native-epoll (classifier linux-x86_64 or "
            + "linux-aarch_64) on the class path"),
    /** Linux io_uring: tcp, ipc (domain sockets) and udp all have io_uring channels in Netty 4.2. */
    IO_URING(IoKind.IO_URING, "it needs Linux 5.9 or later (Netty 4.2.18's check) with io_uring allowed (sysctl "
            + "kernel.io_uring_disabled=0; a container's seccomp profile may block it too) and "
            + "io.netty:netty-transport-native-io_uring (classifier linux-x86_64 or linux-aarch_64) on the class path");

    /** AUTO's order of preference, before NIO, which is always available. */
    private static final ZmtpIoTransport[] AUTO_ORDER = {EPOLL, IO_URING};

    private final IoKind kind;
    private final String requirement;

    ZmtpIoTransport(IoKind kind, String requirement) {
        this.kind = kind;
        this.requirement = requirement;
    }

    /** Whether this transport runs here (AUTO always does). Loads its classes if it is a native one. */
    public boolean isAvailable() {
        return kind == null || kind.isAvailable();
    }

    /**
     * Why this transport does not run here (a missing jar, a library that won't load, a kernel that refuses); null if
     * it does.
     */
    public Throwable unavailabilityCause() {
        return kind == null ? null : kind.unavailabilityCause();
    }

    /** The name the tools and documents use: {@code auto}, {@code nio}, {@code epoll}, {@code io_uring}. */
    @Override
    public String toString() {
        return kind == null ? "auto" : kind.toString();
    }

    /** {@code auto}, {@code nio}, {@code epoll} or {@code io_uring}, any case (also the constant names). */
    public static ZmtpIoTransport parse(String name) {
        for (ZmtpIoTransport t : values()) {
            if (t.toString().equalsIgnoreCase(name) || t.name().equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("I/O transport: " + name + " (expected: auto, nio, epoll or io_uring)");
    }

    /**
     * The kind of I/O a context asking for this transport runs on: for a plain Netty application (the codec
     * benchmarks) that should make the same choice as a context. Loads the native transports it looks at.
     *
     * @throws IllegalStateException if this one is named (not AUTO) and is not available here, saying why and what it
     *         needs
     */
    public IoKind resolve() {
        if (this == AUTO) {
            for (ZmtpIoTransport t : AUTO_ORDER) {
                if (t.kind.isAvailable()) {
                    return t.kind;
                }
            }
            return IoKind.NIO;
        }
        Throwable cause = kind.unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("I/O transport " + this + " was asked for but is not available here ("
                    + cause + "): " + requirement + "; ZmtpIoTransport.AUTO falls back to what is available", cause);
        }
        return kind;
    }

    static ZmtpIoTransport of(IoKind kind) {
        for (ZmtpIoTransport t : values()) {
            if (t.kind == kind) {
                return t;
            }
        }
        throw new IllegalArgumentException("I/O kind: " + kind);
    }
}
