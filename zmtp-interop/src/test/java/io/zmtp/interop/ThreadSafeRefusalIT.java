package io.zmtp.interop;

import static io.zmtp.codec.ZmtpSocketType.CLIENT;
import static io.zmtp.codec.ZmtpSocketType.GATHER;
import static io.zmtp.codec.ZmtpSocketType.RADIO;
import static io.zmtp.codec.ZmtpSocketType.SERVER;
import static io.zmtp.interop.ThreadSafeInteropIT.WAIT;
import static io.zmtp.interop.ThreadSafeInteropIT.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPeer;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * rfc 37's socket-type rule for the thread-safe types against libzmq 4.3.5 with drafts (zeromq.js) and JeroMQ 0.6.0:
 * a few mismatched pairs, our side binding or connecting, over tcp.
 */
class ThreadSafeRefusalIT {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadSafeRefusalIT.class);

    /** A mismatched pair (rfc 37's table): ours, theirs, and whether ours binds. */
    record Mismatch(DraftPeer.Kind peer, ZmtpSocketType ours, ZmtpSocketType theirs, boolean oursBinds) {
        @Override
        public String toString() {
            return peer + " tcp: our " + ours + (oursBinds ? " binds" : " connects") + ", their " + theirs
                    + " refused";
        }
    }

    static Stream<Mismatch> mismatches() {
        List<Mismatch> cases = new ArrayList<>();
        for (DraftPeer.Kind peer : DraftPeer.Kind.values()) {
            cases.add(new Mismatch(peer, CLIENT, ZmtpSocketType.DEALER, false));
            cases.add(new Mismatch(peer, SERVER, ZmtpSocketType.ROUTER, true));
            cases.add(new Mismatch(peer, RADIO, ZmtpSocketType.SUB, true));
            cases.add(new Mismatch(peer, GATHER, ZmtpSocketType.PUSH, false));
        }
        return cases.stream();
    }

    /**
     * The handshake of a mismatched pair fails on our side, with INCOMPATIBLE_SOCKET_TYPE once at least (when libzmq
     * reads our READY before writing its own it just closes, which we see as CONNECTION_CLOSED: the connecting side
     * retries, so the precise reason comes), and never succeeds; nothing reaches their socket.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("mismatches")
    void socketTypeRefused(Mismatch c) {
        try (DraftPeer peer = c.peer().start();
             ZmtpContext ctx = ZmtpContext.builder().lingerCapMillis(0).build()) {
            LOG.info("thread-safe interop: {} against {}", c, peer.version());
            ZmtpSocket ours = ctx.socket(c.ours());
            List<ZmtpSocketEvent> events = new CopyOnWriteArrayList<>();
            ours.monitor(events::add);
            peer.ok("new t " + c.theirs());
            String endpoint = null;
            if (c.oursBinds()) {
                endpoint = ours.bind("tcp://127.0.0.1:*");
                peer.ok("connect t " + endpoint);
            } else {
                ours.connect(peer.ok("bind t tcp://127.0.0.1:*"));
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            long retry = System.nanoTime() + 1_000_000_000L;
            while (events.stream().noneMatch(e -> e.type() == ZmtpSocketEvent.Type.HANDSHAKE_FAILED
                    && e.failureReason() == ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE)) {
                assertThat(System.nanoTime()).as("INCOMPATIBLE_SOCKET_TYPE within %s: %s", WAIT, events)
                        .isLessThan(deadline);
                if (endpoint != null && System.nanoTime() > retry) {
                    // The connecting side retries; JeroMQ doesn't after it refused us, so a fresh socket does.
                    peer.ok("close t");
                    peer.ok("new t " + c.theirs());
                    peer.ok("connect t " + endpoint);
                    retry = System.nanoTime() + 1_000_000_000L;
                }
                sleep(20);
            }
            assertThat(events).noneMatch(e -> e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED);
            assertThat(ours.peers()).noneMatch(p -> p.state() == ZmtpPeer.State.CONNECTED);
            if (c.theirs() != ZmtpSocketType.PUSH) {
                assertThat(peer.call("recv t 200")).isEqualTo("NONE");
            }
            LOG.info("{}: our events {}", c, events);
        }
    }

}
