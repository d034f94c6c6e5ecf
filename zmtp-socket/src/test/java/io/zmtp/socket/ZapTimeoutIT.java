package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handshake that times out while its ZAP request is with the handler (a slow handler, a fresh JVM under load):
 * the connection closes as libzmq's does on its handshake timer, without an ERROR, so libzmq and JeroMQ clients
 * (which give up for good on an ERROR) reconnect; the handler's late reply to it changes nothing, and the next
 * handshake completes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZapTimeoutIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final int HANDSHAKE_IVL = 500;

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    /**
     * A REP handler at {@code inproc://zeromq.zap.01} that holds its first request until {@code release} opens, then
     * answers it (late) and every later one at once, allowing admin/secret.
     */
    private final class SlowFirstZapHandler implements AutoCloseable {
        final ZmtpSocket rep = sockets.socket(ZmtpSocketType.REP);
        final BlockingQueue<String> requestIds = new LinkedBlockingQueue<>();
        final CountDownLatch release = new CountDownLatch(1);
        final Thread thread;

        SlowFirstZapHandler() {
            rep.bind("inproc://zeromq.zap.01");
            thread = new Thread(this::serve, "test-slow-zap-handler");
            thread.start();
        }

        private void serve() {
            try {
                for (boolean first = true; ; first = false) {
                    ZmtpMessage m = rep.receive();
                    List<String> frames;
                    try {
                        frames = m.toStrings();
                    } finally {
                        m.release();
                    }
                    requestIds.add(frames.get(1));
                    if (first) {
                        release.await();
                    }
                    boolean ok = frames.get(6).equals("admin") && frames.get(7).equals("secret");
                    rep.send("1.0".getBytes(StandardCharsets.US_ASCII), frames.get(1).getBytes(StandardCharsets.US_ASCII),
                            (ok ? "200" : "400").getBytes(StandardCharsets.US_ASCII),
                            (ok ? "OK" : "no").getBytes(StandardCharsets.US_ASCII),
                            (ok ? "admin" : "").getBytes(StandardCharsets.US_ASCII), new byte[0]);
                }
            } catch (ZmtpSocketException | InterruptedException e) {
                // The context closed.
            }
        }

        @Override
        public void close() throws InterruptedException {
            release.countDown();
            sockets.context().close();
            thread.join();
        }
    }

    private ZmtpSocket plainServer(BlockingQueue<ZmtpSocketEvent> events) {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.PULL);
        server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        server.setOption(ZmtpSocketOption.HANDSHAKE_IVL, HANDSHAKE_IVL);
        server.monitor(events::add);
        return server;
    }

    @Test
    void shouldCompleteTheNextHandshakeAfterOneTimedOutWaitingForZapAndIgnoreTheLateReply() throws Exception {
        try (SlowFirstZapHandler zap = new SlowFirstZapHandler()) {
            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            ZmtpSocket server = plainServer(events);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            ZmtpSocket client = sockets.socket(ZmtpSocketType.PUSH);
            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
            client.connect(endpoint);
            client.send("hello");

            assertThat(zap.requestIds.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("first ZAP request")
                    .isNotNull();
            assertThat(SocketEvents.next(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED, WAIT).detail()).startsWith("TIMEOUT");
            // The client has reconnected and asked again meanwhile (or will): the first reply now comes late.
            zap.release.countDown();

            ZmtpMessage m = server.receive(WAIT);
            assertThat(m).as("message within " + WAIT + " after the first handshake timed out").isNotNull();
            try {
                assertThat(m.toStrings()).containsExactly("hello");
            } finally {
                m.release();
            }
            assertThat(SocketEvents.next(events, ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED, WAIT)).isNotNull();
        }
    }

    @Test
    void shouldCloseWithoutAnErrorWhenTheHandshakeTimesOutWaitingForZap() throws Exception {
        try (SlowFirstZapHandler zap = new SlowFirstZapHandler()) {
            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            ZmtpSocket server = plainServer(events);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            try (HostileWire client = new HostileWire(endpoint)) {
                client.socket.setSoTimeout((int) WAIT.toMillis());
                client.out.write(plainClientGreeting());
                client.out.write(hello("admin", "secret"));
                client.out.flush();
                assertThat(client.in.readNBytes(64)).as("the server's greeting").hasSize(64);
                assertThat(zap.requestIds.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
                assertThat(SocketEvents.next(events, ZmtpSocketEvent.Type.HANDSHAKE_FAILED, WAIT).detail()).startsWith("TIMEOUT");
                // libzmq's server closes on its handshake timer without a word; an ERROR would end a libzmq or
                // JeroMQ client's reconnecting for good.
                byte[] rest = client.in.readAllBytes();
                assertThat(new String(rest, StandardCharsets.ISO_8859_1)).as("bytes after the greeting").isEmpty();
            }
        }
    }

    /**
     * While a reply is outstanding the context's ZAP thread sleeps on its outbox, and nothing wakes it to look for
     * the reply: every sample of its state that is not running is an untimed wait (a poll would be a timed one).
     */
    @Test
    void shouldWaitForAnOutstandingReplyWithoutPolling() throws Exception {
        try (SlowFirstZapHandler zap = new SlowFirstZapHandler()) {
            BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
            ZmtpSocket server = plainServer(events);
            server.setOption(ZmtpSocketOption.HANDSHAKE_IVL, 0);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            ZmtpSocket client = sockets.socket(ZmtpSocketType.PUSH);
            client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
            client.connect(endpoint);
            assertThat(zap.requestIds.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isNotNull();

            List<Thread> zapThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("zmq-zap") && t.isAlive()).toList();
            assertThat(zapThreads).as("the context's ZAP thread").isNotEmpty();
            List<Thread.State> waits = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                for (Thread t : zapThreads) {
                    Thread.State state = t.getState();
                    if (state != Thread.State.RUNNABLE) {
                        waits.add(state);
                    }
                }
                Thread.sleep(5);
            }
            assertThat(waits).isNotEmpty().containsOnly(Thread.State.WAITING);

            // Once answered, the handshake completes.
            zap.release.countDown();
            client.send("hello");
            ZmtpMessage m = server.receive(WAIT);
            assertThat(m).as("message within " + WAIT).isNotNull();
            m.release();
        }
    }

    /** A ZMTP 3.0 greeting with the PLAIN mechanism, as a client. */
    private static byte[] plainClientGreeting() {
        byte[] g = HostileWire.greeting();
        g[11] = 0;
        System.arraycopy("PLAIN".getBytes(StandardCharsets.US_ASCII), 0, g, 12, 5);
        return g;
    }

    private static byte[] hello(String user, String password) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(5);
        body.writeBytes("HELLO".getBytes(StandardCharsets.US_ASCII));
        body.write(user.length());
        body.writeBytes(user.getBytes(StandardCharsets.US_ASCII));
        body.write(password.length());
        body.writeBytes(password.getBytes(StandardCharsets.US_ASCII));
        byte[] b = body.toByteArray();
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x04);
        frame.write(b.length);
        frame.writeBytes(b);
        return frame.toByteArray();
    }
}
