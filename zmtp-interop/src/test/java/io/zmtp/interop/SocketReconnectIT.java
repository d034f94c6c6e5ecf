package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A restarted peer: our connecting PUSH keeps sending (about one message a millisecond, from its own thread) while
 * the bound PULL peer is killed (libzmq: the Python process is killed; JeroMQ: its context is closed) and a new
 * one binds the same port. Our socket must reconnect by itself and delivery must resume, in order, with nothing
 * delivered twice; only what was in flight to the dead peer may be lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketReconnectIT {
    private static final Logger LOG = LoggerFactory.getLogger(SocketReconnectIT.class);
    private static final int BEFORE = 200;
    private static final int AFTER = 300;

    @ParameterizedTest(name = "our PUSH -> {0} PULL killed and restarted on the same port")
    @EnumSource(SocketPeer.Kind.class)
    void reconnectsToRestartedPeer(SocketPeer.Kind kind) throws Exception {
        SocketPeer first = kind.start();
        try (ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            new SocketEnd.Theirs(first, "p", ZmtpSocketType.PULL);
            String endpoint = first.ok("bind p tcp://127.0.0.1:*");
            LOG.info("our PUSH -> {} PULL at {}, to be restarted", first.version(), endpoint);
            ZmtpSocket push = ctx.socket(ZmtpSocketType.PUSH);
            push.setOption(ZmtpSocketOption.LINGER, 0);
            push.connect(endpoint);

            AtomicLong accepted = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> senderError = new AtomicReference<>();
            Thread sender = new Thread(() -> {
                try {
                    long seq = 0;
                    while (!stop.get()) {
                        ZmtpMessage m = ZmtpMessage.ofBytes(SocketPeer.bytes("r"), SocketPeer.bytes(Long.toString(seq)),
                                SocketPeer.payload(seq));
                        // While the peer is down the pipe queues up to SNDHWM, then send waits; a timeout is a retry.
                        if (push.send(m, Duration.ofMillis(100))) {
                            accepted.set(++seq);
                        }
                        Thread.sleep(1);
                    }
                } catch (Throwable t) {
                    senderError.set(t);
                }
            }, "push-sender");
            sender.setDaemon(true);
            sender.start();
            try {
                assertThat(first.call("recvseq p " + BEFORE + " r 10000"))
                        .isEqualTo("OK received=" + BEFORE + " ignored=0");
                long killedAt = System.nanoTime();
                first.kill();
                long acceptedAtKill = accepted.get();

                try (SocketPeer second = kind.start()) {
                    new SocketEnd.Theirs(second, "p", ZmtpSocketType.PULL);
                    bindAgain(second, endpoint);
                    List<byte[]> firstAfter = SocketPeer.frames(second.call("recv p " + scaledMillis(10_000)));
                    assertThat(firstAfter).as("a message after the restart").isNotNull();
                    long resumedMs = (System.nanoTime() - killedAt) / 1_000_000;
                    long seq = Long.parseLong(SocketPeer.text(firstAfter.get(1)));
                    assertThat(SocketPeer.check(firstAfter, SocketPeer.bytes("r"), seq)).isNull();
                    assertThat(seq).as("first sequence number after the restart").isGreaterThanOrEqualTo(BEFORE);
                    // Then AFTER more, in order (drain checks that sequence numbers increase).
                    Map<String, Integer> c = SocketDistributionIT.counts(
                            second.ok("drain p " + scaledMillis(5000) + " 0 " + AFTER));
                    assertThat(c).containsEntry("total", AFTER).containsEntry("r", AFTER);
                    LOG.info("{} PULL restarted: our PUSH had {} accepted at the kill; the new peer got #{} first, {} ms"
                            + " after the kill ({} lost in the crash), then {} more in order", kind, acceptedAtKill,
                            seq, resumedMs, seq - BEFORE, AFTER);
                }
            } finally {
                stop.set(true);
                sender.join(5000);
            }
            assertThat(senderError.get()).isNull();
        } finally {
            first.close();
        }
    }

    /** Binds the port the killed peer had; the kernel may take a moment to free it. */
    private static void bindAgain(SocketPeer peer, String endpoint) throws InterruptedException {
        long deadline = System.nanoTime() + scaled(Duration.ofSeconds(10)).toNanos();
        while (true) {
            String reply = peer.call("bind p " + endpoint);
            if (reply.startsWith("OK")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("cannot bind " + endpoint + " again: " + reply);
            }
            Thread.sleep(100);
        }
    }
}
