package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ZmtpProxy over tcp and inproc: the three libzmq patterns, capture, steering, back-pressure and shutdown. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ZmtpProxyIT {
    private static final AtomicInteger NAMES = new AtomicInteger();

    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    /** An endpoint to bind on {@code transport}: a fresh inproc name or an ephemeral tcp port. */
    private static String endpoint(String transport) {
        return transport.equals("inproc") ? "inproc://proxy-" + NAMES.incrementAndGet() : "tcp://127.0.0.1:*";
    }

    /** Runs the proxy on a thread of its own; the future completes with what ended it (null for TERMINATE). */
    private static CompletableFuture<Throwable> start(ZmtpProxy proxy) {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                proxy.run();
                ended.complete(null);
            } catch (Throwable e) {
                ended.complete(e);
            }
        }, "proxy");
        t.setDaemon(true);
        t.start();
        return ended;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tcp", "inproc"})
    void shouldShareAQueueBetweenReqClientsAndRepWorkersThroughRouterAndDealer(String transport) {
        ZmtpSocket frontend = socket(ROUTER);
        String front = frontend.bind(endpoint(transport));
        ZmtpSocket backend = socket(DEALER);
        String back = backend.bind(endpoint(transport));
        start(ZmtpProxy.builder(frontend, backend).build());

        List<ZmtpSocket> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            ZmtpSocket worker = socket(REP);
            worker.connect(back);
            workers.add(worker);
        }
        List<ZmtpSocket> clients = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            ZmtpSocket client = socket(REQ);
            client.connect(front);
            client.send(ZmtpMessage.of("hello " + c));
            clients.add(client);
        }
        Set<String> requests = new HashSet<>();
        while (requests.size() < 3) {
            for (ZmtpSocket worker : workers) {
                ZmtpMessage m = worker.receive(Duration.ofMillis(20));
                if (m != null) {
                    String request = SocketTestSupport.text(m);
                    requests.add(request);
                    worker.send(ZmtpMessage.of("re: " + request));
                }
            }
        }
        for (int c = 0; c < 3; c++) {
            assertThat(recv(clients.get(c))).isEqualTo("re: hello " + c);
        }
    }

    @Test
    void shouldStreamPullToPushAndSendEveryMessageToTheCaptureSocket() {
        ZmtpSocket frontend = socket(PULL);
        String front = frontend.bind(endpoint("tcp"));
        ZmtpSocket backend = socket(PUSH);
        String back = backend.bind(endpoint("inproc"));
        ZmtpSocket capture = socket(PUSH);
        String captured = capture.bind(endpoint("inproc"));
        start(ZmtpProxy.builder(frontend, backend).capture(capture).build());

        ZmtpSocket producer = socket(PUSH);
        producer.connect(front);
        ZmtpSocket consumer = socket(PULL);
        consumer.connect(back);
        ZmtpSocket listener = socket(PULL);
        listener.connect(captured);
        for (int i = 0; i < 3; i++) {
            producer.send(ZmtpMessage.of("job " + i, "part two"));
        }
        for (int i = 0; i < 3; i++) {
            assertThat(recv(consumer)).isEqualTo("job " + i + "|part two");
            assertThat(recv(listener)).isEqualTo("job " + i + "|part two");
        }
    }

    @Test
    void shouldForwardSubscriptionsUpstreamThroughAnXsubXpubForwarder() {
        ZmtpSocket frontend = socket(XSUB);
        String front = frontend.bind(endpoint("tcp"));
        ZmtpSocket backend = socket(XPUB);
        String back = backend.bind(endpoint("tcp"));
        start(ZmtpProxy.builder(frontend, backend).build());

        ZmtpSocket publisher = socket(PUB);
        publisher.connect(front);
        ZmtpSocket subscriber = socket(SUB);
        subscriber.setOption(ZmtpSocketOption.SUBSCRIBE, SocketTestSupport.b("weather"));
        subscriber.connect(back);
        assertThat(awaitFirst(publisher, subscriber, "weather sunny")).isEqualTo("weather sunny");
        publisher.send(ZmtpMessage.of("sports nil"));
        publisher.send(ZmtpMessage.of("weather rain"));
        assertThat(recv(subscriber)).isEqualTo("weather rain");
    }

    @Test
    void shouldPauseResumeCountAndTerminateAsCommandedOverARepControlSocket() throws Exception {
        ZmtpSocket frontend = socket(PULL);
        String front = frontend.bind(endpoint("tcp"));
        ZmtpSocket backend = socket(PUSH);
        String back = backend.bind(endpoint("tcp"));
        ZmtpSocket control = socket(REP);
        String steer = control.bind(endpoint("inproc"));
        ZmtpProxy proxy = ZmtpProxy.builder(frontend, backend).control(control).build();
        CompletableFuture<Throwable> ended = start(proxy);

        ZmtpSocket producer = socket(PUSH);
        producer.connect(front);
        ZmtpSocket consumer = socket(PULL);
        consumer.connect(back);
        ZmtpSocket commander = socket(REQ);
        commander.connect(steer);

        producer.send(ZmtpMessage.of("before", "pause"));
        assertThat(recv(consumer)).isEqualTo("before|pause");
        commander.send(ZmtpMessage.of("PAUSE"));
        assertThat(recv(commander)).as("REP control answers with an empty message").isEmpty();
        producer.send(ZmtpMessage.of("while paused"));
        assertThat(consumer.receive(Duration.ofMillis(300))).as("nothing passes while paused").isNull();
        commander.send(ZmtpMessage.of("RESUME"));
        assertThat(recv(commander)).isEmpty();
        assertThat(recv(consumer)).isEqualTo("while paused");

        commander.send(ZmtpMessage.of("STATISTICS"));
        ZmtpMessage stats = commander.receive(WAIT);
        assertThat(stats).isNotNull();
        long[] values = new long[stats.size()];
        try {
            for (int i = 0; i < values.length; i++) {
                assertThat(stats.frame(i).readableBytes()).isEqualTo(8);
                values[i] = ByteBuffer.wrap(stats.frameBytes(i)).order(ByteOrder.LITTLE_ENDIAN).getLong();
            }
        } finally {
            stats.release();
        }
        // Three frames in, 6 + 5 + 12 bytes: received by the frontend, sent by the backend; nothing the other way.
        assertThat(values).containsExactly(3, 23, 0, 0, 0, 0, 3, 23);
        assertThat(proxy.statistics().frontendReceivedFrames()).isEqualTo(3);
        assertThat(proxy.statistics().backendSentBytes()).isEqualTo(23);

        commander.send(ZmtpMessage.of("NO SUCH COMMAND"));
        assertThat(recv(commander)).as("REP control answers anything").isEmpty();
        commander.send(ZmtpMessage.of("TERMINATE"));
        assertThat(recv(commander)).isEmpty();
        assertThat(ended.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("run() returned normally").isNull();
    }

    @Test
    void shouldPassEverythingInOrderAndStillAnswerControlWhileTheBackendIsFull() throws Exception {
        ZmtpSocket frontend = socket(PULL);
        String front = frontend.bind(endpoint("tcp"));
        ZmtpSocket backend = socket(PUSH);
        backend.setOption(ZmtpSocketOption.SNDHWM, 10);
        String back = backend.bind(endpoint("inproc"));
        ZmtpSocket control = socket(PAIR);
        String steer = control.bind(endpoint("inproc"));
        ZmtpProxy proxy = ZmtpProxy.builder(frontend, backend).control(control).build();
        start(proxy);

        ZmtpSocket consumer = socket(PULL);
        consumer.setOption(ZmtpSocketOption.RCVHWM, 10);
        consumer.connect(back);
        ZmtpSocket producer = socket(PUSH);
        producer.connect(front);
        int count = 5000;
        CompletableFuture<Void> produced = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < count; i++) {
                producer.send(ZmtpMessage.of(Integer.toString(i)));
            }
        });
        ZmtpSocket commander = socket(PAIR);
        commander.connect(steer);
        // The consumer reads nothing yet: the backend fills (until what it sent stops growing), and the proxy must
        // still answer.
        long sent = -1;
        long previous;
        do {
            previous = sent;
            Thread.sleep(50);
            commander.send(ZmtpMessage.of("STATISTICS"));
            ZmtpMessage stats = commander.receive(WAIT);
            assertThat(stats).as("STATISTICS answered while the backend is full").isNotNull();
            sent = ByteBuffer.wrap(stats.frameBytes(6)).order(ByteOrder.LITTLE_ENDIAN).getLong();
            stats.release();
        } while (sent == 0 || sent != previous);
        assertThat(sent).as("held back by the consumer's HWM").isLessThan(count);
        commander.send(ZmtpMessage.of("STATISTICS"));
        assertThat(commander.receive(WAIT)).as("answered again while full").isNotNull().satisfies(m -> m.release());

        for (int i = 0; i < count; i++) {
            assertThat(recv(consumer)).isEqualTo(Integer.toString(i));
        }
        produced.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(consumer.receive(Duration.ofMillis(100))).as("no duplicates").isNull();
        assertThat(proxy.statistics().backendSentFrames()).isEqualTo(count);
    }

    /** Many requests in flight both ways, small queues: every reply arrives exactly once, at the client that asked. */
    @Test
    void shouldReturnEveryReplyExactlyOnceUnderLoadWithSmallQueues() throws Exception {
        ZmtpSocket frontend = socket(ROUTER);
        String front = frontend.bind(endpoint("tcp"));
        ZmtpSocket backend = socket(DEALER);
        backend.setOption(ZmtpSocketOption.SNDHWM, 50);
        String back = backend.bind(endpoint("inproc"));
        start(ZmtpProxy.builder(frontend, backend).build());

        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            ZmtpSocket worker = socket(DEALER);
            worker.setOption(ZmtpSocketOption.RCVHWM, 20);
            worker.connect(back);
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    // Serves until the test closes the socket (or nothing comes for WAIT): a short idle limit here
                    // ended a worker before the first request on a busy machine.
                    ZmtpMessage m;
                    while ((m = worker.receive(WAIT)) != null) {
                        worker.send(m);
                    }
                } catch (ZmtpSocketException.Closed e) {
                    // the test is over
                }
            }));
        }
        int clients = 4;
        int requests = 2000;
        List<CompletableFuture<Set<String>>> answered = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            ZmtpSocket client = socket(DEALER);
            client.connect(front);
            String name = "client-" + c;
            answered.add(CompletableFuture.supplyAsync(() -> {
                Set<String> replies = new HashSet<>();
                int next = 0;
                // Up to 100 requests in flight per client.
                for (; next < Math.min(100, requests); next++) {
                    client.send(ZmtpMessage.of(name + ":" + next));
                }
                while (replies.size() < requests) {
                    ZmtpMessage m = client.receive(WAIT);
                    assertThat(m).as(name + " reply " + replies.size()).isNotNull();
                    String reply = SocketTestSupport.text(m);
                    assertThat(reply).startsWith(name + ":");
                    assertThat(replies.add(reply)).as("duplicate " + reply).isTrue();
                    if (next < requests) {
                        client.send(ZmtpMessage.of(name + ":" + next++));
                    }
                }
                return replies;
            }));
        }
        for (CompletableFuture<Set<String>> f : answered) {
            assertThat(f.get(scaledSeconds(20), TimeUnit.SECONDS)).hasSize(requests);
        }
    }

    /** The example in docs/sockets.md ("Proxy"), as it is there. */
    @Test
    void shouldRunTheSocketGuideExample() throws Exception {
        ZmtpContext context = sockets.context();
        ZmtpSocket frontend = context.socket(ZmtpSocketType.ROUTER);   // clients (REQ, DEALER) connect here
        frontend.bind("tcp://127.0.0.1:*");
        ZmtpSocket backend = context.socket(ZmtpSocketType.DEALER);    // workers (REP) connect here
        backend.bind("inproc://workers");
        ZmtpSocket control = context.socket(ZmtpSocketType.PAIR);
        control.bind("inproc://proxy-control");
        ZmtpProxy proxy = ZmtpProxy.builder(frontend, backend).control(control).build();
        Thread proxyThread = new Thread(proxy::run);  // returns on TERMINATE, throws Closed if the context closes
        proxyThread.start();

        ZmtpSocket steer = context.socket(ZmtpSocketType.PAIR);
        steer.connect("inproc://proxy-control");
        steer.send("PAUSE");                 // nothing passes; messages wait in the sockets' queues
        steer.send("RESUME");
        steer.send("STATISTICS");            // eight frames: u64 counters, little-endian
        ZmtpMessage statistics = steer.receive();
        statistics.release();
        steer.send("TERMINATE");
        proxyThread.join();

        assertThat(proxyThread.isAlive()).isFalse();
        assertThat(proxy.statistics().frontendReceivedFrames()).isZero();
    }

    @Test
    void shouldEndWithClosedWhenItsContextCloses() throws Exception {
        ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build();
        ZmtpSocket frontend = context.socket(ROUTER);
        frontend.bind(endpoint("inproc"));
        ZmtpSocket backend = context.socket(DEALER);
        backend.bind(endpoint("tcp"));
        CompletableFuture<Throwable> ended = start(ZmtpProxy.builder(frontend, backend).build());
        context.close();
        assertThat(ended.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(ZmtpSocketException.Closed.class);
    }

    @Test
    void shouldRejectAControlSocketThatCannotTakeCommandsAndSharedSockets() {
        ZmtpSocket frontend = socket(ROUTER);
        ZmtpSocket backend = socket(DEALER);
        assertThatThrownBy(() -> ZmtpProxy.builder(frontend, backend).control(socket(PUB)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PUB");
        assertThatThrownBy(() -> ZmtpProxy.builder(frontend, backend).capture(backend).build())
                .isInstanceOf(IllegalArgumentException.class);
    }
}
