package io.zmtp.socket;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.metrics.ZmtpSocketMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;

/** Micrometer meters against the socket's own counts, and libzmq's monitor socket format over inproc. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MetricsAndMonitorSocketIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void shouldReportTheSocketsCountsAndQueuesAsMeters() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        new ZmtpSocketMetrics(push, "out", Tags.of("app", "test")).bindTo(registry);
        new ZmtpSocketMetrics(pull, "in").bindTo(registry);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        for (int i = 0; i < 100; i++) {
            push.send("m" + i);
        }
        for (int i = 0; i < 60; i++) {
            recv(pull);
        }
        while (pull.incomingMessages() < 40) {
            Thread.sleep(10);
        }
        assertThat(registry.get("zmtp.socket.messages.sent").tag("socket", "out").tag("app", "test")
                .functionCounter().count()).isEqualTo(100).isEqualTo(push.sentCount());
        assertThat(registry.get("zmtp.socket.messages.received").tag("socket", "in").functionCounter().count())
                .isEqualTo(100).isEqualTo(pull.receivedCount());
        assertThat(registry.get("zmtp.socket.queued.messages").tag("socket", "in").tag("direction", "in")
                .gauge().value()).isEqualTo(40).isEqualTo(pull.incomingMessages());
        assertThat(registry.get("zmtp.socket.queued.bytes").tag("socket", "in").tag("direction", "in")
                .gauge().value()).isEqualTo(pull.incomingBytes()).isPositive();
        assertThat(registry.get("zmtp.socket.peers").tag("socket", "out").gauge().value()).isEqualTo(1);

        // Drops, and counts that outlive a peer.
        ZmtpPeer peer = push.peers().get(0);
        peer.disconnect();
        push.connect("tcp://127.0.0.1:1");
        push.send("queued");
        assertThat(registry.get("zmtp.socket.queued.messages").tag("socket", "out").tag("direction", "out")
                .gauge().value()).isEqualTo(1);
        assertThat(push.clearOutgoing()).isEqualTo(1);
        assertThat(registry.get("zmtp.socket.messages.dropped").tag("socket", "out").functionCounter().count())
                .isEqualTo(1).isEqualTo(push.droppedCount());
        assertThat(registry.get("zmtp.socket.messages.sent").tag("socket", "out").functionCounter().count())
                .as("a counter never goes down when its peer goes").isEqualTo(100);
    }

    /** libzmq's monitor message: event number and value, then the endpoint. */
    private static final class LibzmqEvent {
        final int event;
        final long value;
        final String endpoint;

        LibzmqEvent(ZmtpMessage m) {
            assertThat(m.size()).isEqualTo(2);
            assertThat(m.frame(0).readableBytes()).isEqualTo(6);
            event = m.frame(0).getUnsignedShortLE(0);
            value = m.frame(0).getUnsignedIntLE(2);
            endpoint = m.frameString(1);
            m.release();
        }
    }

    @Test
    void shouldSendLibzmqMonitorMessagesOverInproc() throws Exception {
        ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
        rep.monitor("inproc://rep-events");
        ZmtpSocket reader = sockets.socket(ZmtpSocketType.PAIR);
        reader.connect("inproc://rep-events");
        String endpoint = rep.bind("tcp://127.0.0.1:*");
        ZmtpSocket req = sockets.socket(ZmtpSocketType.REQ);
        req.setOption(ZmtpSocketOption.LINGER, 0);
        req.connect(endpoint);
        req.send("hi");
        recv(rep);
        req.close();
        List<LibzmqEvent> events = new ArrayList<>();
        readUntil(reader, events, 0x0200);
        rep.close();
        readUntil(reader, events, 0x0400);
        // LISTENING, ACCEPTED, HANDSHAKE_SUCCEEDED, DISCONNECTED, CLOSED, MONITOR_STOPPED (ZMQ_EVENT_* numbers).
        assertThat(events).extracting(e -> e.event).containsExactly(0x0008, 0x0020, 0x1000, 0x0200, 0x0080, 0x0400);
        assertThat(events.get(0).endpoint).isEqualTo(endpoint);
        assertThat(events.get(1).value).as("the peer's number, where libzmq gives its fd").isPositive();
        assertThat(events.get(2).value).isEqualTo(events.get(1).value);
    }

    /**
     * As libzmq's: a connection the socket ends itself (its close) is no DISCONNECTED and no CONNECT_RETRIED; and a
     * CURVE client with the wrong server key fails the server's handshake as ZMTP_CRYPTOGRAPHIC (0x11000001), not as
     * an authentication failure.
     */
    @Test
    void shouldSendLibzmqsEventsForAnOwnCloseAndABoxThatDidNotOpen() throws Exception {
        io.zmtp.codec.security.CurveKeyPair serverKeys = io.zmtp.codec.security.CurveKeyPair.generate();
        ZmtpSocket server = sockets.socket(ZmtpSocketType.PULL);
        server.setOption(ZmtpSocketOption.CURVE_SERVER, true);
        server.setOption(ZmtpSocketOption.CURVE_SECRETKEY, serverKeys.secretKey());
        server.monitor("inproc://curve-server-events");
        ZmtpSocket serverReader = sockets.socket(ZmtpSocketType.PAIR);
        serverReader.connect("inproc://curve-server-events");
        String endpoint = server.bind("tcp://127.0.0.1:*");

        ZmtpSocket good = sockets.socket(ZmtpSocketType.PUSH);
        good.setOption(ZmtpSocketOption.CURVE_SERVERKEY, serverKeys.publicKey());
        good.setOption(ZmtpSocketOption.CURVE_SECRETKEY, io.zmtp.codec.security.CurveKeyPair.generate().secretKey());
        good.monitor("inproc://good-client-events");
        ZmtpSocket goodReader = sockets.socket(ZmtpSocketType.PAIR);
        goodReader.connect("inproc://good-client-events");
        good.connect(endpoint);
        good.send("hi");
        assertThat(recv(server)).isEqualTo("hi");
        good.close();
        List<LibzmqEvent> goodEvents = new ArrayList<>();
        readUntil(goodReader, goodEvents, 0x0400);
        // (CONNECT_DELAYED,) CONNECTED, HANDSHAKE_SUCCEEDED, MONITOR_STOPPED.
        assertThat(goodEvents).extracting(e -> e.event).endsWith(0x0001, 0x1000, 0x0400)
                .doesNotContain(0x0200, 0x0004);
        List<LibzmqEvent> serverEvents = new ArrayList<>();
        readUntil(serverReader, serverEvents, 0x0200);

        ZmtpSocket wrong = sockets.socket(ZmtpSocketType.PUSH);
        wrong.setOption(ZmtpSocketOption.CURVE_SERVERKEY, io.zmtp.codec.security.CurveKeyPair.generate().publicKey());
        wrong.setOption(ZmtpSocketOption.CURVE_SECRETKEY, io.zmtp.codec.security.CurveKeyPair.generate().secretKey());
        wrong.connect(endpoint);
        serverEvents.clear();
        readUntil(serverReader, serverEvents, 0x2000);
        assertThat(serverEvents.get(serverEvents.size() - 1).value).isEqualTo(0x11000001L);
    }

    private static void readUntil(ZmtpSocket reader, List<LibzmqEvent> events, int last) {
        do {
            ZmtpMessage m = reader.receive(WAIT);
            assertThat(m).as("monitor message after " + events.size()).isNotNull();
            events.add(new LibzmqEvent(m));
        } while (events.get(events.size() - 1).event != last);
    }

    /**
     * Issue 23 item 5: events wait for the monitor's reader in a queue that had no bound, so a peer connecting and
     * failing in a loop grew a monitored socket that nobody reads. The queue keeps the oldest events up to its
     * bound, as a PAIR at its HWM would; the rest are dropped and counted; MONITOR_STOPPED always goes out.
     */
    @Test
    void shouldBoundTheEventsWaitingForAMonitorReader() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = pull.bind("tcp://127.0.0.1:*");
        pull.monitor("inproc://unread-events", ZmtpSocketEvent.Type.ACCEPTED, ZmtpSocketEvent.Type.DISCONNECTED,
                ZmtpSocketEvent.Type.MONITOR_STOPPED);
        java.util.concurrent.atomic.AtomicInteger disconnected = new java.util.concurrent.atomic.AtomicInteger();
        java.util.Map<Object, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        pull.monitor(e -> {
            seen.merge(e.type(), 1, Integer::sum);
            if (e.type() == ZmtpSocketEvent.Type.DISCONNECTED) {
                disconnected.incrementAndGet();
            }
        });
        int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        // Each sends a byte of a greeting and leaves: ACCEPTED and DISCONNECTED, 2 x 1200 events past the bound.
        int connections = 1200;
        for (int i = 0; i < connections; i++) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                s.getOutputStream().write(new byte[] {(byte) 0xFF});
            }
        }
        SocketTestSupport.eventually(() -> disconnected.get() >= connections);
        assertThat(disconnected.get()).as(seen.toString()).isEqualTo(connections);

        ZmtpSocket reader = sockets.socket(ZmtpSocketType.PAIR);
        reader.connect("inproc://unread-events");
        // The bound's worth, each within WAIT, then nothing more (a quiet gap ended this read before, and a busy
        // machine can pause an inproc delivery for longer than such a gap).
        List<LibzmqEvent> events = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            ZmtpMessage m = reader.receive(WAIT);
            assertThat(m).as("monitor message %d of the bound's 1000", i).isNotNull();
            events.add(new LibzmqEvent(m));
        }
        assertThat(reader.receive(java.time.Duration.ofMillis(500))).as("the oldest events, up to the bound").isNull();
        assertThat(events.get(0).event).isEqualTo(0x0020);
        pull.close();
        assertThat(new LibzmqEvent(reader.receive(WAIT)).event).as("MONITOR_STOPPED goes out past the bound")
                .isEqualTo(0x0400);
    }

    @Test
    void shouldSendOnlyTheEventsAskedFor() {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        pull.monitor("inproc://some", ZmtpSocketEvent.Type.LISTENING, ZmtpSocketEvent.Type.MONITOR_STOPPED);
        ZmtpSocket reader = sockets.socket(ZmtpSocketType.PAIR);
        reader.connect("inproc://some");
        pull.bind("tcp://127.0.0.1:*");
        pull.close();
        assertThat(new LibzmqEvent(reader.receive(WAIT)).event).isEqualTo(0x0008);
        assertThat(new LibzmqEvent(reader.receive(WAIT)).event).isEqualTo(0x0400);
    }
}
