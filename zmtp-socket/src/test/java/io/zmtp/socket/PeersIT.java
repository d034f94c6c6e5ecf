package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** Peer handles over tcp: addresses, metadata, routing to a handle, disconnecting one peer. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PeersIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 0);

    @Test
    void shouldSeeTheClientsRealAddressAndMetadataOnTheServer() {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        ZmtpSocket dealer = sockets.socket(ZmtpSocketType.DEALER);
        dealer.setOption(ZmtpSocketOption.ROUTING_ID, "client-1".getBytes());
        String endpoint = router.bind("tcp://127.0.0.1:*");
        dealer.connect(endpoint);
        dealer.send("hi");

        ZmtpMessage m = router.receive(WAIT);
        assertThat(m).isNotNull();
        ZmtpPeer seen = router.lastPeer();
        assertThat(m.frameBytes(0)).isEqualTo(seen.routingId()).isEqualTo("client-1".getBytes());
        m.release();

        ZmtpPeer client = dealer.peers().get(0);
        assertThat(client.isOutgoing()).isTrue();
        assertThat(client.state()).isEqualTo(ZmtpPeer.State.CONNECTED);
        // The address the server sees is the client's own: its ephemeral port, not the server's.
        InetSocketAddress clientLocal = (InetSocketAddress) client.localAddress();
        assertThat(seen.remoteAddress()).isEqualTo(clientLocal);
        assertThat(clientLocal.getPort()).isNotEqualTo(((InetSocketAddress) seen.localAddress()).getPort());
        assertThat(client.remoteAddress()).isEqualTo(seen.localAddress());

        assertThat(router.peers()).containsExactly(seen);
        assertThat(seen.isOutgoing()).isFalse();
        assertThat(seen.endpoint()).isEqualTo(endpoint);
        assertThat(seen.socketType()).isEqualTo(ZmtpSocketType.DEALER);
        assertThat(seen.metadata().identity()).isEqualTo("client-1".getBytes());
        assertThat(seen.userId()).as("NULL security establishes no user id").isNull();
        assertThat(seen.version()).isNotNull();
        assertThat(seen.receivedCount()).isEqualTo(1);
        assertThat(client.sentCount()).isEqualTo(1);
    }

    @Test
    void shouldSendToAPeerHandleAndTellEachMessagesPeer() {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        String endpoint = router.bind("tcp://127.0.0.1:*");
        ZmtpSocket a = sockets.socket(ZmtpSocketType.DEALER);
        ZmtpSocket b = sockets.socket(ZmtpSocketType.DEALER);
        a.connect(endpoint);
        b.connect(endpoint);
        a.send("from a");
        b.send("from b");
        ZmtpPeer peerA = null;
        ZmtpPeer peerB = null;
        for (int i = 0; i < 2; i++) {
            ZmtpMessage m = router.receive(WAIT);
            String body = m.frameString(1);
            m.release();
            if (body.equals("from a")) {
                peerA = router.lastPeer();
            } else {
                peerB = router.lastPeer();
            }
        }
        assertThat(peerA).isNotNull().isNotSameAs(peerB);
        router.send(peerB, ZmtpMessage.of("to b"));
        router.send(peerA, ZmtpMessage.of("to a"));
        assertThat(recv(a)).isEqualTo("to a");
        assertThat(recv(b)).isEqualTo("to b");
    }

    @Test
    void shouldLetABoundRouterDisconnectOneClientAndLeaveTheOthers() throws Exception {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        String endpoint = router.bind("tcp://127.0.0.1:*");
        ZmtpSocket a = sockets.socket(ZmtpSocketType.DEALER);
        ZmtpSocket b = sockets.socket(ZmtpSocketType.DEALER);
        BlockingQueue<ZmtpSocketEvent> aEvents = new LinkedBlockingQueue<>();
        a.monitor(aEvents::add);
        a.setOption(ZmtpSocketOption.ROUTING_ID, "a".getBytes());
        b.setOption(ZmtpSocketOption.ROUTING_ID, "b".getBytes());
        a.connect(endpoint);
        b.connect(endpoint);
        a.send("hello");
        b.send("hello");
        recv(router);
        recv(router);
        ZmtpPeer toDrop = router.peers().stream()
                .filter(p -> new String(p.routingId()).equals("a")).findFirst().orElseThrow();

        toDrop.disconnect();

        assertThat(toDrop.state()).isEqualTo(ZmtpPeer.State.CLOSED);
        ZmtpSocketEvent e;
        do {
            e = aEvents.poll(scaledSeconds(5), TimeUnit.SECONDS);
            assertThat(e).isNotNull();
        } while (e.type() != ZmtpSocketEvent.Type.DISCONNECTED);
        assertThat(router.peers()).doesNotContain(toDrop);
        router.send(ZmtpMessage.of("b", "still here"));
        assertThat(recv(b)).isEqualTo("still here");
    }

    @Test
    void shouldReleaseAndCountWhatWasQueuedForAConnectingPeerItDisconnects() {
        ZmtpSocket push = sockets.socket(ZmtpSocketType.PUSH);
        // Nobody listens there: messages wait in the peer's queue.
        ZmtpSocket placeholder = sockets.socket(ZmtpSocketType.PULL);
        String endpoint = placeholder.bind("tcp://127.0.0.1:*");
        placeholder.close();
        push.connect(endpoint);
        for (int i = 0; i < 5; i++) {
            push.send("queued " + i);
        }
        List<ZmtpPeer> peers = push.peers();
        assertThat(peers).hasSize(1);
        ZmtpPeer peer = peers.get(0);
        assertThat(peer.state()).isEqualTo(ZmtpPeer.State.CONNECTING);
        assertThat(peer.outgoingMessages()).isEqualTo(5);

        peer.disconnect();

        assertThat(peer.state()).isEqualTo(ZmtpPeer.State.CLOSED);
        assertThat(peer.outgoingMessages()).isZero();
        assertThat(peer.droppedCount()).isEqualTo(5);
        assertThat(push.droppedCount()).isEqualTo(5);
        assertThat(push.peers()).isEmpty();
    }

    /**
     * Issue 23 item 3: a NULL peer whose READY says {@code User-Id: admin} was reported as user "admin". What a peer
     * claims stays in its metadata, labelled as its claim; the user id is only what this side's mechanism and
     * authenticator established.
     */
    @Test
    void shouldNotTakeAUserIdThePeerClaimsForOneEstablished() throws Exception {
        ZmtpSocket router = sockets.socket(ZmtpSocketType.ROUTER);
        String endpoint = router.bind("tcp://127.0.0.1:*");
        try (HostileWire liar = new HostileWire(endpoint).handshake("DEALER", "User-Id", "admin",
                "Identity", "boss")) {
            liar.out.write(new byte[] {0x00, 0x02, 'h', 'i'});
            liar.out.flush();
            ZmtpMessage m = router.receive(WAIT);
            assertThat(m).isNotNull();
            m.release();
            ZmtpPeer peer = router.lastPeer();
            assertThat(peer.userId()).as("nothing authenticated the peer").isNull();
            assertThat(peer.metadata().value("User-Id")).as("the claim, as claimed").isEqualTo("admin".getBytes());
            assertThat(peer.authMetadata().isEmpty()).as("nothing established").isTrue();
        }
    }

    @Test
    void shouldTellTheUserIdThatPlainAuthenticationEstablished() {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.PULL);
        server.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
        server.setOption(ZmtpSocketOption.AUTHENTICATOR, io.zmtp.codec.security.DefaultZmtpAuthenticator.builder()
                .plainUser("admin", "secret")
                .build());
        ZmtpSocket client = sockets.socket(ZmtpSocketType.PUSH);
        client.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
        client.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
        client.connect(server.bind("tcp://127.0.0.1:*"));
        client.send("hello");
        assertThat(recv(server)).isEqualTo("hello");
        assertThat(server.lastPeer().userId()).isEqualTo("admin");
        assertThat(client.peers().get(0).userId()).as("the client authenticated nobody").isNull();
    }
}
