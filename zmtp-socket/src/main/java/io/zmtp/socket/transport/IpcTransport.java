package io.zmtp.socket.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.unix.DomainSocketAddress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * {@code ipc://path}: a Unix domain stream socket, as libzmq's ipc transport, so either side can be libzmq.
 *
 * <ul>
 *   <li>{@code ipc:///tmp/x.sock} is a file path; a relative one ({@code ipc://x.sock}) is relative to the process's
 *       working directory, as in libzmq.</li>
 *   <li>{@code ipc://@name} is a name in Linux's abstract namespace (no file; gone when the listener closes). It needs
 *       a native transport (epoll or io_uring): the JDK's {@code UnixDomainSocketAddress} can't express it.</li>
 *   <li>{@code ipc://*} binds a generated path, {@code socket} in a new directory under {@code java.io.tmpdir}
 *       (libzmq makes the same shape under {@code $TMPDIR}); bind returns it, and the directory goes with the
 *       listener.</li>
 * </ul>
 *
 * <p>The file: a stale socket file (left by a process that died without closing) is removed before binding, as
 * libzmq does, and the listener removes its file when it closes (Netty's domain socket server channels delete it in
 * {@code doClose}; libzmq 4.3 leaves a named path's file behind and only removes {@code ipc://*} ones). One deliberate
 * difference: libzmq unlinks whatever is at the path, the file of a <em>live</em> listener too, silently orphaning
 * the other process; here a path someone is listening on fails with "address in use", and a path that is not a
 * socket at all (a regular file, a directory) is never deleted.
 *
 * <p>Paths are limited to what {@code sun_path} holds with its terminating NUL (107 bytes on Linux, 103 elsewhere),
 * the limit libzmq applies; on NIO one byte less, as the JDK allows ({@link #maxPathBytes}).
 *
 * <p>Channels: the context's {@link IoKind}'s domain socket channels: epoll's or io_uring's, with Netty's
 * {@link DomainSocketAddress}, or NIO's (Netty 4.2 on JDK 16+, any OS with {@code AF_UNIX}), with the JDK's
 * {@link UnixDomainSocketAddress}. The native classes are only touched on the native paths, so the optional jars may
 * be absent.
 */
public final class IpcTransport implements Transport {
    /** {@code sizeof(sockaddr_un.sun_path)}: 108 on Linux, 104 on macOS and the BSDs. */
    private static final int SUN_PATH_SIZE =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux") ? 108 : 104;
    private static final String WILDCARD = "*";
    private static final String ABSTRACT_PREFIX = "@";
    /** The mode bits of a socket file ({@code S_IFSOCK}), and the mask of the file type ({@code S_IFMT}). */
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFMT = 0170000;

    private final EventLoopGroup group;
    private final IoKind io;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> channelClass;

    /** @param io the kind of I/O {@code group}'s loops run: the channel classes must match it. */
    public IpcTransport(EventLoopGroup group, IoKind io) {
        this.group = group;
        this.io = io;
        this.serverChannelClass = io.ipcServerChannel();
        this.channelClass = io.ipcChannel();
    }

    @Override
    public String scheme() {
        return "ipc";
    }

    /**
     * The longest path (in bytes, UTF-8) an ipc address may have: what this OS's {@code sun_path} holds with its NUL
     * on epoll and io_uring (107 on Linux, libzmq's limit too), one byte less on NIO, whose JDK checks
     * {@code sun_path} that way (a 107-byte path fails there with "Unix domain path too long").
     */
    public static int maxPathBytes(IoKind io) {
        return io.isNative() ? SUN_PATH_SIZE - 1 : SUN_PATH_SIZE - 2;
    }

    /**
     * Checks the shape of an ipc address (not the file system); {@code forBind} allows the wildcard. An abstract
     * name counts its {@code @} as the NUL it becomes, so the limit is the same.
     */
    private void check(String address, boolean forBind) {
        if (WILDCARD.equals(address)) {
            if (!forBind) {
                throw new IllegalArgumentException("ipc address to connect to: * (a generated path can't be "
                        + "connected to; connect to the endpoint bind returned)");
            }
            return;
        }
        if (address.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("ipc path: contains a NUL character");
        }
        if (address.startsWith(ABSTRACT_PREFIX)) {
            if (address.length() == 1) {
                throw new IllegalArgumentException("ipc address: @ (an abstract name needs at least one character)");
            }
            if (!io.isNative()) {
                throw new IllegalArgumentException("ipc address: " + address + " (abstract names, ipc://@name, "
                        + "need the epoll or io_uring transport on Linux; this context runs NIO, whose "
                        + "UnixDomainSocketAddress can't express them)");
            }
        }
        int bytes = address.getBytes(StandardCharsets.UTF_8).length;
        int max = maxPathBytes(io);
        if (bytes > max) {
            throw new IllegalArgumentException("ipc path: " + address + " is " + bytes + " bytes (the longest "
                    + (io.isNative() ? "" : "NIO on ") + "this OS allows is " + max + ": sun_path holds " + SUN_PATH_SIZE
                    + " with the NUL)");
        }
        if (!address.startsWith(ABSTRACT_PREFIX)) {
            try {
                Path.of(address);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("ipc path: " + address + " (" + e.getReason() + ")", e);
            }
        }
    }

    @Override
    public ChannelFuture bind(Endpoint endpoint, ChannelInitializer<Channel> childInitializer) {
        String address = endpoint.address();
        check(address, true);
        Path tempDir = null;
        if (WILDCARD.equals(address)) {
            tempDir = createTempDir();
            address = tempDir.resolve("socket").toString();
            check(address, true);
        } else if (!address.startsWith(ABSTRACT_PREFIX)) {
            prepareSocketFile(Path.of(address));
        }
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(serverChannelClass)
                .childHandler(childInitializer);
        if (tempDir == null && !address.startsWith(ABSTRACT_PREFIX) && !io.removesIpcSocketFileOnClose()) {
            b.handler(new SocketFileRemover(Path.of(address)));
        }
        ChannelFuture f = b.bind(toSocketAddress(address));
        if (tempDir != null) {
            // The directory is ours, and so is the file in it where the channel doesn't delete it as it closes.
            Path dir = tempDir;
            f.channel().closeFuture().addListener(x -> deleteQuietly(dir));
        }
        return f;
    }

    /**
     * Makes way for a listener at {@code path}: the directory must exist; a socket file nobody listens on is
     * removed (libzmq unlinks before binding, so a crashed process's file doesn't block the path); a live listener
     * or a file that isn't a socket is left alone and the bind fails.
     */
    private static void prepareSocketFile(Path path) {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("ipc path: " + path + " (directory " + parent + " does not exist)");
        }
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException("ipc path: " + path + " (can't read its attributes: " + e + ")", e);
        }
        if (!isSocket(path, attrs)) {
            throw new IllegalArgumentException("ipc path: " + path + " exists and is not a socket (not deleting "
                    + "it; libzmq would)");
        }
        if (hasListener(path)) {
            throw new UncheckedIOException(new IOException("ipc path: " + path + ": address in use (a live "
                    + "listener accepts connections there; unlike libzmq, its file is not taken over)"));
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("ipc path: " + path + " (can't remove the stale socket file: " + e + ")",
                    e);
        }
    }

    private static boolean isSocket(Path path, BasicFileAttributes attrs) {
        try {
            Object mode = Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return ((Integer) mode & S_IFMT) == S_IFSOCK;
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            // No unix attribute view (Windows): a socket is neither file, directory nor link there either.
            return attrs.isOther();
        }
    }

    /**
     * Whether a process accepts connections at {@code path}: a non-blocking connect that doesn't fail at once (it
     * connects, or waits in a full backlog) means someone is there; ECONNREFUSED means the file is stale.
     */
    private static boolean hasListener(Path path) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.configureBlocking(false);
            probe.connect(UnixDomainSocketAddress.of(path));
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("ipc path: " + path + " (can't tell whether a listener is there: " + e
                    + ")", e);
        }
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("zmq-ipc-");
        } catch (IOException e) {
            throw new UncheckedIOException("ipc://*: can't create a directory in java.io.tmpdir: " + e, e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            Files.deleteIfExists(dir.resolve("socket"));
            Files.deleteIfExists(dir);
        } catch (DirectoryNotEmptyException e) {
            // Someone put something else there: theirs to clean up.
        } catch (IOException e) {
            // Best effort, as libzmq's rmdir: a leftover empty directory under tmp harms nobody.
        }
    }

    private SocketAddress toSocketAddress(String address) {
        if (io.isNative()) {
            return NativeAddresses.of(address);
        }
        return UnixDomainSocketAddress.of(address);
    }

    @Override
    public void checkConnectAddress(Endpoint endpoint) {
        check(endpoint.address(), false);
    }

    @Override
    public ChannelFuture connect(Endpoint endpoint, EventLoop loop, ChannelInitializer<Channel> initializer) {
        String address = endpoint.address();
        check(address, false);
        return new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .handler(initializer)
                .connect(toSocketAddress(address));
    }

    @Override
    public String boundEndpoint(Endpoint requested, Channel serverChannel) {
        // As given (a relative path stays relative, as libzmq reports it), except the wildcard, which becomes the
        // path made for it.
        if (WILDCARD.equals(requested.address())) {
            return "ipc://" + listenerPath(serverChannel);
        }
        return "ipc://" + requested.address();
    }

    /**
     * The same file, however written ({@code ipc://x.sock} and {@code ipc:///cwd/./x.sock}), or the same abstract
     * name. {@code ipc://*} names no one listener.
     */
    @Override
    public boolean namesListener(Endpoint endpoint, Channel serverChannel) {
        String a = endpoint.address();
        String bound = listenerPath(serverChannel);
        if (WILDCARD.equals(a) || bound == null) {
            return false;
        }
        if (a.startsWith(ABSTRACT_PREFIX) || bound.startsWith(ABSTRACT_PREFIX)) {
            return a.equals(bound);
        }
        try {
            return Path.of(a).toAbsolutePath().normalize().equals(Path.of(bound).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** The listener's path as bound, an abstract name as {@code @name}; null if the channel has no address. */
    private String listenerPath(Channel serverChannel) {
        SocketAddress local = serverChannel.localAddress();
        if (local instanceof UnixDomainSocketAddress) {
            return ((UnixDomainSocketAddress) local).getPath().toString();
        }
        return io.isNative() && local != null ? NativeAddresses.path(local) : null;
    }

    /**
     * Removes a listener's socket file where its channel doesn't as it closes (io_uring's, in Netty 4.2.18; epoll's and
     * NIO's do, in {@code doClose}). It unlinks the file <em>before</em> the close goes on (a listening socket may lose
     * its name at any time, unix(7)), so that whoever waits for the close, unbind or the socket's close, finds the
     * file gone, as on the other transports; a listener on the close future would race them. A close that doesn't
     * pass through the pipeline (the event loop shutting down) is caught by the close future.
     */
    private static final class SocketFileRemover extends ChannelOutboundHandlerAdapter {
        private final Path path;

        SocketFileRemover(Path path) {
            this.path = path;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.channel().closeFuture().addListener(f -> remove());
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
            remove();
            super.close(ctx, promise);
        }

        private void remove() {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // Best effort, as Netty's own doClose: a stale file is removed by the next bind anyway.
            }
        }
    }

    /**
     * Everything that names {@link DomainSocketAddress}, apart, so that the class (in the optional
     * netty-transport-native-unix-common jar, which epoll's and io_uring's jars bring) is only loaded on their paths.
     */
    private static final class NativeAddresses {
        private NativeAddresses() {
        }

        /** Netty (like the kernel) takes an abstract name as a path that starts with NUL. */
        static SocketAddress of(String address) {
            if (address.startsWith(ABSTRACT_PREFIX)) {
                return new DomainSocketAddress("\0" + address.substring(1));
            }
            return new DomainSocketAddress(address);
        }

        static String path(SocketAddress address) {
            if (!(address instanceof DomainSocketAddress)) {
                return null;
            }
            String p = ((DomainSocketAddress) address).path();
            return p.startsWith("\0") ? ABSTRACT_PREFIX + p.substring(1) : p;
        }
    }
}
