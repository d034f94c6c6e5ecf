package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.text;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The thread-safe types between our own sockets, over tcp, ipc and inproc: CLIENT/SERVER, RADIO/DISH,
 * SCATTER/GATHER, PEER and CHANNEL, with libzmq's rules (single part, routing ids, groups). Interop with libzmq and
 * JeroMQ is zmtp-interop's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ThreadSafeTypesIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private static int ipcCounter;

    /** A bind endpoint of the transport: tcp on a free port, ipc in a fresh directory, inproc by a unique name. */
    private static String endpoint(String transport) throws Exception {
        switch (transport) {
            case "tcp":
                return "tcp://127.0.0.1:*";
            case "ws":
                return "ws://127.0.0.1:*/";
            case "ipc":
                Path dir = Files.createTempDirectory("zmtp-ts");
                dir.toFile().deleteOnExit();
                return "ipc://" + dir.resolve("s" + (ipcCounter++)).toAbsolutePath();
            default:
                return "inproc://thread-safe-" + System.nanoTime();
        }
    }

    private static ZmtpMessage receive(ZmtpSocket s) {
        ZmtpMessage m = s.receive(WAIT);
        assertThat(m).as("a message within " + WAIT).isNotNull();
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ipc", "inproc", "ws"})
    void shouldRouteEachServerReplyToTheClientThatAsked(String transport) throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        String ep = server.bind(endpoint(transport));
        ZmtpSocket alice = sockets.socket(ZmtpSocketType.CLIENT);
        ZmtpSocket bob = sockets.socket(ZmtpSocketType.CLIENT);
        alice.connect(ep);
        bob.connect(ep);
        alice.send("from alice");
        bob.send("from bob");
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < 2; i++) {
            ZmtpMessage request = receive(server);
            int id = request.routingId();
            assertThat(id).as("a SERVER's routing id is never 0").isNotZero();
            ids.add(id);
            String who = text(request).substring("from ".length());
            server.send(ZmtpMessage.of("hello " + who).routingId(id));
        }
        assertThat(ids).hasSize(2);
        assertThat(text(receive(alice))).isEqualTo("hello alice");
        ZmtpMessage toBob = receive(bob);
        assertThat(toBob.routingId()).as("a reply doesn't arrive carrying the server's id for it").isZero();
        assertThat(text(toBob)).isEqualTo("hello bob");
    }

    @Test
    void shouldFailASendToAnUnknownRoutingIdAndAMultipartSend() {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        server.bind("tcp://127.0.0.1:*");
        assertThatThrownBy(() -> server.send(ZmtpMessage.of("x").routingId(12345)))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
        assertThatThrownBy(() -> server.send(ZmtpMessage.of("x")))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class).hasMessageContaining("routing id");
        ZmtpSocket client = sockets.socket(ZmtpSocketType.CLIENT);
        assertThatThrownBy(() -> client.send(ZmtpMessage.of("a", "b")))
                .isInstanceOf(ZmtpSocketException.InvalidMessage.class).hasMessageContaining("single-part");
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        assertThatThrownBy(() -> dish.send("x")).isInstanceOf(ZmtpSocketException.IllegalState.class);
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        assertThatThrownBy(() -> radio.send("no group")).isInstanceOf(ZmtpSocketException.InvalidMessage.class);
        assertThatThrownBy(() -> client.join("g")).isInstanceOf(ZmtpSocketException.IllegalState.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ipc", "inproc", "ws"})
    void shouldDeliverOnlyTheGroupsADishJoined(String transport) throws Exception {
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        String ep = radio.bind(endpoint(transport));
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        dish.join("weather");
        dish.connect(ep);
        // The JOIN reaches the RADIO some time after the connection: send until the first arrives.
        ZmtpMessage first = SocketTestSupport.retry(() -> {
            radio.send(ZmtpMessage.of("sync").group("weather"));
            return dish.receive(Duration.ofMillis(25));
        });
        assertThat(first).as("the JOIN took effect").isNotNull();
        first.release();
        SocketTestSupport.drain(dish);

        radio.send(ZmtpMessage.of("goal!").group("sports"));
        radio.send(ZmtpMessage.of("rain").group("weather"));
        ZmtpMessage m = receive(dish);
        assertThat(m.group()).isEqualTo("weather");
        assertThat(m.size()).as("the body alone; the group is beside it").isEqualTo(1);
        assertThat(text(m)).isEqualTo("rain");

        dish.join("sports");
        dish.leave("weather");
        ZmtpMessage sports = SocketTestSupport.retry(() -> {
            radio.send(ZmtpMessage.of("score").group("sports"));
            radio.send(ZmtpMessage.of("sun").group("weather"));
            ZmtpMessage got = dish.receive(Duration.ofMillis(25));
            if (got != null && !"sports".equals(got.group())) {
                // Sent before the RADIO applied the LEAVE: the DISH drops those itself, so this can't be one.
                throw new AssertionError("received " + got.group() + " after leaving it");
            }
            return got;
        });
        assertThat(sports).isNotNull();
        sports.release();
        assertThatThrownBy(() -> dish.leave("weather")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dish.join("sports")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dish.join("x".repeat(256))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSendADishsGroupsAgainToARadioItReconnectsTo() throws Exception {
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        String ep = radio.bind("tcp://127.0.0.1:*");
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        dish.join("a");
        dish.connect(ep);
        assertThat(awaitGroup(radio, dish, "a")).isTrue();
        radio.close();
        ZmtpSocket again = sockets.socket(ZmtpSocketType.RADIO);
        again.bind(ep);
        assertThat(awaitGroup(again, dish, "a")).as("joined again on the new connection").isTrue();
    }

    /**
     * A RADIO that connects, and a DISH that comes back while the RADIO's application is idle: the new connection's
     * JOINs reach the RADIO's pipe before the application next calls in and learns the old connection went away, and
     * must survive that (they were discarded with the old connection's state).
     */
    @Test
    void shouldKeepTheJoinsOfANewConnectionThatArriveBeforeTheOldOnesEnd() throws Exception {
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        dish.join("a");
        String ep = dish.bind("tcp://127.0.0.1:*");
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        radio.connect(ep);
        assertThat(awaitGroup(radio, dish, "a")).isTrue();
        dish.close();
        ZmtpSocket again = sockets.socket(ZmtpSocketType.DISH);
        again.join("a");
        again.bind(ep);
        // The RADIO reconnects (RECONNECT_IVL 100 ms) and reads the new JOIN while its application does nothing.
        assertThat(SocketTestSupport.eventually(
                () -> again.peers().stream().anyMatch(p -> p.state() == ZmtpPeer.State.CONNECTED)))
                .as("the RADIO reconnected").isTrue();
        Thread.sleep(300);
        assertThat(awaitGroup(radio, again, "a")).as("the new connection's JOIN applied").isTrue();
    }

    private static boolean awaitGroup(ZmtpSocket radio, ZmtpSocket dish, String group) {
        ZmtpMessage m = SocketTestSupport.retry(() -> {
            radio.send(ZmtpMessage.of("ping").group(group));
            return dish.receive(Duration.ofMillis(25));
        });
        if (m == null) {
            return false;
        }
        m.release();
        SocketTestSupport.drain(dish);
        return true;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "inproc", "ws"})
    void shouldRoundRobinFromScatterAndFairQueueIntoGather(String transport) throws Exception {
        ZmtpSocket gather1 = sockets.socket(ZmtpSocketType.GATHER);
        ZmtpSocket gather2 = sockets.socket(ZmtpSocketType.GATHER);
        String ep1 = gather1.bind(endpoint(transport));
        String ep2 = gather2.bind(endpoint(transport));
        ZmtpSocket scatter = sockets.socket(ZmtpSocketType.SCATTER);
        scatter.connect(ep1);
        scatter.connect(ep2);
        awaitConnected(scatter, 2);
        for (int i = 0; i < 10; i++) {
            scatter.send("m" + i);
        }
        List<String> one = new ArrayList<>();
        List<String> two = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            one.add(SocketTestSupport.recv(gather1));
            two.add(SocketTestSupport.recv(gather2));
        }
        assertThat(one).containsExactly("m0", "m2", "m4", "m6", "m8");
        assertThat(two).containsExactly("m1", "m3", "m5", "m7", "m9");
        assertThatThrownBy(() -> scatter.receive(Duration.ZERO)).isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThatThrownBy(() -> gather1.send("x")).isInstanceOf(ZmtpSocketException.IllegalState.class);
    }

    private static void awaitConnected(ZmtpSocket s, int peers) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (s.peers().stream().filter(p -> p.state() == ZmtpPeer.State.CONNECTED).count() == peers) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("not " + peers + " connected peers: " + s.peers());
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "inproc", "ws"})
    void shouldLetAPeerSendFirstToTheIdConnectPeerReturned(String transport) throws Exception {
        ZmtpSocket bound = sockets.socket(ZmtpSocketType.PEER);
        String ep = bound.bind(endpoint(transport));
        ZmtpSocket connecting = sockets.socket(ZmtpSocketType.PEER);
        int id = connecting.connectPeer(ep);
        assertThat(id).isNotZero();
        // Sent before the connection is up: it waits in the peer's queue.
        connecting.send(ZmtpMessage.of("hi from the connecting side").routingId(id));
        ZmtpMessage m = receive(bound);
        int back = m.routingId();
        assertThat(back).isNotZero();
        assertThat(text(m)).isEqualTo("hi from the connecting side");
        bound.send(ZmtpMessage.of("and back").routingId(back));
        ZmtpMessage reply = receive(connecting);
        assertThat(reply.routingId()).isEqualTo(id);
        assertThat(text(reply)).isEqualTo("and back");
        assertThatThrownBy(() -> sockets.socket(ZmtpSocketType.SERVER).connectPeer(ep))
                .isInstanceOf(ZmtpSocketException.IllegalState.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "ipc", "inproc", "ws"})
    void shouldTalkBothWaysOverAChannel(String transport) throws Exception {
        ZmtpSocket a = sockets.socket(ZmtpSocketType.CHANNEL);
        String ep = a.bind(endpoint(transport));
        ZmtpSocket b = sockets.socket(ZmtpSocketType.CHANNEL);
        b.connect(ep);
        b.send("ping");
        assertThat(SocketTestSupport.recv(a)).isEqualTo("ping");
        a.send("pong");
        assertThat(SocketTestSupport.recv(b)).isEqualTo("pong");
        assertThatThrownBy(() -> a.send(ZmtpMessage.of("two", "parts")))
                .isInstanceOf(ZmtpSocketException.InvalidMessage.class);
    }

    @Test
    void shouldRefuseMismatchedTypes() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        String ep = server.bind("tcp://127.0.0.1:*");
        ZmtpSocket dealer = sockets.socket(ZmtpSocketType.DEALER);
        List<ZmtpSocketEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        dealer.monitor(events::add);
        dealer.connect(ep);
        SocketTestSupport.eventually(
                () -> events.stream().anyMatch(e -> e.type() == ZmtpSocketEvent.Type.HANDSHAKE_FAILED));
        assertThat(events).extracting(ZmtpSocketEvent::type).contains(ZmtpSocketEvent.Type.HANDSHAKE_FAILED);
    }

    @Test
    void shouldDropAndCountAMultipartMessageReceivedBySingleParts() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        String ep = server.bind("tcp://127.0.0.1:*");
        try (HostileWire client = new HostileWire(ep).handshake("CLIENT")) {
            // a|b as one message (MORE on the first frame), then c alone.
            client.out.write(new byte[] {0x01, 0x01, 'a', 0x00, 0x01, 'b', 0x00, 0x01, 'c'});
            client.out.flush();
            assertThat(text(receive(server))).isEqualTo("c");
            assertThat(server.droppedCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldCloseARadioConnectionThatSendsAMessageWithoutItsGroupFrame() throws Exception {
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        List<ZmtpSocketEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        dish.monitor(events::add);
        dish.join("g");
        String ep = dish.bind("tcp://127.0.0.1:*");
        try (HostileWire radio = new HostileWire(ep).handshake("RADIO")) {
            radio.out.write(new byte[] {0x00, 0x01, 'x'});
            radio.out.flush();
            assertThat(dish.receive(Duration.ofMillis(500))).isNull();
            assertThat(radio.closedBySocketWithin(5000)).isTrue();
        }
        assertThat(events).anyMatch(e -> e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR
                && e.detail().contains("1 frames"));
    }

    @Test
    void shouldCloseADishThatJoinsAGroupOver255Bytes() throws Exception {
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        List<ZmtpSocketEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        radio.monitor(events::add);
        String ep = radio.bind("tcp://127.0.0.1:*");
        try (HostileWire dish = new HostileWire(ep).handshake("DISH")) {
            byte[] group = "g".repeat(300).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            java.nio.ByteBuffer join = java.nio.ByteBuffer.allocate(1 + 8 + 5 + group.length);
            join.put((byte) 0x06).putLong(5 + group.length).put((byte) 4).put("JOIN".getBytes()).put(group);
            dish.out.write(join.array());
            dish.out.flush();
            for (int i = 0; i < 200 && !dish.closedBySocketWithin(25); i++) {
                radio.send(ZmtpMessage.of("x").group("g"));
            }
            assertThat(dish.closedBySocketWithin(5000)).isTrue();
        }
        assertThat(events).anyMatch(e -> e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR
                && e.detail().contains("300 bytes"));
    }

    /**
     * Several threads on one CLIENT and on one SERVER at once, blocking calls included: every request is answered once,
     * to the thread's own socket, and nothing is lost or duplicated (a lost wake-up would hang a receiver).
     */
    @Test
    void shouldServeManyThreadsOnEachSideWithoutLossOrDuplicates() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        String ep = server.bind("tcp://127.0.0.1:*");
        ZmtpSocket client = sockets.socket(ZmtpSocketType.CLIENT);
        client.connect(ep);
        int senders = 4;
        int perSender = 5_000;
        int total = senders * perSender;
        java.util.concurrent.ConcurrentHashMap<String, Boolean> answered = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger duplicates = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger served = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            threads.add(new Thread(() -> {
                while (served.get() < total) {
                    ZmtpMessage m = server.receive(Duration.ofMillis(100));
                    if (m != null) {
                        served.incrementAndGet();
                        server.send(ZmtpMessage.of("re:" + m.frameString(0)).routingId(m.routingId()));
                        m.release();
                    }
                }
            }));
        }
        for (int t = 0; t < senders; t++) {
            int sender = t;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perSender; i++) {
                    client.send(sender + ":" + i);
                }
            }));
        }
        for (int t = 0; t < 2; t++) {
            threads.add(new Thread(() -> {
                while (answered.size() < total) {
                    ZmtpMessage m = client.receive(Duration.ofMillis(100));
                    if (m != null) {
                        if (answered.put(m.frameString(0), Boolean.TRUE) != null) {
                            duplicates.incrementAndGet();
                        }
                        m.release();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread th : threads) {
            th.join(25_000);
            assertThat(th.isAlive()).as("a thread still waiting: served %d, answered %d", served.get(),
                    answered.size()).isFalse();
        }
        assertThat(answered).hasSize(total);
        assertThat(duplicates.get()).isZero();
        assertThat(answered).containsKey("re:3:" + (perSender - 1));
    }

    /** udp:// as libzmq's: a DISH binds, a RADIO connects and sends every message; the DISH keeps its groups'. */
    @Test
    void shouldCarryRadioToDishOverUdp() throws Exception {
        ZmtpSocket dish = sockets.socket(ZmtpSocketType.DISH);
        dish.join("weather");
        String ep = dish.bind("udp://127.0.0.1:*");
        assertThat(ep).matches("udp://127\\.0\\.0\\.1:\\d+");
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        radio.connect(ep);
        ZmtpMessage m = SocketTestSupport.retry(() -> {
            radio.send(ZmtpMessage.of("goal!").group("sports"));
            radio.send(ZmtpMessage.of("rain").group("weather"));
            return dish.receive(Duration.ofMillis(25));
        });
        assertThat(m).as("a datagram within %s", WAIT).isNotNull();
        assertThat(m.group()).isEqualTo("weather");
        assertThat(text(m)).isEqualTo("rain");

        // A datagram whose group length runs past its end is dropped, as libzmq drops it; the next one is read.
        int port = Integer.parseInt(ep.substring(ep.lastIndexOf(':') + 1));
        try (java.net.DatagramSocket raw = new java.net.DatagramSocket()) {
            java.net.InetSocketAddress to = new java.net.InetSocketAddress("127.0.0.1", port);
            raw.send(new java.net.DatagramPacket(new byte[] {100, 'w'}, 2, to));
            byte[] ok = {7, 'w', 'e', 'a', 't', 'h', 'e', 'r', 'f', 'o', 'g'};
            raw.send(new java.net.DatagramPacket(ok, ok.length, to));
        }
        String group;
        String body;
        do {
            ZmtpMessage next = receive(dish);
            group = next.group();
            body = text(next);
        } while (!"fog".equals(body));
        assertThat(group).isEqualTo("weather");

        assertThatThrownBy(() -> radio.bind("udp://127.0.0.1:*")).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
        assertThatThrownBy(() -> dish.connect(ep)).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }

    /** The rest of the socket API works on the new types as on the others: poller, async calls, tracking, peers. */
    @Test
    void shouldWorkWithThePollerAsyncCallsTrackedSendsAndPeers() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.SERVER);
        String ep = server.bind("tcp://127.0.0.1:*");
        ZmtpSocket client = sockets.socket(ZmtpSocketType.CLIENT);
        client.connect(ep);
        var asyncRequest = server.receiveAsync();
        client.sendTracked(ZmtpMessage.of("tracked")).toCompletableFuture().get(scaledSeconds(5), TimeUnit.SECONDS);
        ZmtpMessage request = asyncRequest.toCompletableFuture().get(scaledSeconds(5), TimeUnit.SECONDS);
        int id = request.routingId();
        assertThat(text(request)).isEqualTo("tracked");
        assertThat(server.lastPeer().socketType()).isEqualTo(ZmtpSocketType.CLIENT);
        assertThat(server.peers()).hasSize(1);

        try (ZmtpPoller poller = new ZmtpPoller()) {
            poller.register(client, ZmtpPoller.Interest.IN);
            server.sendAsync(ZmtpMessage.of("async reply").routingId(id)).toCompletableFuture()
                    .get(scaledSeconds(5), TimeUnit.SECONDS);
            assertThat(poller.poll(WAIT)).isEqualTo(1);
            assertThat(poller.isReadable(client)).isTrue();
        }
        assertThat(SocketTestSupport.recv(client)).isEqualTo("async reply");
        assertThat(client.sentCount()).isEqualTo(1);
        assertThat(server.receivedCount()).isEqualTo(1);
    }

    /** A DISH's groups are charged to its connection's budget at the RADIO: JOINs past it close that connection. */
    @Test
    void shouldCloseADishWhoseJoinsPassItsBudget() throws Exception {
        ZmtpSocket radio = sockets.socket(ZmtpSocketType.RADIO);
        radio.setOption(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES, 64L * 1024);
        List<ZmtpSocketEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        radio.monitor(events::add);
        String ep = radio.bind("tcp://127.0.0.1:*");
        ZmtpSocket good = sockets.socket(ZmtpSocketType.DISH);
        good.join("news");
        good.connect(ep);
        assertThat(awaitGroup(radio, good, "news")).isTrue();
        try (HostileWire dish = new HostileWire(ep).handshake("DISH")) {
            // 1,000 distinct groups of 200 bytes: about 440 KiB charged (length + overhead each), past 64 KiB.
            java.io.ByteArrayOutputStream joins = new java.io.ByteArrayOutputStream();
            for (int i = 0; i < 1000; i++) {
                byte[] group = String.format("%0200d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                joins.write(0x04);
                joins.write(5 + group.length);
                joins.write(4);
                joins.writeBytes("JOIN".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                joins.writeBytes(group);
            }
            dish.out.write(joins.toByteArray());
            dish.out.flush();
            for (int i = 0; i < 200 && !dish.closedBySocketWithin(25); i++) {
                radio.send(ZmtpMessage.of("x").group("news"));
            }
            assertThat(dish.closedBySocketWithin(5000)).isTrue();
        }
        assertThat(events).anyMatch(e -> e.type() == ZmtpSocketEvent.Type.PROTOCOL_ERROR
                && e.detail().contains("MAX_SUBSCRIPTION_BYTES"));
        SocketTestSupport.drain(good);
        assertThat(awaitGroup(radio, good, "news")).as("the good DISH is still served").isTrue();
    }
}
