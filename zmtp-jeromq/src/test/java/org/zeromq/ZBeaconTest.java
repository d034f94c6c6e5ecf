package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ZBeacon on loopback only: beacons go to 127.0.0.1 (unicast, which the API allows in place of a broadcast
 * address), never to a broadcast address of the machine's networks. Waits are for an event that must come, with a
 * generous bound; nothing asserts on elapsed time.
 */
class ZBeaconTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final long PATIENCE_SECONDS = TestTimeouts.scaledSeconds(30);

    private final List<ZBeacon> beacons = new ArrayList<>();
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final BlockingQueue<InetAddress> senders = new LinkedBlockingQueue<>();

    @AfterEach
    void stopBeacons() throws InterruptedException {
        for (ZBeacon beacon : beacons) {
            beacon.stop();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A UDP port nobody holds now (the tests' beacons set SO_REUSEADDR, so a race only risks a shared port). */
    private static int freePort() throws IOException {
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.bind(new InetSocketAddress(LOOPBACK, 0));
            return ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
    }

    private ZBeacon.Builder loopback(int port, String beacon) {
        return new ZBeacon.Builder().port(port).beacon(bytes(beacon)).client(LOOPBACK).server(LOOPBACK)
                .ignoreLocalAddress(false).broadcastInterval(20)
                .listener((sender, data) -> {
                    senders.add(sender);
                    received.add(new String(data, StandardCharsets.US_ASCII));
                });
    }

    private ZBeacon started(ZBeacon beacon) {
        beacons.add(beacon);
        beacon.start();
        return beacon;
    }

    private String next() throws InterruptedException {
        String beacon = received.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        assertThat(beacon).as("a beacon within %d s", PATIENCE_SECONDS).isNotNull();
        return beacon;
    }

    /** Sends one datagram from an unbeaconed socket and waits until the server has dealt with it. */
    private static void sendAndAwait(ZBeacon server, int port, String datagram) throws Exception {
        long before = server.datagramsRead.get();
        try (DatagramChannel raw = DatagramChannel.open()) {
            raw.send(ByteBuffer.wrap(bytes(datagram)), new InetSocketAddress(LOOPBACK, port));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
        while (server.datagramsRead.get() == before) {
            assertThat(System.nanoTime()).as("the server reads the datagram").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void shouldReceiveItsOwnBeaconsRepeatedlyWithTheSender() throws Exception {
        int port = freePort();
        ZBeacon beacon = started(loopback(port, "svc:5555").prefix(bytes("svc:")).build());
        assertThat(next()).isEqualTo("svc:5555");
        assertThat(next()).isEqualTo("svc:5555");
        assertThat(senders.take()).isEqualTo(LOOPBACK);
        assertThat(beacon.getBeacon()).isEqualTo(bytes("svc:5555"));
        assertThat(beacon.getPrefix()).isEqualTo(bytes("svc:"));
    }

    @Test
    void shouldHandOverOnlyBeaconsThatStartWithThePrefix() throws Exception {
        int port = freePort();
        ZBeacon server = loopback(port, "unused").prefix(bytes("ZRE")).build();
        beacons.add(server);
        server.startServer(); // no client: only the datagrams below arrive
        sendAndAwait(server, port, "ZR");
        sendAndAwait(server, port, "XREabc");
        sendAndAwait(server, port, "ZRE\u0001peer");
        assertThat(received).containsExactly("ZRE\u0001peer");
    }

    @Test
    void shouldHandOverEveryBeaconWithoutAPrefix() throws Exception {
        int port = freePort();
        ZBeacon server = loopback(port, "unused").build();
        beacons.add(server);
        server.startServer();
        sendAndAwait(server, port, "anything");
        sendAndAwait(server, port, "");
        assertThat(received).containsExactly("anything", "");
        assertThat(server.getPrefix()).isNull();
    }

    @Test
    void shouldIgnoreBeaconsFromThisMachineWhenAsked() throws Exception {
        int port = freePort();
        ZBeacon server = loopback(port, "unused").ignoreLocalAddress(true).build();
        beacons.add(server);
        server.startServer();
        sendAndAwait(server, port, "from loopback");
        assertThat(received).isEmpty();
    }

    @Test
    void shouldSendTheNewBeaconAfterSetBeacon() throws Exception {
        int port = freePort();
        @SuppressWarnings("deprecation")
        ZBeacon beacon = started(loopback(port, "old").build());
        assertThat(next()).isEqualTo("old");
        beacon.setBeacon(bytes("new"));
        String seen;
        do {
            seen = next();
        } while (seen.equals("old"));
        assertThat(seen).isEqualTo("new");
    }

    @Test
    void shouldReleaseTheServersPortOnStopAndStartAgain() throws Exception {
        int port = freePort();
        ZBeacon beacon = started(loopback(port, "again").build());
        assertThat(next()).isEqualTo("again");
        beacon.stop();
        // A socket without SO_REUSEADDR binds only if no socket holds the port any more.
        try (DatagramChannel exclusive = DatagramChannel.open()) {
            exclusive.setOption(StandardSocketOptions.SO_REUSEADDR, false);
            exclusive.bind(new InetSocketAddress(port));
        }
        assertThat(threadsNamed("ZBeacon")).isEmpty();
        received.clear();
        beacon.start();
        assertThat(next()).isEqualTo("again");
    }

    @Test
    void shouldThrowFromStartServerWhenThePortCannotBeBound() throws Exception {
        try (DatagramChannel holder = DatagramChannel.open()) {
            holder.setOption(StandardSocketOptions.SO_REUSEADDR, false);
            holder.bind(new InetSocketAddress(0));
            int port = ((InetSocketAddress) holder.getLocalAddress()).getPort();
            ZBeacon beacon = loopback(port, "x").build();
            beacons.add(beacon);
            assertThatThrownBy(beacon::startServer).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(String.valueOf(port));
            assertThat(threadsNamed("ZBeacon Server Thread")).isEmpty();
        }
    }

    @Test
    void shouldHandAnExceptionFromTheListenerToTheServersHandler() throws Exception {
        int port = freePort();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        ZBeacon beacon = loopback(port, "x").listener((sender, data) -> {
            throw new IllegalArgumentException("listener bug");
        }).setServerUncaughtExceptionHandlers((thread, e) -> {
            thrown.set(e);
            failed.countDown();
        }).build();
        beacons.add(beacon);
        beacon.startServer();
        try (DatagramChannel raw = DatagramChannel.open()) {
            raw.send(ByteBuffer.wrap(bytes("x")), new InetSocketAddress(LOOPBACK, port));
        }
        assertThat(failed.await(PATIENCE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(thrown.get()).hasMessage("listener bug");
    }

    @Test
    void shouldNotStartAServerWithoutAListener() throws Exception {
        ZBeacon beacon = new ZBeacon.Builder().port(freePort()).beacon(bytes("b")).client(LOOPBACK).build();
        beacons.add(beacon);
        beacon.startServer();
        assertThat(threadsNamed("ZBeacon Server Thread")).isEmpty();
        assertThat(beacon.getListener()).isNull();
    }

    @Test
    void shouldKeepSendingToAHostWithNoServer() throws Exception {
        int port = freePort();
        ZBeacon client = new ZBeacon.Builder().port(port).beacon(bytes("late")).client(LOOPBACK).server(LOOPBACK)
                .broadcastInterval(10).build();
        beacons.add(client);
        client.startClient();
        // Nothing listens yet: loopback answers "port unreachable" to the first beacons, which must not end the
        // client (JeroMQ's connected socket gets PortUnreachableException). A pause to let some go unanswered.
        Thread.sleep(100);
        ZBeacon server = loopback(port, "unused").build();
        beacons.add(server);
        server.startServer();
        assertThat(next()).isEqualTo("late");
    }

    @Test
    void shouldCopyTheBeaconAndCheckItsArguments() {
        byte[] data = bytes("abc");
        ZBeacon beacon = new ZBeacon("127.0.0.1", 1, data);
        data[0] = 'x';
        assertThat(beacon.getBeacon()).isEqualTo(bytes("abc"));
        assertThat(beacon.getBroadcastInterval()).isEqualTo(ZBeacon.DEFAULT_BROADCAST_INTERVAL);
        beacon.setBroadcastInterval(250);
        assertThat(beacon.getBroadcastInterval()).isEqualTo(250);
        assertThatThrownBy(() -> new ZBeacon.Builder().port(1).build()).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ZBeacon.Builder().server(new byte[5]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ZBeacon.DEFAULT_BROADCAST_HOST).isEqualTo("255.255.255.255");
    }

    private static List<Thread> threadsNamed(String prefix) {
        List<Thread> found = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith(prefix) && thread.isAlive()) {
                found.add(thread);
            }
        }
        return found;
    }
}
