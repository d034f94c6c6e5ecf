package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.CLIENT;
import static io.zmtp.codec.ZmtpSocketType.RADIO;
import static io.zmtp.interop.ThreadSafeInteropIT.WAIT;
import static io.zmtp.interop.ThreadSafeInteropIT.drained;
import static io.zmtp.interop.ThreadSafeInteropIT.sleep;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPeer;
import io.zmtp.socket.ZmtpSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One socket of ours with two foreign peers (libzmq 4.3.5 with drafts through zeromq.js, or JeroMQ 0.6.0, over tcp):
 * RADIO routing each group to the DISHes that joined it, CLIENT round-robin over two SERVERs.
 */
class ThreadSafeFanOutIT {

    /**
     * Our RADIO, their DISH d0 in groups a and both, d1 in b and both. Seen from our side (what each connection is
     * written, so a DISH's own filtering can't hide a misrouted message): a round of a, b and both writes two
     * messages to each; after d0 leaves both, one to d0 and still two to d1. Their DISHes get only their groups.
     */
    @ParameterizedTest(name = "{0} tcp: our RADIO routes each group to the DISHes that joined it")
    @EnumSource(DraftPeer.Kind.class)
    void radioRoutesEachGroupToItsDishes(DraftPeer.Kind kind) {
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket radio = ctx.socket(RADIO);
            List<String> endpoints = new ArrayList<>();
            for (String d : List.of("d0", "d1")) {
                peer.ok("new " + d + " DISH");
                peer.ok("join " + d + (d.equals("d0") ? " a" : " b"));
                peer.ok("join " + d + " both");
                endpoints.add(peer.ok("bind " + d + " tcp://127.0.0.1:*"));
            }
            // Connecting to each, our peers are told apart by endpoint.
            endpoints.forEach(radio::connect);
            awaitRound(peer, radio, endpoints, 2, 2, "both DISHes' JOINs applied");
            for (int i = 0; i < 5; i++) {
                assertThat(round(radio, endpoints)).as("round %d: messages written to d0, d1", i).containsExactly(2L, 2L);
            }
            String drain = " " + scaledMillis(300);
            assertThat(drained(peer.ok("drain d0" + drain))).as("d0").isNotEmpty()
                    .allMatch(s -> s.matches("(a|both):.*"));
            assertThat(drained(peer.ok("drain d1" + drain))).as("d1").isNotEmpty()
                    .allMatch(s -> s.matches("(b|both):.*"));
            peer.ok("leave d0 both");
            awaitRound(peer, radio, endpoints, 1, 2, "d0's LEAVE applied, d1 still in both");
            assertThat(drained(peer.ok("drain d0 300"))).as("d0 after leaving both").allMatch(s -> s.startsWith("a:"));
        }
    }

    private static void awaitRound(DraftPeer peer, ZmtpSocket radio, List<String> endpoints, long d0, long d1,
                                   String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<Long> got;
        while (!(got = round(radio, endpoints)).equals(List.of(d0, d1))) {
            // libzmq and JeroMQ attach a connection a DISH accepted (and send its JOINs) only when the DISH's
            // application next calls into it: without this, an idle DISH never joins.
            peer.ok("poke d0");
            peer.ok("poke d1");
            assertThat(System.nanoTime()).as("%s within %s (a round wrote %s to d0, d1; expected %d, %d; %s)", what,
                    WAIT, got, d0, d1, radio.peers()).isLessThan(deadline);
        }
    }

    /** Sends one message to each of a, b and both; returns how many each DISH's connection was written. */
    private static List<Long> round(ZmtpSocket radio, List<String> endpoints) {
        List<Long> before = written(radio, endpoints);
        for (String g : List.of("a", "b", "both")) {
            radio.send(ZmtpMessage.of("m").group(g));
        }
        // Written on the I/O thread: settle until nothing more is queued, then a little more.
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (radio.outgoingMessages() > 0 && System.nanoTime() < deadline) {
            sleep(5);
        }
        sleep(30);
        List<Long> after = written(radio, endpoints);
        return List.of(after.get(0) - before.get(0), after.get(1) - before.get(1));
    }

    private static List<Long> written(ZmtpSocket radio, List<String> endpoints) {
        List<Long> counts = new ArrayList<>();
        for (String e : endpoints) {
            counts.add(radio.peers().stream().filter(p -> p.endpoint().equals(e)).mapToLong(ZmtpPeer::sentCount)
                    .sum());
        }
        return counts;
    }

    /** Our CLIENT connected to their two SERVERs: ten requests go five to each, and all ten replies come back. */
    @ParameterizedTest(name = "{0} tcp: our CLIENT round-robins over their two SERVERs")
    @EnumSource(DraftPeer.Kind.class)
    void clientRoundRobinsOverServers(DraftPeer.Kind kind) {
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket client = ctx.socket(CLIENT);
            for (String s : List.of("s0", "s1")) {
                peer.ok("new " + s + " SERVER");
                client.connect(peer.ok("bind " + s + " tcp://127.0.0.1:*"));
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (client.peers().stream().filter(p -> p.state() == ZmtpPeer.State.CONNECTED).count() < 2) {
                assertThat(System.nanoTime()).as("both connected: %s", client.peers()).isLessThan(deadline);
                sleep(10);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(client.send(ZmtpMessage.of("r-" + i), WAIT)).isTrue();
            }
            // Each echo waits for exactly five: a sixth to one server would leave the other's echo short.
            assertThat(peer.ok("echo s0 5 " + scaledMillis(3000))).startsWith("n=5 rids=");
            assertThat(peer.ok("echo s1 5 " + scaledMillis(3000))).startsWith("n=5 rids=");
            List<String> back = new ArrayList<>();
            for (ZmtpMessage m; back.size() < 10 && (m = client.receive(WAIT)) != null; m.release()) {
                back.add(m.frameString(0));
            }
            assertThat(back).hasSize(10).doesNotHaveDuplicates();
        }
    }
}
