package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.interop.Interop.Link;
import io.zmtp.interop.Interop.Side;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZMTP 3.1 heartbeats against libzmq: we answer a libzmq peer's PINGs so it keeps the connection, libzmq answers
 * ours, and a peer that goes silent is closed by our timeout with a {@link ZmtpProtocolErrorEvent}. Only generous
 * "within 10 s" waits: no assertion depends on exact timing.
 */
class LibzmqHeartbeatIT {
    private static final Logger LOG = LoggerFactory.getLogger(LibzmqHeartbeatIT.class);
    private static final Duration CLOSE_WAIT = scaled(Duration.ofSeconds(10));

    /**
     * A libzmq DEALER with ZMQ_HEARTBEAT_IVL=100 ms, TTL=1 s, TIMEOUT=300 ms connects to our ROUTER (which pings
     * too, every 100 ms with a 300 ms timeout) and stays silent for 1.5 s: only heartbeats flow. libzmq would drop
     * the connection if a PING of its went unanswered for 300 ms, and so would we. Afterwards its first connection
     * is still up (monitor: one handshake, no disconnect), a message is still echoed, and we accepted one connection.
     */
    @Test
    void libzmqPeerWithHeartbeatsStaysConnected() {
        LOG.info("heartbeats: {} DEALER (IVL 100 ms, TTL 1000 ms, TIMEOUT 300 ms) -> our ROUTER", Interop.libzmq());
        Handlers.Echo echo = new Handlers.Echo(true);
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                .heartbeatIntervalMillis(100)
                .heartbeatTimeoutMillis(300)
                .build();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, Side.WE_BIND, config, echo, false,
                    "heartbeat_peer.py", "{endpoint}", "100", "1000", "300", "1500");
            try (PyZmq.Peer peer = link.peer()) {
                ZmtpHandshakeSuccessEvent handshake = Interop.await(echo.handshake, Interop.HANDSHAKE_WAIT, "handshake",
                        Interop.context(echo, peer));
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_31);

                String result = Interop.result(peer);
                Handlers.HeartbeatSniffer sniffer = echo.sniffer;
                LOG.info("heartbeats with libzmq DEALER: {}; ours: {}", result, sniffer);
                assertThat(result).startsWith("RESULT OK").contains("handshakes=1", "disconnects=0",
                        "echo=after-silence");
                assertThat(link.server().acceptedCount()).as("connections accepted").isEqualTo(1);
                assertThat(echo.events).as("events").containsExactly(handshake);
                // ~15 each way in 1.5 s; "at least 5" leaves room for a slow machine.
                assertThat(sniffer.pingsIn.get()).as("libzmq's PINGs").isGreaterThanOrEqualTo(5);
                assertThat(sniffer.pingTtls).as("TTL of libzmq's PINGs, deciseconds").containsOnly(10);
                assertThat(sniffer.pongsOut.get()).as("our PONGs").isGreaterThanOrEqualTo(5);
                assertThat(sniffer.pingsOut.get()).as("our PINGs").isGreaterThanOrEqualTo(5);
                assertThat(sniffer.pongsIn.get()).as("libzmq's PONGs").isGreaterThanOrEqualTo(5);
                peer.awaitExit(Duration.ofSeconds(10));
            }
        }
    }

    /**
     * Our DEALER (PING every 100 ms, 300 ms timeout) against a hand-made ZMTP 3.1 peer on a raw socket that
     * completes the greeting and READY and then never sends another byte: our side closes the connection and fires
     * a ZmtpProtocolErrorEvent; the peer saw our PINGs and the close.
     */
    @Test
    void silentPeerIsClosedByOurTimeout() {
        LOG.info("heartbeat timeout: our DEALER -> silent raw-socket ZMTP 3.1 peer (python {})",
                PyZmq.versions().pyzmq());
        Handlers.Passive ours = new Handlers.Passive();
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                .heartbeatIntervalMillis(100)
                .heartbeatTimeoutMillis(300)
                .build();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, Side.THEY_BIND, config, ours, false, "silent_peer.py", "ROUTER");
            try (PyZmq.Peer peer = link.peer()) {
                Interop.await(ours.handshake, Interop.HANDSHAKE_WAIT, "handshake", Interop.context(ours, peer));
                assertClosedByHeartbeat(link.channel(), ours, peer);
                String result = Interop.result(peer);
                LOG.info("silent peer: {}; ours: {}", result, ours.events);
                assertThat(result).startsWith("RESULT OK").contains("closed=1").doesNotContain("pings=0");
                peer.awaitExit(Duration.ofSeconds(10));
            }
        }
    }

    /**
     * Our DEALER (PING every 100 ms, 300 ms timeout) connected to a libzmq ROUTER: libzmq answers our PINGs, so the
     * connection stays up; then the libzmq process is frozen with SIGSTOP and our timeout closes the connection.
     */
    @Test
    void frozenLibzmqPeerIsClosedByOurTimeout() throws Exception {
        LOG.info("heartbeat timeout: our DEALER -> {} ROUTER, then SIGSTOP", Interop.libzmq());
        Handlers.Passive ours = new Handlers.Passive(true);
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                .heartbeatIntervalMillis(100)
                .heartbeatTimeoutMillis(300)
                .build();
        try (NettyZmtp netty = new NettyZmtp()) {
            Link link = Interop.link(netty, Side.THEY_BIND, config, ours, false,
                    "hold_peer.py", "ROUTER", "{endpoint}", "{mode}", "30");
            try (PyZmq.Peer peer = link.peer()) {
                Interop.await(ours.handshake, Interop.HANDSHAKE_WAIT, "handshake", Interop.context(ours, peer));
                // Alive on heartbeats alone for a while: libzmq answers our PINGs.
                Thread.sleep(1000);
                assertThat(link.channel().isActive()).as("connection alive after 1 s of heartbeats").isTrue();
                assertThat(ours.sniffer.pongsIn.get()).as("libzmq's PONGs").isGreaterThanOrEqualTo(3);
                signal("STOP", peer);
                try {
                    assertClosedByHeartbeat(link.channel(), ours, peer);
                } finally {
                    signal("CONT", peer);
                }
                LOG.info("frozen libzmq peer: ours: {}, {}", ours.sniffer, ours.events);
            }
        }
    }

    private static void assertClosedByHeartbeat(Channel channel, PeerHandler ours, PyZmq.Peer peer) {
        boolean closed = channel.closeFuture().awaitUninterruptibly(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(closed).as("our side closed the silent connection within " + CLOSE_WAIT
                + Interop.context(ours, peer).get()).isTrue();
        assertThat(ours.events).filteredOn(ZmtpProtocolErrorEvent.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(((ZmtpProtocolErrorEvent) e).cause()).hasMessageContaining("heartbeat"));
    }

    private static void signal(String signal, PyZmq.Peer peer) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(peer.pid())).inheritIO().start();
        assertThat(kill.waitFor(scaledSeconds(10), TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -" + signal)
                .isTrue();
    }
}
