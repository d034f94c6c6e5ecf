package org.zeromq;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Discovery of peers on a local network by UDP beacons, as JeroMQ 0.6.0's {@code ZBeacon} (CZMQ's {@code zbeacon}):
 * the client side sends a beacon (a few bytes saying "here I am", usually with a port to connect to) to a broadcast
 * address every interval; the server side receives the beacons sent to its port and hands those that start with
 * the prefix to a {@link Listener}.
 *
 * <p>The address beacons go to is the host given to a constructor or {@link Builder#client(InetAddress)}: by default
 * {@value #DEFAULT_BROADCAST_HOST} (every host of the local network), or a subnet's broadcast address, or one host's
 * address (unicast, which is how the tests run it on 127.0.0.1). The server side receives on every interface, on the
 * port.
 *
 * <p><b>Threads.</b> Each side runs on a daemon thread of its own ("ZBeacon Client Thread", "ZBeacon Server
 * Thread", which runs the listener); what a side's thread throws (the client's socket that cannot be opened, an
 * exception from the listener) goes to that side's uncaught-exception handler, and ends the side. The setters may be
 * called from any thread. {@link #stop()} interrupts both threads, waits for them and closes their sockets; a
 * stopped beacon can be started again.
 *
 * <p><b>Differences from JeroMQ.</b> The server's socket is bound by {@link #startServer()}, not when the beacon
 * is constructed, and closed by {@link #stop()} (JeroMQ binds it in the constructor and never closes it when the
 * server was not started). The client sends without connecting its socket, so a host that has no server yet
 * does not end it with "port unreachable"; a failed send is logged and tried again at the next interval (JeroMQ's
 * client ends). Without a prefix every beacon is handed over (JeroMQ fails). With {@code ignoreLocalAddress},
 * beacons from any address of this machine's interfaces (read when the server starts) are ignored, not only from
 * the address the host name resolves to (JeroMQ resolves it again for every beacon). The {@code blocking} flag is
 * ignored, as in JeroMQ.
 */
public class ZBeacon {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZBeacon.class);

    /** The default interval between two beacons, in milliseconds. */
    public static final long DEFAULT_BROADCAST_INTERVAL = 1000L;
    /** The default address beacons go to: the limited broadcast address. */
    public static final String DEFAULT_BROADCAST_HOST = "255.255.255.255";

    private static final InetAddress DEFAULT_BROADCAST_HOST_ADDRESS = address(DEFAULT_BROADCAST_HOST);
    private static final InetAddress ANY_ADDRESS = address("0.0.0.0");

    private final InetSocketAddress target;
    private final InetAddress clientBindAddress;
    private final int port;
    private final boolean ignoreLocalAddress;
    private final AtomicReference<byte[]> beacon = new AtomicReference<>();
    private final AtomicReference<byte[]> prefix = new AtomicReference<>();
    private final AtomicLong broadcastInterval = new AtomicLong(DEFAULT_BROADCAST_INTERVAL);
    private final AtomicReference<Listener> listener = new AtomicReference<>();
    private final AtomicReference<Thread.UncaughtExceptionHandler> clientExHandler = new AtomicReference<>();
    private final AtomicReference<Thread.UncaughtExceptionHandler> serverExHandler = new AtomicReference<>();
    /** Datagrams the server has read and dealt with (handed over, filtered out or ignored); for tests. */
    final AtomicLong datagramsRead = new AtomicLong();

    // Guarded by this: the sides' threads, and what the server's thread runs (which holds its socket).
    private Thread clientThread;
    private Thread serverThread;
    private BeaconReceiver receiver;

    /**
     * A beacon sent to {@value #DEFAULT_BROADCAST_HOST} on {@code port}, ignoring beacons from this machine.
     *
     * @param port   the UDP port beacons are sent to and received on
     * @param beacon what to send (copied)
     */
    public ZBeacon(int port, byte[] beacon) {
        this(DEFAULT_BROADCAST_HOST, port, beacon);
    }

    /**
     * A beacon sent to {@code host} on {@code port}, ignoring beacons from this machine.
     *
     * @param host the broadcast address, or a host's address, beacons go to (a name is resolved)
     */
    public ZBeacon(String host, int port, byte[] beacon) {
        this(host, port, beacon, true);
    }

    /**
     * A beacon sent to {@code host} on {@code port}.
     *
     * @param ignoreLocalAddress whether the server ignores beacons sent from this machine
     */
    public ZBeacon(String host, int port, byte[] beacon, boolean ignoreLocalAddress) {
        this(host, port, beacon, ignoreLocalAddress, false);
    }

    /**
     * A beacon sent to {@code host} on {@code port}.
     *
     * @param blocking ignored, as in JeroMQ
     */
    public ZBeacon(String host, int port, byte[] beacon, boolean ignoreLocalAddress, boolean blocking) {
        this(host, ANY_ADDRESS.getAddress(), port, beacon, DEFAULT_BROADCAST_INTERVAL, ignoreLocalAddress, blocking);
    }

    /**
     * A beacon sent to {@code broadcastAddress} on {@code port}.
     *
     * @param broadcastAddress   where beacons go: a broadcast address or a host's address
     * @param serverAddress      the local address the client sends from (0.0.0.0: any)
     * @param port               the UDP port beacons are sent to and received on
     * @param beacon             what to send (copied)
     * @param broadcastInterval  milliseconds between two beacons
     * @param ignoreLocalAddress whether the server ignores beacons sent from this machine
     * @param blocking           ignored, as in JeroMQ
     */
    public ZBeacon(InetAddress broadcastAddress, InetAddress serverAddress, int port, byte[] beacon,
            long broadcastInterval, boolean ignoreLocalAddress, boolean blocking) {
        Objects.requireNonNull(broadcastAddress, "Host cannot be null");
        Objects.requireNonNull(serverAddress, "Server address cannot be null");
        Objects.requireNonNull(beacon, "Beacon cannot be null");
        this.target = new InetSocketAddress(broadcastAddress, port);
        this.clientBindAddress = serverAddress;
        this.port = port;
        this.ignoreLocalAddress = ignoreLocalAddress;
        this.beacon.set(beacon.clone());
        this.broadcastInterval.set(broadcastInterval);
    }

    /**
     * A beacon sent to {@code broadcastAddress} on {@code port}.
     *
     * @param broadcastAddress where beacons go (a name is resolved)
     * @param serverAddress    the local address the client sends from, 4 or 16 bytes
     * @deprecated as in JeroMQ: use the constructor with {@link InetAddress}es, or the {@link Builder}
     */
    @Deprecated
    public ZBeacon(String broadcastAddress, byte[] serverAddress, int port, byte[] beacon, long broadcastInterval,
            boolean ignoreLocalAddress, boolean blocking) {
        this(resolve(Objects.requireNonNull(broadcastAddress, "Host cannot be null")),
                byAddress(Objects.requireNonNull(serverAddress, "Server address cannot be null")), port, beacon,
                broadcastInterval, ignoreLocalAddress, blocking);
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // literals do not need a resolver
        }
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Invalid broadcast address: " + host, e);
        }
    }

    private static InetAddress byAddress(byte[] address) {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("Server address length: " + address.length + " (expected: 4 or 16)");
        }
        try {
            return InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("Invalid server address", e);
        }
    }

    /** Builds a {@link ZBeacon}; {@link #port} and {@link #beacon} are required. */
    public static class Builder {
        private InetAddress clientHost = DEFAULT_BROADCAST_HOST_ADDRESS;
        private InetAddress serverAddr = ANY_ADDRESS;
        private int port;
        private long broadcastInterval = DEFAULT_BROADCAST_INTERVAL;
        private byte[] beacon;
        private boolean ignoreLocalAddress = true;
        private boolean blocking;
        private Listener listener;
        private byte[] prefix;
        private Thread.UncaughtExceptionHandler clientExHandler;
        private Thread.UncaughtExceptionHandler serverExHandler;

        /** The UDP port beacons are sent to and received on. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** What to send. */
        public Builder beacon(byte[] beacon) {
            this.beacon = beacon;
            return this;
        }

        /**
         * Where beacons go, by name or literal.
         *
         * @deprecated as in JeroMQ: use {@link #client(InetAddress)}
         */
        @Deprecated
        public Builder client(String host) {
            this.clientHost = resolve(host);
            return this;
        }

        /** Where beacons go: a broadcast address or a host's address ({@value #DEFAULT_BROADCAST_HOST} by default). */
        public Builder client(InetAddress host) {
            this.clientHost = host;
            return this;
        }

        /**
         * The local address the client sends from, 4 or 16 bytes.
         *
         * @deprecated as in JeroMQ: use {@link #server(InetAddress)}
         */
        @Deprecated
        public Builder server(byte[] addr) {
            this.serverAddr = byAddress(addr);
            return this;
        }

        /** The local address the client sends from (0.0.0.0, any, by default). */
        public Builder server(InetAddress addr) {
            this.serverAddr = addr;
            return this;
        }

        /** Whether the server ignores beacons sent from this machine (true by default). */
        public Builder ignoreLocalAddress(boolean ignoreLocalAddress) {
            this.ignoreLocalAddress = ignoreLocalAddress;
            return this;
        }

        /**
         * Ignored.
         *
         * @deprecated ignored, as in JeroMQ
         */
        @Deprecated
        public Builder blocking(boolean blocking) {
            this.blocking = blocking;
            return this;
        }

        /** Milliseconds between two beacons (1000 by default). */
        public Builder broadcastInterval(long broadcastInterval) {
            this.broadcastInterval = broadcastInterval;
            return this;
        }

        /** What the server hands beacons to; without one the server does not start. */
        public Builder listener(Listener listener) {
            this.listener = listener;
            return this;
        }

        /** What a beacon must start with to be handed over (copied). */
        public Builder prefix(byte[] prefix) {
            this.prefix = prefix.clone();
            return this;
        }

        /** What the client's thread hands what it throws to. */
        public Builder setClientUncaughtExceptionHandlers(Thread.UncaughtExceptionHandler clientExHandler) {
            this.clientExHandler = clientExHandler;
            return this;
        }

        /** What the server's thread hands what it throws to (an exception from the listener, too). */
        public Builder setServerUncaughtExceptionHandlers(Thread.UncaughtExceptionHandler serverExHandler) {
            this.serverExHandler = serverExHandler;
            return this;
        }

        /**
         * The beacon, not started.
         *
         * @throws NullPointerException if no beacon was given
         */
        public ZBeacon build() {
            ZBeacon built = new ZBeacon(clientHost, serverAddr, port, beacon, broadcastInterval, ignoreLocalAddress,
                    blocking);
            built.listener.set(listener);
            if (prefix != null) {
                built.prefix.set(prefix);
            }
            built.clientExHandler.set(clientExHandler);
            built.serverExHandler.set(serverExHandler);
            return built;
        }
    }

    /**
     * Sets both sides' uncaught-exception handlers, for threads started afterwards.
     *
     * @deprecated as in JeroMQ: use the {@link Builder}
     */
    @Deprecated
    public void setUncaughtExceptionHandlers(Thread.UncaughtExceptionHandler clientExHandler,
            Thread.UncaughtExceptionHandler serverExHandler) {
        this.clientExHandler.set(clientExHandler);
        this.serverExHandler.set(serverExHandler);
    }

    /** Starts sending beacons, unless the client is already running. */
    public synchronized void startClient() {
        if (clientThread == null || !clientThread.isAlive()) {
            clientThread = newThread(this::runClient, "ZBeacon Client Thread", clientExHandler.get());
            clientThread.start();
        }
    }

    /**
     * Starts receiving beacons, unless the server is already running or there is no listener. The socket is bound
     * before this returns, so beacons sent afterwards are received.
     *
     * @throws IllegalStateException if the port cannot be bound (JeroMQ throws from the constructor)
     */
    public synchronized void startServer() {
        if (listener.get() != null && (serverThread == null || !serverThread.isAlive())) {
            receiver = BeaconReceiver.open(port, ignoreLocalAddress, prefix, listener, datagramsRead);
            serverThread = newThread(receiver, "ZBeacon Server Thread", serverExHandler.get());
            serverThread.start();
        }
    }

    private static Thread newThread(Runnable body, String name, Thread.UncaughtExceptionHandler handler) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        if (handler != null) {
            thread.setUncaughtExceptionHandler(handler);
        }
        return thread;
    }

    /** Starts the client, then the server. */
    public void start() {
        startClient();
        startServer();
    }

    /**
     * Stops both sides: interrupts their threads, closes the server's socket and waits for both threads to end.
     *
     * @throws InterruptedException if the calling thread is interrupted while waiting
     */
    public void stop() throws InterruptedException {
        Thread client;
        Thread server;
        synchronized (this) {
            client = clientThread;
            server = serverThread;
            if (client != null) {
                client.interrupt();
            }
            if (server != null) {
                server.interrupt();
                receiver.close();
            }
        }
        if (client != null) {
            client.join();
        }
        if (server != null) {
            server.join();
        }
    }

    /**
     * Replaces what is sent, from the next beacon on.
     *
     * @deprecated as in JeroMQ: use the {@link Builder}
     */
    @Deprecated
    public void setBeacon(byte[] beacon) {
        this.beacon.set(beacon.clone());
    }

    /** What is sent (a copy). */
    public byte[] getBeacon() {
        return beacon.get().clone();
    }

    /**
     * Replaces the prefix a beacon must start with to be handed over.
     *
     * @deprecated as in JeroMQ: use the {@link Builder}
     */
    @Deprecated
    public void setPrefix(byte[] prefix) {
        this.prefix.set(prefix.clone());
    }

    /** The prefix (a copy), or null if there is none (every beacon is handed over). */
    public byte[] getPrefix() {
        byte[] current = prefix.get();
        return current == null ? null : current.clone();
    }

    /**
     * Replaces the listener; a server started afterwards needs one.
     *
     * @deprecated as in JeroMQ: use the {@link Builder}
     */
    @Deprecated
    public void setListener(Listener listener) {
        this.listener.set(listener);
    }

    /** The listener, or null. */
    public Listener getListener() {
        return listener.get();
    }

    /** What the server hands the beacons that start with the prefix to, on its thread. */
    public interface Listener {
        /**
         * A beacon arrived.
         *
         * @param sender the address it came from
         * @param beacon the whole datagram, prefix included
         */
        void onBeacon(InetAddress sender, byte[] beacon);
    }

    /** Milliseconds between two beacons. */
    public long getBroadcastInterval() {
        return broadcastInterval.get();
    }

    /** Changes the milliseconds between two beacons, from the next wait on. */
    public void setBroadcastInterval(long broadcastInterval) {
        this.broadcastInterval.set(broadcastInterval);
    }

    private void runClient() {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_BROADCAST, true);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(clientBindAddress, 0));
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    channel.send(ByteBuffer.wrap(beacon.get()), target);
                } catch (ClosedChannelException e) {
                    return; // interrupted during the send: the channel closed itself
                } catch (IOException e) {
                    logger.warn("ZBeacon: sending a beacon to {} failed, trying again in {} ms: {}", target,
                            broadcastInterval.get(), e.toString());
                }
                Thread.sleep(Math.max(1, broadcastInterval.get()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException("ZBeacon: cannot open the client's socket on " + clientBindAddress, e);
        }
    }
}
