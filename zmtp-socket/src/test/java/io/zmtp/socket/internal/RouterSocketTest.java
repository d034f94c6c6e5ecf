package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.internal.EmbeddedPeers.Peer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.socket.internal.EmbeddedPeers.message;
import static io.zmtp.socket.internal.EmbeddedPeers.receive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ROUTER's rules on pipes without a network: routing ids, ROUTER_MANDATORY, ROUTER_HANDOVER. */
class RouterSocketTest {
    private final EmbeddedPeers peers = new EmbeddedPeers();
    private final RouterSocket router = peers.socket(new RouterSocket(peers.context));

    @AfterEach
    void tearDown() {
        peers.close();
    }

    @Test
    void shouldPrependThePeersAnnouncedIdentityAsTheRoutingId() {
        Peer dealer = peers.connect(router, DEALER, "client-1", 1000);
        dealer.send("hello", "there");
        assertThat(receive(router)).isEqualTo("client-1|hello|there");
    }

    @Test
    void shouldRouteByTheFirstFrameAndSendTheRestToThatPeer() {
        Peer a = peers.connect(router, DEALER, "a", 1000);
        Peer b = peers.connect(router, REQ, "b", 1000);
        assertThat(router.send(message("b", "", "for b"), 0)).isTrue();
        assertThat(router.send(message("a", "for a"), 0)).isTrue();
        assertThat(a.sent()).containsExactly("for a");
        assertThat(b.sent()).containsExactly("|for b");
    }

    @Test
    void shouldGenerateFiveByteIdsOfAZeroByteAndAU32CounterForPeersWithoutIdentity() {
        Peer first = peers.connect(router, DEALER);
        Peer second = peers.connect(router, DEALER);
        first.send("1");
        second.send("2");
        byte[] id1 = receiveId(router);
        byte[] id2 = receiveId(router);
        assertThat(id1).hasSize(5);
        assertThat(id2).hasSize(5);
        assertThat(id1[0]).isZero();
        assertThat(id2[0]).isZero();
        int n1 = ByteBuffer.wrap(id1, 1, 4).getInt();
        int n2 = ByteBuffer.wrap(id2, 1, 4).getInt();
        assertThat(n2).isEqualTo(n1 + 1);
        ZmtpMessage reply = ZmtpMessage.ofBytes(id2, "to second".getBytes());
        router.send(reply, 0);
        assertThat(second.sent()).containsExactly("to second");
        assertThat(first.sent()).isEmpty();
    }

    private static byte[] receiveId(RouterSocket router) {
        ZmtpMessage m = router.receive(0);
        assertThat(m).isNotNull();
        try {
            return m.frameBytes(0);
        } finally {
            m.release();
        }
    }

    @Test
    void shouldDropAndCountAMessageForAnUnknownRoutingId() {
        peers.connect(router, DEALER, "known", 1000);
        assertThat(router.send(message("unknown", "x"), 0)).isTrue();
        assertThat(router.droppedCount()).isEqualTo(1);
    }

    @Test
    void shouldThrowHostUnreachableForAnUnknownRoutingIdWithRouterMandatory() {
        router.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
        Peer known = peers.connect(router, DEALER, "known", 1000);
        assertThatThrownBy(() -> router.send(message("unknown", "x"), 0))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
        assertThat(router.droppedCount()).isZero();
        assertThat(known.sent()).isEmpty();
    }

    @Test
    void shouldDropAndCountAMessageForAFullPeer() {
        Peer slow = peers.connect(router, DEALER, "slow", 2);
        for (int i = 0; i < 3; i++) {
            assertThat(router.send(message("slow", "m" + i), 0)).isTrue();
        }
        assertThat(router.droppedCount()).isEqualTo(1);
        assertThat(slow.pipe.droppedCount()).isEqualTo(1);
        assertThat(slow.sent()).containsExactly("m0", "m1");
    }

    @Test
    void shouldWaitForRoomInAFullPeerWithRouterMandatory() {
        router.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
        Peer slow = peers.connect(router, DEALER, "slow", 2);
        assertThat(router.send(message("slow", "m0"), 0)).isTrue();
        assertThat(router.send(message("slow", "m1"), 0)).isTrue();
        assertThat(router.send(message("slow", "m2"), 0)).as("full: would block").isFalse();
        assertThat(router.send(message("slow", "m2"), TimeUnit.MILLISECONDS.toNanos(20))).isFalse();
        assertThat(slow.sent()).containsExactly("m0", "m1");
        assertThat(router.send(message("slow", "m2"), 0)).as("room again").isTrue();
        assertThat(slow.sent()).containsExactly("m2");
        assertThat(router.droppedCount()).isZero();
    }

    @Test
    void shouldIgnoreAPeerAnnouncingARoutingIdInUseWithoutHandover() {
        Peer first = peers.connect(router, DEALER, "same", 1000);
        Peer second = peers.connect(router, DEALER, "same", 1000);
        second.send("from second");
        first.send("from first");
        assertThat(receive(router)).isEqualTo("same|from first");
        assertThat(receive(router)).isNull();
        router.send(message("same", "to same"), 0);
        assertThat(first.sent()).containsExactly("to same");
        assertThat(second.sent()).isEmpty();
        assertThat(first.isOpen()).isTrue();
    }

    @Test
    void shouldMoveTheRoutingIdToTheNewPeerAndDisconnectTheOldOneWithRouterHandover() {
        router.setOption(ZmtpSocketOption.ROUTER_HANDOVER, true);
        Peer first = peers.connect(router, DEALER, "same", 1000);
        first.send("from first");
        assertThat(receive(router)).isEqualTo("same|from first");
        Peer second = peers.connect(router, DEALER, "same", 1000);
        second.send("from second");
        assertThat(receive(router)).isEqualTo("same|from second");
        assertThat(first.isOpen()).as("the old peer is disconnected").isFalse();
        router.send(message("same", "to same"), 0);
        assertThat(second.sent()).containsExactly("to same");
        assertThat(first.sent()).isEmpty();
    }

    @Test
    void shouldForgetTheRoutingIdOfAPeerThatDisconnected() {
        router.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
        Peer gone = peers.connect(router, DEALER, "gone", 1000);
        gone.send("hi");
        assertThat(receive(router)).isEqualTo("gone|hi");
        gone.disconnect();
        assertThatThrownBy(() -> router.send(message("gone", "x"), 0))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
        Peer again = peers.connect(router, DEALER, "gone", 1000);
        assertThat(router.send(message("gone", "back"), 0)).isTrue();
        assertThat(again.sent()).containsExactly("back");
    }

    @Test
    void shouldFairQueueMessagesFromItsPeers() {
        Peer a = peers.connect(router, DEALER, "a", 1000);
        Peer b = peers.connect(router, DEALER, "b", 1000);
        a.send(message("1"), message("2"));
        b.send("1");
        assertThat(receive(router)).isEqualTo("a|1");
        assertThat(receive(router)).isEqualTo("b|1");
        assertThat(receive(router)).isEqualTo("a|2");
        assertThat(receive(router)).isNull();
    }
}
