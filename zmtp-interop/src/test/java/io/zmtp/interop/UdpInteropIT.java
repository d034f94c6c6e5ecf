package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.DatagramSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RADIO and DISH over udp:// (unicast on 127.0.0.1) against libzmq 4.3.5 (zeromq.js, drafts on), both directions:
 * their RADIO to our DISH, our RADIO to their DISH. JeroMQ 0.6.0 has no udp:// (its bind and connect fail with
 * "Errno 43: Protocol not supported"; users have asked for it, jeromq#757), so it has no case here. Over udp the DISH filters (the RADIO sends every
 * message), so each case sends a group the DISH did not join and checks it never arrives. Multicast is
 * {@link UdpMulticastIT}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UdpInteropIT {

    private static int freeUdpPort() throws Exception {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest
    @EnumSource(value = DraftPeer.Kind.class, names = "LIBZMQ")
    void shouldReceiveTheirRadiosJoinedGroupOnOurDish(DraftPeer.Kind kind) throws Exception {
        try (ZmtpContext context = new ZmtpContext(); DraftPeer peer = kind.start()) {
            ZmtpSocket dish = context.socket(ZmtpSocketType.DISH);
            dish.join("g1");
            String endpoint = dish.bind("udp://127.0.0.1:" + freeUdpPort());
            peer.ok("new r RADIO");
            peer.ok("connect r " + endpoint);
            ZmtpMessage m = null;
            for (int i = 0; i < 200 && m == null; i++) {
                peer.ok("send r other-" + i + " group=g2");
                peer.ok("send r hello-" + i + " group=g1");
                m = dish.receive(Duration.ofMillis(50));
            }
            assertThat(m).as("a g1 datagram from " + peer).isNotNull();
            assertThat(m.group()).isEqualTo("g1");
            assertThat(m.frameString(0)).startsWith("hello-");
            m.release();
            ZmtpMessage next;
            while ((next = dish.receive(Duration.ofMillis(300))) != null) {
                assertThat(next.group()).as("only the joined group").isEqualTo("g1");
                next.release();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = DraftPeer.Kind.class, names = "LIBZMQ")
    void shouldDeliverOurRadiosJoinedGroupToTheirDish(DraftPeer.Kind kind) throws Exception {
        try (ZmtpContext context = new ZmtpContext(); DraftPeer peer = kind.start()) {
            int port = freeUdpPort();
            peer.ok("new d DISH");
            peer.ok("join d g1");
            String endpoint = "udp://127.0.0.1:" + port;
            peer.ok("bind d " + endpoint);
            ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
            radio.connect(endpoint);
            String got = "NONE";
            long deadline = System.nanoTime() + scaled(Duration.ofSeconds(5)).toNanos();
            for (int i = 0; got.startsWith("NONE") && System.nanoTime() - deadline < 0; i++) {
                radio.send(ZmtpMessage.of("other-" + i).group("g2"));
                radio.send(ZmtpMessage.of("hello-" + i).group("g1"));
                got = peer.call("recv d 50");
            }
            assertThat(got).as(peer + " received").startsWith("MSG hello-").contains("group=g1");
            String rest = peer.call("drain d 300");
            assertThat(rest).as("only the joined group reaches their DISH").doesNotContain("g2:");
        }
    }
}
