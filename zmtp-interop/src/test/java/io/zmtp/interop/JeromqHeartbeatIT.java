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
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;

/**
 * Heartbeats toward JeroMQ 0.6.0, which greets as ZMTP 3.0: like libzmq we PING 3.0 peers, JeroMQ answers, and a
 * JeroMQ peer that goes silent without a FIN is closed by our heartbeat timeout. The silence comes from a relay that
 * stops forwarding but keeps both connections open. Only generous "within 10 s" waits for what takes ~300 ms.
 */
class JeromqHeartbeatIT {
    private static final Logger LOG = LoggerFactory.getLogger(JeromqHeartbeatIT.class);
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));

    @Test
    void silentJeromqPeerIsClosedByOurHeartbeatTimeout() throws Exception {
        LOG.info("heartbeat timeout: our DEALER -> relay -> {} ROUTER, then the relay goes silent", JeroMq.version());
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Handlers.Passive ours = new Handlers.Passive(true);
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                .heartbeatIntervalMillis(100)
                .heartbeatTimeoutMillis(300)
                .build();
        try (NettyZmtp netty = new NettyZmtp();
             JeroMq.Peer peer = new JeroMq.Peer(SocketType.ROUTER, null, socket -> {
                 stop.get(scaledSeconds(60), TimeUnit.SECONDS);
                 return "stopped";
             })) {
            try (SilenceableRelay relay = new SilenceableRelay(
                    Interop.await(peer.endpoint, Interop.HANDSHAKE_WAIT, "JeroMQ bind", () -> ""))) {
                Channel channel = netty.connect(relay.endpoint(), config, ours);
                ZmtpHandshakeSuccessEvent handshake = Interop.await(ours.handshake, Interop.HANDSHAKE_WAIT, "handshake",
                        Interop.context(ours, peer));
                assertThat(handshake.version()).isEqualTo(ZmtpVersion.ZMTP_30);

                // Alive on heartbeats alone: we PING the 3.0 peer and JeroMQ answers.
                long deadline = System.nanoTime() + WAIT.toNanos();
                // The sniffer is installed just after the handshake future completes.
                while ((ours.sniffer == null || ours.sniffer.pongsIn.get() < 3) && channel.isActive()
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(ours.sniffer).as("heartbeat sniffer").isNotNull();
                assertThat(ours.sniffer.pongsIn.get()).as("JeroMQ's PONGs within " + WAIT + ", " + ours.sniffer
                        + Interop.context(ours, peer).get()).isGreaterThanOrEqualTo(3);
                assertThat(channel.isActive()).as("connection alive while JeroMQ answers").isTrue();
                assertThat(ours.events).containsExactly(handshake);

                relay.silence();
                boolean closed = channel.closeFuture().awaitUninterruptibly(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(closed).as("our side closed the silent connection within " + WAIT + ", " + ours.sniffer
                        + Interop.context(ours, peer).get()).isTrue();
                assertThat(ours.events).filteredOn(ZmtpProtocolErrorEvent.class::isInstance)
                        .singleElement()
                        .satisfies(e -> assertThat(((ZmtpProtocolErrorEvent) e).cause())
                                .hasMessageContaining("heartbeat expired"));
                LOG.info("silent JeroMQ peer: {}, events {}", ours.sniffer, ours.events);
            } finally {
                stop.complete(null);
            }
            assertThat(Interop.await(peer.result, WAIT, "JeroMQ peer", () -> "")).isEqualTo("stopped");
        }
    }
}
