package io.zmtp.socket;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.metrics.ZmtpSocketMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples of docs/sockets.md's "Seeing into and steering a socket" sections, between "// guide:" markers,
 * kept compiling and passing over tcp.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ObservabilityGuideExampleIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void monitorExample() throws Exception {
        ZmtpSocket socket = sockets.socket(ZmtpSocketType.DEALER);
        List<String> log = new CopyOnWriteArrayList<>();
        // guide: monitor
        socket.monitor(event -> {
            switch (event.type()) {
                case HANDSHAKE_SUCCEEDED:
                    log.add("up: " + event.remoteAddress() + " " + event.peerSocketType());
                    break;
                case HANDSHAKE_FAILED:
                    log.add("refused: " + event.remoteAddress() + " " + event.failureReason());
                    break;
                case CONNECT_RETRIED:
                    log.add("retry " + event.endpoint() + " in " + event.reconnectDelay().toMillis() + " ms");
                    break;
                case MESSAGES_DROPPED:
                    log.add("dropped " + event.count());
                    break;
                default:
                    break;
            }
        });
        // guide: end
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        socket.connect(router.bind("tcp://127.0.0.1:*"));
        SocketTestSupport.eventually(() -> !log.isEmpty());
        assertThat(log.get(0)).startsWith("up: ").endsWith("ROUTER");
    }

    @Test
    void peersExample() {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        ZmtpSocket client = sockets.socket(ZmtpSocketType.DEALER);
        client.connect(router.bind("tcp://127.0.0.1:*"));
        client.send("hello");
        // guide: peers
        ZmtpMessage request = router.receive(Duration.ofSeconds(5));
        ZmtpPeer from = router.lastPeer();              // who sent it; nothing is allocated per message
        InetSocketAddress address = (InetSocketAddress) from.remoteAddress();
        String user = from.userId();                    // PLAIN's user name, CURVE's ZAP user id; null with NULL
        request.release();
        router.send(from, ZmtpMessage.of("welcome"));   // to that peer: no routing-id frame to build

        for (ZmtpPeer peer : router.peers()) {
            if (peer.userId() == null && !peer.remoteAddress().toString().contains("127.0.0.1")) {
                peer.disconnect();                      // closes its connection, releases its queue
            }
        }
        // guide: end
        assertThat(address.getAddress().isLoopbackAddress()).isTrue();
        assertThat(user).isNull();
        assertThat(SocketTestSupport.recv(client)).isEqualTo("welcome");
    }

    @Test
    void queuesExample() {
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        push.connect("tcp://127.0.0.1:1");   // nobody there: messages wait in the queue
        push.send("stale");
        List<String> log = new CopyOnWriteArrayList<>();
        // guide: queues
        for (ZmtpPeer peer : push.peers()) {
            log.add(peer.endpoint() + ": " + peer.outgoingMessages() + " messages, " + peer.outgoingBytes()
                    + " bytes queued" + (peer.isOutgoingHwmReached() ? " (full)" : ""));
            if (peer.state() != ZmtpPeer.State.CONNECTED) {
                int dropped = peer.clearOutgoing();     // buffers released, counted in droppedCount()
            }
        }
        long total = push.outgoingMessages();           // every peer's, in and out, messages and bytes
        // guide: end
        assertThat(log).containsExactly("tcp://127.0.0.1:1: 1 messages, 5 bytes queued");
        assertThat(total).isZero();
        assertThat(push.droppedCount()).isEqualTo(1);
    }

    @Test
    void overflowAndDeliveryExample() throws Exception {
        ZmtpSocket pull = sockets.socket(ZmtpSocketType.PULL);
        ZmtpSocket socket = sockets.socket(ZmtpSocketType.PUSH);
        socket.connect(pull.bind("tcp://127.0.0.1:*"));
        List<String> log = new CopyOnWriteArrayList<>();
        // guide: overflow
        socket.setOption(ZmtpSocketOption.SNDHWM, 10_000);
        socket.setOption(ZmtpSocketOption.OVERFLOW, ZmtpOverflowPolicy.DROP_OLDEST);   // freshest data wins
        // guide: end
        // guide: delivery
        socket.sendTracked(ZmtpMessage.of("order 42")).whenComplete((written, error) -> {
            if (error != null) {
                log.add("order 42 not sent: " + error.getMessage());   // dropped, peer gone, closed
            } else {
                log.add("order 42 written");
            }
        });
        // guide: end
        assertThat(SocketTestSupport.recv(pull)).isEqualTo("order 42");
        SocketTestSupport.eventually(() -> !log.isEmpty());
        assertThat(log).containsExactly("order 42 written");
    }

    @Test
    void streamExample() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.STREAM);
        String endpoint = server.bind("tcp://127.0.0.1:*");
        int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> {
            try (Socket browser = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream out = browser.getOutputStream();
                out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                InputStream in = browser.getInputStream();
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        // guide: stream
        // A tiny HTTP/1.0 server: every connection gets one answer, then is closed.
        for (int served = 0; served < 1; ) {
            ZmtpMessage m = server.receive(Duration.ofSeconds(5));
            byte[] id = m.frameBytes(0);
            boolean notice = m.frame(1).readableBytes() == 0;   // [id, ""]: a connection came or went
            m.release();
            if (!notice) {
                server.send(ZmtpMessage.ofBytes(id, "HTTP/1.0 200 OK\r\n\r\nhello\n".getBytes(StandardCharsets.US_ASCII)));
                server.send(ZmtpMessage.ofBytes(id, new byte[0]));   // an empty frame hangs up
                served++;
            }
        }
        // guide: end
        assertThat(answer.get(scaledSeconds(5), TimeUnit.SECONDS)).isEqualTo("HTTP/1.0 200 OK\r\n\r\nhello\n");
    }

    @Test
    void metricsAndLibzmqMonitorExample() {
        ZmtpContext context = sockets.context();
        ZmtpSocket socket = sockets.socket(ZmtpSocketType.REP);
        // guide: metrics
        MeterRegistry registry = new SimpleMeterRegistry();   // or your application's registry
        new ZmtpSocketMetrics(socket, "orders").bindTo(registry);
        // guide: end
        // guide: libzmq-monitor
        socket.monitor("inproc://orders.monitor");            // zmq_socket_monitor(socket, "inproc://...", ZMQ_EVENT_ALL)
        ZmtpSocket events = context.socket(ZmtpSocketType.PAIR);
        events.connect("inproc://orders.monitor");
        socket.bind("tcp://127.0.0.1:*");
        ZmtpMessage event = events.receive(Duration.ofSeconds(5));
        int number = event.frame(0).getUnsignedShortLE(0);   // ZMQ_EVENT_LISTENING = 8
        long value = event.frame(0).getUnsignedIntLE(2);
        String endpoint = event.frameString(1);
        event.release();
        // guide: end
        assertThat(number).isEqualTo(8);
        assertThat(endpoint).startsWith("tcp://127.0.0.1:");
        assertThat(value).isZero();
        assertThat(registry.get("zmtp.socket.peers").gauge().value()).isZero();
    }
}
