package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.zmtp.interop.LegacyPayloads.TO_PEER;
import static io.zmtp.interop.LegacyPayloads.message;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Our PUB and XPUB sockets publishing to a ZMTP 1.0 subscriber: Spotify's netty-zmtp 0.4.0 in its 1.0 mode, which,
 * like every 1.0 SUB, never sends a subscription and filters on its side. As libzmq does, we count such a peer as
 * subscribed to everything; an XPUB application sees that subscription as a {@code 0x01} message.
 */
class SpotifySubscriberIT {
    private static final int COUNT = 500;
    private static SpotifyPeer peer;

    @BeforeAll
    static void start() {
        peer = SpotifyPeer.start();
    }

    @AfterAll
    static void stop() {
        if (peer != null) {
            peer.close();
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"PUB", "XPUB"})
    void aZmtp10SubscriberGetsEverythingPublished(ZmtpSocketType ourType) throws Exception {
        long seed = 42 + ourType.ordinal();
        try (ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(5000).build();
             ZmtpSocket pub = ctx.socket(ourType)) {
            pub.setOption(ZmtpSocketOption.SNDHWM, 0);
            pub.setOption(ZmtpSocketOption.LINGER, 5000);
            CountDownLatch connected = new CountDownLatch(1);
            pub.monitor(e -> {
                if (e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED) {
                    connected.countDown();
                }
            });
            String endpoint = pub.bind("tcp://127.0.0.1:*");
            String port = endpoint.substring(endpoint.lastIndexOf(':') + 1);
            peer.send("RUN role=client port=" + port + " protocol=ZMTP10 interop=false type=SUB identity=-"
                    + " send=0 recv=" + COUNT + " lockstep=none subscription=none seed=" + seed);
            assertThat(peer.readLine()).isEqualTo("HANDSHAKE version=ZMTP10 identity=- type=-");
            assertThat(connected.await(scaledSeconds(10), TimeUnit.SECONDS)).as("our side of the handshake").isTrue();
            if (ourType == ZmtpSocketType.XPUB) {
                ZmtpMessage subscription = pub.receive(scaled(Duration.ofSeconds(5)));
                assertThat(subscription).as("the subscription XPUB reports for the 1.0 peer").isNotNull();
                assertThat(subscription.size()).isEqualTo(1);
                assertThat(subscription.frameBytes(0)).containsExactly(1);
                subscription.release();
            }
            for (int i = 0; i < COUNT; i++) {
                pub.send(ZmtpMessage.ofBytes(message(TO_PEER, seed, i)));
            }
            assertThat(peer.readLine()).as("netty-zmtp's result")
                    .isEqualTo("RESULT ok sent=0 received=" + COUNT);
            assertThat(pub.droppedCount()).isZero();
        }
        assertThat(peer.readLine(Duration.ofSeconds(30))).isEqualTo("CLOSED");
    }
}
