package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.CLIENT;
import static io.zmtp.codec.ZmtpSocketType.GATHER;
import static io.zmtp.codec.ZmtpSocketType.RADIO;
import static io.zmtp.codec.ZmtpSocketType.SERVER;
import static io.zmtp.interop.ThreadSafeInteropIT.WAIT;
import static io.zmtp.interop.ThreadSafeInteropIT.drained;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One socket of ours used by several threads at once (what the thread-safe types are for) against a real peer:
 * libzmq 4.3.5 with drafts (zeromq.js) or JeroMQ 0.6.0, over tcp.
 */
class ThreadSafeSharedSocketIT {
    /**
     * What the thread-safe types are for, against a real peer: one CLIENT used by four sending and two receiving
     * threads at once, their SERVER echoing; every message comes back once, intact, from one routing id.
     */
    @ParameterizedTest(name = "{0} tcp: one CLIENT of ours, 4 sending and 2 receiving threads, their SERVER")
    @EnumSource(DraftPeer.Kind.class)
    void clientSharedByThreads(DraftPeer.Kind kind) throws Exception {
        int senders = 4;
        int each = 250;
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket client = ctx.socket(CLIENT);
            peer.ok("new s SERVER");
            client.connect(peer.ok("bind s tcp://127.0.0.1:*"));
            peer.submit("echo s " + senders * each + " " + scaledMillis(10_000));
            Set<String> back = ConcurrentHashMap.newKeySet();
            ExecutorService threads = Executors.newFixedThreadPool(senders + 2);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < senders; t++) {
                    String prefix = "t" + t + "-";
                    work.add(threads.submit(() -> {
                        for (int i = 0; i < each; i++) {
                            assertThat(client.send(ZmtpMessage.of(prefix + i), WAIT)).isTrue();
                        }
                        return null;
                    }));
                }
                // Each receiving thread reads until all are back or nothing came for WAIT (it stopped after 500 ms
                // without a message, which a busy machine's pause could outlast with messages still to come).
                for (int r = 0; r < 2; r++) {
                    work.add(threads.submit(() -> {
                        long lastMessage = System.nanoTime();
                        while (back.size() < senders * each && System.nanoTime() - lastMessage < WAIT.toNanos()) {
                            ZmtpMessage m = client.receive(Duration.ofMillis(100));
                            if (m != null) {
                                lastMessage = System.nanoTime();
                                try {
                                    assertThat(back.add(m.frameString(0))).as("%s back once", m.frameString(0))
                                            .isTrue();
                                } finally {
                                    m.release();
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) {
                    f.get(scaledSeconds(30), TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(back).hasSize(senders * each);
            assertThat(DraftPeer.fields(peer.okReply("echo")).get("rids")).doesNotContain(",").isNotEqualTo("0");
        }
    }

    /**
     * One SERVER of ours serving their two CLIENTs from two threads at once, each receiving and replying by routing
     * id: each client gets back exactly its own 200.
     */
    @ParameterizedTest(name = "{0} tcp: one SERVER of ours, 2 threads replying, their 2 CLIENTs")
    @EnumSource(DraftPeer.Kind.class)
    void serverSharedByThreads(DraftPeer.Kind kind) throws Exception {
        int each = 200;
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket server = ctx.socket(SERVER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            for (String c : List.of("c0", "c1")) {
                peer.ok("new " + c + " CLIENT");
                peer.ok("connect " + c + " " + endpoint);
            }
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                AtomicInteger served = new AtomicInteger();
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    work.add(threads.submit(() -> {
                        while (served.get() < 2 * each) {
                            ZmtpMessage m = server.receive(Duration.ofMillis(200));
                            if (m != null) {
                                served.incrementAndGet();
                                server.send(ZmtpMessage.of("re-" + m.frameString(0)).routingId(m.routingId()));
                                m.release();
                            }
                        }
                        return null;
                    }));
                }
                peer.ok("sendn c0 " + each + " c0");
                peer.ok("sendn c1 " + each + " c1");
                for (Future<?> f : work) {
                    f.get(scaledSeconds(30), TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            for (String c : List.of("c0", "c1")) {
                List<String> got = drained(peer.ok("drain " + c + " " + scaledMillis(500)));
                assertThat(got).as("what their %s got", c).hasSize(each).allMatch(b -> b.startsWith("re-" + c + "-"))
                        .doesNotHaveDuplicates();
            }
        }
    }

}
