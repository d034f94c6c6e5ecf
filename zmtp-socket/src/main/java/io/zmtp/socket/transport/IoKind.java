package io.zmtp.socket.transport;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.Locale;

/**
 * The kind of I/O a context's event loops run, and what goes with it: the loops' {@link IoHandlerFactory} and, for
 * each transport, the channel classes that can register with them (a channel of another kind can't).
 *
 * <p>epoll and io_uring are optional jars. Everything that names their classes sits in a holder of its own
 * ({@code EpollChannels}, {@code IoUringChannels}) that the JVM loads only when that kind is asked about, so a class
 * path without the jars never touches them, and a context on one kind never loads the other's classes (nor their
 * native libraries): start-up pays for the kind it uses only. {@link #isAvailable()} is the first question asked of
 * a kind, and the one that loads it.
 *
 * <p>io_uring in Netty 4.2 has every channel the transports need: tcp, Unix domain sockets (ipc://, abstract names
 * included) and datagrams (udp://, multicast included), so a context on io_uring runs every transport on it.
 */
public enum IoKind {
    /** Java NIO selectors: every OS. */
    NIO,
    /** Linux epoll, from {@code netty-transport-native-epoll}. */
    EPOLL,
    /** Linux io_uring (kernel 5.9 and up, as Netty 4.2.18 checks), from {@code netty-transport-native-io_uring}. */
    IO_URING;

    /** Whether this kind runs here: its jars are on the class path, its native library loads, the kernel allows it. */
    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /**
     * Why this kind does not run here (a missing jar, a library that won't load, a kernel that refuses); null if it
     * does.
     */
    public Throwable unavailabilityCause() {
        if (this == NIO) {
            return null;
        }
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            // Not even loaded elsewhere: both are Linux system calls.
            return new UnsupportedOperationException(this + " needs Linux (os.name: " + System.getProperty("os.name")
                    + ")");
        }
        try {
            return channels().unavailabilityCause();
        } catch (LinkageError e) {
            // The optional jar is absent.
            return e;
        }
    }

    /** Whether this is a native (JNI) transport rather than the JDK's NIO. */
    public boolean isNative() {
        return this != NIO;
    }

    /**
     * Whether this kind's ipc:// listeners delete their socket file as they close (Netty's epoll and NIO channels do;
     * io_uring's, in 4.2.18, leave it, so {@link IpcTransport} removes it).
     */
    boolean removesIpcSocketFileOnClose() {
        return this != IO_URING;
    }

    /** The factory of the event loops' I/O handlers. */
    public IoHandlerFactory newHandlerFactory() {
        return channels().newHandlerFactory();
    }

    /** tcp:// listeners. */
    public Class<? extends ServerChannel> tcpServerChannel() {
        return channels().tcpServerChannel();
    }

    /** tcp:// connections (ws:// and wss:// too). */
    public Class<? extends Channel> tcpChannel() {
        return channels().tcpChannel();
    }

    /** ipc:// listeners. */
    public Class<? extends ServerChannel> ipcServerChannel() {
        return channels().ipcServerChannel();
    }

    /** ipc:// connections. */
    public Class<? extends Channel> ipcChannel() {
        return channels().ipcChannel();
    }

    /**
     * A new udp:// channel, IPv4: not the dual-stack socket Netty makes by default, on which the interface option sets
     * IPV6_MULTICAST_IF, so that IPv4 multicast would leave by the default route whatever interface was named.
     */
    public DatagramChannel newIpv4DatagramChannel() {
        return channels().newIpv4DatagramChannel();
    }

    /** The name the tools and documents use: {@code nio}, {@code epoll}, {@code io_uring}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    private Channels channels() {
        switch (this) {
            case EPOLL:
                return EpollChannels.INSTANCE;
            case IO_URING:
                return IoUringChannels.INSTANCE;
            default:
                return NioChannels.INSTANCE;
        }
    }

    /** One kind's classes. Each implementation is a class of its own, loaded on first use only. */
    private interface Channels {
        Throwable unavailabilityCause();

        IoHandlerFactory newHandlerFactory();

        Class<? extends ServerChannel> tcpServerChannel();

        Class<? extends Channel> tcpChannel();

        Class<? extends ServerChannel> ipcServerChannel();

        Class<? extends Channel> ipcChannel();

        DatagramChannel newIpv4DatagramChannel();
    }

    private static final class NioChannels implements Channels {
        static final NioChannels INSTANCE = new NioChannels();

        @Override
        public Throwable unavailabilityCause() {
            return null;
        }

        @Override
        public IoHandlerFactory newHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> tcpServerChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> tcpChannel() {
            return NioSocketChannel.class;
        }

        /** Netty 4.2 on JDK 16+: {@code AF_UNIX} through the JDK, any OS that has it. */
        @Override
        public Class<? extends ServerChannel> ipcServerChannel() {
            return NioServerDomainSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> ipcChannel() {
            return NioDomainSocketChannel.class;
        }

        @Override
        public DatagramChannel newIpv4DatagramChannel() {
            return new NioDatagramChannel(SocketProtocolFamily.INET);
        }
    }

    private static final class EpollChannels implements Channels {
        static final EpollChannels INSTANCE = new EpollChannels();

        @Override
        public Throwable unavailabilityCause() {
            return Epoll.unavailabilityCause();
        }

        @Override
        public IoHandlerFactory newHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> tcpServerChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> tcpChannel() {
            return EpollSocketChannel.class;
        }

        @Override
        public Class<? extends ServerChannel> ipcServerChannel() {
            return EpollServerDomainSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> ipcChannel() {
            return EpollDomainSocketChannel.class;
        }

        @Override
        public DatagramChannel newIpv4DatagramChannel() {
            return new EpollDatagramChannel(SocketProtocolFamily.INET);
        }
    }

    private static final class IoUringChannels implements Channels {
        static final IoUringChannels INSTANCE = new IoUringChannels();

        @Override
        public Throwable unavailabilityCause() {
            return IoUring.unavailabilityCause();
        }

        @Override
        public IoHandlerFactory newHandlerFactory() {
            return IoUringIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> tcpServerChannel() {
            return IoUringServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> tcpChannel() {
            return IoUringSocketChannel.class;
        }

        @Override
        public Class<? extends ServerChannel> ipcServerChannel() {
            return IoUringServerDomainSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> ipcChannel() {
            return IoUringDomainSocketChannel.class;
        }

        @Override
        public DatagramChannel newIpv4DatagramChannel() {
            return new IoUringDatagramChannel(SocketProtocolFamily.INET);
        }
    }
}
