package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.CLIENT;
import static io.zmtp.codec.ZmtpSocketType.DISH;
import static io.zmtp.codec.ZmtpSocketType.SERVER;
import static io.zmtp.interop.ThreadSafeInteropIT.WAIT;
import static io.zmtp.interop.ThreadSafeInteropIT.drained;
import static io.zmtp.interop.ThreadSafeInteropIT.sleep;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Peers coming and going around the thread-safe types, against libzmq 4.3.5 with drafts (zeromq.js) and JeroMQ
 * 0.6.0 over tcp: what a socket must remember or forget about a peer when its connection ends.
 */
class ThreadSafeLifecycleIT {

    /**
     * Their RADIO goes away and a new one binds the same endpoint: our DISH reconnects and joins its groups again
     * on the new connection (JOINs sent as it starts), so messages to them arrive again; a group left before the
     * reconnection doesn't reach the application (whether its JOIN went out again can't be seen from here: our DISH
     * drops a group it hasn't joined either way).
     */
    @ParameterizedTest(name = "{0} tcp: our DISH rejoins after their RADIO restarts")
    @EnumSource(DraftPeer.Kind.class)
    void dishRejoinsOnReconnection(DraftPeer.Kind kind) {
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket dish = ctx.socket(DISH);
            dish.join("g1");
            dish.join("g2");
            dish.join("g3");
            peer.ok("new r RADIO");
            String endpoint = peer.ok("bind r tcp://127.0.0.1:*");
            dish.connect(endpoint);
            awaitGroup(peer, "r", dish, "g1");
            dish.leave("g3");
            peer.ok("close r");
            peer.ok("new r2 RADIO");
            // JeroMQ closes the old listener on its I/O thread, a moment after the socket's close: retry the bind.
            for (long end = System.nanoTime() + WAIT.toNanos(); ; sleep(50)) {
                String answer = peer.call("bind r2 " + endpoint);
                if (answer.startsWith("OK")) {
                    break;
                }
                assertThat(System.nanoTime()).as("bind r2 %s: %s", endpoint, answer).isLessThan(end);
            }
            // g3, left, is sent first in each round: were it delivered it would arrive before g1.
            String got = awaitGroup(peer, "r2", dish, "g1", "g3");
            assertThat(got).isEqualTo("g1");
            awaitGroup(peer, "r2", dish, "g2");
        }
    }

    /**
     * Sends rounds from their RADIO (the groups in {@code groups}, then {@code group} last in each round) until our
     * DISH receives a message of one of them; returns its group. Messages of other groups can't arrive (not joined).
     */
    private static String awaitGroup(DraftPeer peer, String radio, ZmtpSocket dish, String group, String... before) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (int i = 0; ; i++) {
            assertThat(System.nanoTime()).as("a %s message through within %s", group, WAIT).isLessThan(deadline);
            for (String g : before) {
                peer.ok("send " + radio + " x-" + i + " group=" + g);
            }
            peer.ok("send " + radio + " m-" + i + " group=" + group);
            ZmtpMessage m = dish.receive(Duration.ofMillis(50));
            if (m != null) {
                String g = m.group();
                m.release();
                // Drain what else of this burst came.
                for (ZmtpMessage rest; (rest = dish.receive(Duration.ofMillis(100))) != null; ) {
                    assertThat(rest.group()).isIn(group, g);
                    rest.release();
                }
                return g;
            }
        }
    }

    /**
     * Their CLIENT goes away: our SERVER forgets its routing id (a send to it fails with HostUnreachable once the
     * disconnection is seen), while the other client's id still routes.
     */
    @ParameterizedTest(name = "{0} tcp: our SERVER forgets a CLIENT that left")
    @EnumSource(DraftPeer.Kind.class)
    void serverForgetsClientThatLeft(DraftPeer.Kind kind) {
        try (DraftPeer peer = kind.start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket server = ctx.socket(SERVER);
            String endpoint = server.bind("tcp://127.0.0.1:*");
            Map<String, Integer> rids = new HashMap<>();
            for (String c : List.of("c0", "c1")) {
                peer.ok("new " + c + " " + CLIENT);
                peer.ok("connect " + c + " " + endpoint);
                peer.ok("send " + c + " " + c);
                ZmtpMessage m = server.receive(WAIT);
                assertThat(m).as("%s's hello", c).isNotNull();
                rids.put(m.frameString(0), m.routingId());
                m.release();
            }
            peer.ok("close c0");
            boolean forgotten = false;
            for (long end = System.nanoTime() + WAIT.toNanos(); !forgotten && System.nanoTime() < end; ) {
                try {
                    server.send(ZmtpMessage.of("to-c0").routingId(rids.get("c0")));
                    sleep(50);
                } catch (ZmtpSocketException.HostUnreachable e) {
                    forgotten = true;
                }
            }
            assertThat(forgotten).as("c0's routing id %s unreachable after it left", rids.get("c0")).isTrue();
            server.send(ZmtpMessage.of("to-c1").routingId(rids.get("c1")));
            assertThat(drained(peer.ok("drain c1 " + scaledMillis(300)))).containsExactly("to-c1");
        }
    }
}
