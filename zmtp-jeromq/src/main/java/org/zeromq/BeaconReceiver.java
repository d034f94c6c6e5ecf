package org.zeromq;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The server side of a {@link ZBeacon}, one per start: {@link #open} binds a UDP socket on the port (every
 * interface) on the caller's thread, so that beacons sent once it returns are queued; {@link #run()} reads datagrams
 * and hands those that pass the filters to the listener, on the server's thread.
 *
 * <p><b>Threads.</b> {@link #close()} comes from {@link ZBeacon#stop()} on another thread than {@link #run()}'s;
 * closing the socket ends a {@code receive} in progress.
 */
final class BeaconReceiver implements Runnable {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(BeaconReceiver.class);
    /** The largest UDP payload; a datagram is never larger. */
    private static final int MAX_DATAGRAM = 65535;

    private final int port;
    private final boolean ignoreLocalAddress;
    private final AtomicReference<byte[]> prefix;
    private final AtomicReference<ZBeacon.Listener> listener;
    private final AtomicLong datagramsRead;
    private final DatagramChannel channel;

    private BeaconReceiver(DatagramChannel channel, int port, boolean ignoreLocalAddress,
            AtomicReference<byte[]> prefix, AtomicReference<ZBeacon.Listener> listener, AtomicLong datagramsRead) {
        this.channel = channel;
        this.port = port;
        this.ignoreLocalAddress = ignoreLocalAddress;
        this.prefix = prefix;
        this.listener = listener;
        this.datagramsRead = datagramsRead;
    }

    /**
     * Binds the server's socket on {@code port}, with SO_REUSEADDR as JeroMQ's.
     *
     * @throws IllegalStateException if it cannot be bound
     */
    static BeaconReceiver open(int port, boolean ignoreLocalAddress, AtomicReference<byte[]> prefix,
            AtomicReference<ZBeacon.Listener> listener, AtomicLong datagramsRead) {
        DatagramChannel channel = null;
        try {
            channel = DatagramChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(port));
            return new BeaconReceiver(channel, port, ignoreLocalAddress, prefix, listener, datagramsRead);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new IllegalStateException("ZBeacon: cannot receive on port " + port, e);
        }
    }

    @Override
    public void run() {
        Set<InetAddress> local = ignoreLocalAddress ? localAddresses() : Collections.emptySet();
        ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
        try {
            while (!Thread.currentThread().isInterrupted()) {
                buffer.clear();
                InetAddress from = ((InetSocketAddress) channel.receive(buffer)).getAddress();
                buffer.flip();
                if (!(ignoreLocalAddress && isLocal(from, local))) {
                    deliver(from, buffer);
                }
                datagramsRead.incrementAndGet();
            }
        } catch (ClosedChannelException e) {
            // close(), or an interrupt during receive
        } catch (IOException e) {
            throw new IllegalStateException("ZBeacon: receiving on port " + port + " failed", e);
        } finally {
            close();
        }
    }

    /** Closes the socket, which ends {@link #run()}. */
    void close() {
        closeQuietly(channel);
    }

    private static void closeQuietly(DatagramChannel socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                logger.debug("ZBeacon: closing the server socket failed", e);
            }
        }
    }

    private void deliver(InetAddress from, ByteBuffer datagram) {
        byte[] required = prefix.get();
        if (required != null) {
            if (datagram.remaining() < required.length) {
                return;
            }
            for (int i = 0; i < required.length; i++) {
                if (datagram.get(i) != required[i]) {
                    return;
                }
            }
        }
        ZBeacon.Listener current = listener.get();
        if (current != null) {
            byte[] content = new byte[datagram.remaining()];
            datagram.get(content);
            current.onBeacon(from, content);
        }
    }

    private static boolean isLocal(InetAddress address, Set<InetAddress> local) {
        return address.isLoopbackAddress() || address.isAnyLocalAddress() || local.contains(address);
    }

    /** The addresses of this machine's interfaces; empty if they cannot be listed. */
    private static Set<InetAddress> localAddresses() {
        Set<InetAddress> addresses = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                addresses.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException e) {
            logger.warn("ZBeacon: cannot list this machine's addresses; only loopback beacons are ignored", e);
        }
        return addresses;
    }
}
