package org.zeromq;

import io.zmtp.testkit.TestTimeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code Socket.monitor} sends JeroMQ 0.6.0's event sequences (what its ZMonitorTest and TestEvents expect): its
 * HANDSHAKE_PROTOCOL in place of libzmq's HANDSHAKE_SUCCEEDED, no DISCONNECTED for a connection the socket ended
 * itself, the refusing server silent; {@code monitor(null, 0)} stops a monitor with MONITOR_STOPPED; a bind to a port
 * in use returns false when a monitor watches for BIND_FAILED.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JeromqMonitorIT {
    private static final int EVENT_WAIT_MILLIS = (int) TestTimeouts.scaledMillis(10_000);

    /** A reader of the monitor at {@code addr}, whose receives give up after the test's deadline. */
    private static ZMQ.Socket watcher(ZContext ctx, String addr) {
        ZMQ.Socket watcher = ctx.createSocket(SocketType.PAIR);
        watcher.setReceiveTimeOut(EVENT_WAIT_MILLIS);
        watcher.connect(addr);
        return watcher;
    }

    private static ZMQ.Event next(ZMQ.Socket watcher) {
        ZMQ.Event e = ZMQ.Event.recv(watcher);
        assertThat(e).as("an event within %d ms", EVENT_WAIT_MILLIS).isNotNull();
        return e;
    }

    /** The events up to and including the first {@code last}. */
    private static List<Integer> eventsUntil(ZMQ.Socket watcher, int last) {
        List<Integer> events = new ArrayList<>();
        int e;
        do {
            e = next(watcher).getEvent();
            events.add(e);
        } while (e != last);
        return events;
    }

    @Test
    void eventAllGetsJeromqsHandshakeProtocolAndNoDisconnectForTheSocketsOwnClose() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Curve.KeyPair serverKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Curve.KeyPair clientKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setCurveServer(true);
            server.setCurveSecretKey(ZMQ.Curve.z85Decode(serverKeys.secretKey));
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.setCurveServerKey(ZMQ.Curve.z85Decode(serverKeys.publicKey));
            client.setCurvePublicKey(ZMQ.Curve.z85Decode(clientKeys.publicKey));
            client.setCurveSecretKey(ZMQ.Curve.z85Decode(clientKeys.secretKey));
            assertThat(server.monitor("inproc://all.server", ZMQ.EVENT_ALL)).isTrue();
            assertThat(client.monitor("inproc://all.client", ZMQ.EVENT_ALL)).isTrue();
            ZMQ.Socket serverEvents = watcher(ctx, "inproc://all.server");
            ZMQ.Socket clientEvents = watcher(ctx, "inproc://all.client");

            int port = server.bindToRandomPort("tcp://127.0.0.1");
            client.connect("tcp://127.0.0.1:" + port);
            client.send("hello");
            assertThat(server.recvStr()).isEqualTo("hello");
            client.close();
            assertThat(eventsUntil(clientEvents, ZMQ.EVENT_MONITOR_STOPPED)).containsExactly(
                    ZMQ.EVENT_CONNECT_DELAYED, ZMQ.EVENT_CONNECTED, ZMQ.EVENT_HANDSHAKE_PROTOCOL,
                    ZMQ.EVENT_MONITOR_STOPPED);

            // The client's close is the server's connection lost: DISCONNECTED, before the server's own close.
            List<Integer> serverSide = eventsUntil(serverEvents, ZMQ.EVENT_DISCONNECTED);
            server.close();
            serverSide.addAll(eventsUntil(serverEvents, ZMQ.EVENT_MONITOR_STOPPED));
            assertThat(serverSide).containsExactly(ZMQ.EVENT_LISTENING, ZMQ.EVENT_ACCEPTED,
                    ZMQ.EVENT_HANDSHAKE_PROTOCOL, ZMQ.EVENT_DISCONNECTED, ZMQ.EVENT_CLOSED,
                    ZMQ.EVENT_MONITOR_STOPPED);
        }
    }

    @Test
    void handshakeProtocolCarriesJeromqsNumberOfZmtp3() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.monitor("inproc://version.server", ZMQ.EVENT_HANDSHAKE_PROTOCOL);
            ZMQ.Socket events = watcher(ctx, "inproc://version.server");
            server.bind("tcp://127.0.0.1:*");
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.connect(server.getLastEndpoint());
            ZMQ.Event protocol = next(events);
            assertThat(protocol.getEvent()).isEqualTo(ZMQ.EVENT_HANDSHAKE_PROTOCOL);
            assertThat(protocol.getValue()).isEqualTo(3);
            assertThat(protocol.getAddress()).isEqualTo(server.getLastEndpoint());
        }
    }

    @Test
    void aMaskWithoutHandshakeProtocolGetsLibzmqsHandshakeSucceeded() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.monitor("inproc://libzmq.client", ZMQ.EVENT_CONNECTED | ZMQ.HANDSHAKE_SUCCEEDED);
            ZMQ.Socket events = watcher(ctx, "inproc://libzmq.client");
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.bind("tcp://127.0.0.1:*");
            client.connect(server.getLastEndpoint());
            assertThat(next(events).getEvent()).isEqualTo(ZMQ.EVENT_CONNECTED);
            assertThat(next(events).getEvent()).isEqualTo(ZMQ.HANDSHAKE_SUCCEEDED);
        }
    }

    @Test
    void aRefusedPlainClientReportsTheRefusalAndTheRefusingServerOnlyTheLoss() {
        ZAuth.Auth denyAll = new ZAuth.Auth() {
            @Override
            public boolean authorize(ZAuth.ZapRequest request, boolean verbose) {
                return false;
            }

            @Override
            public boolean configure(ZMsg msg, boolean verbose) {
                return true;
            }
        };
        try (ZContext ctx = new ZContext();
             ZAuth auth = new ZAuth(ctx, "authenticator", Collections.singletonMap("PLAIN", denyAll))) {
            ZMQ.Socket server = ctx.createSocket(SocketType.PUSH);
            server.setPlainServer(true);
            server.setZapDomain("global".getBytes(ZMQ.CHARSET));
            server.monitor("inproc://plain.server", ZMQ.EVENT_ALL);
            ZMQ.Socket serverEvents = watcher(ctx, "inproc://plain.server");
            ZMQ.Socket client = ctx.createSocket(SocketType.PULL);
            client.setPlainUsername("admin".getBytes(ZMQ.CHARSET));
            client.setPlainPassword("wrong".getBytes(ZMQ.CHARSET));
            client.monitor("inproc://plain.client", ZMQ.EVENT_ALL);
            ZMQ.Socket clientEvents = watcher(ctx, "inproc://plain.client");

            int port = server.bindToRandomPort("tcp://127.0.0.1");
            client.connect("tcp://127.0.0.1:" + port);

            assertThat(eventsUntil(serverEvents, ZMQ.EVENT_DISCONNECTED)).containsExactly(ZMQ.EVENT_LISTENING,
                    ZMQ.EVENT_ACCEPTED, ZMQ.EVENT_HANDSHAKE_PROTOCOL, ZMQ.EVENT_DISCONNECTED);
            List<ZMQ.Event> clientSide = new ArrayList<>();
            ZMQ.Event e;
            do {
                e = next(clientEvents);
                clientSide.add(e);
            } while (e.getEvent() != ZMQ.EVENT_DISCONNECTED);
            assertThat(clientSide).extracting(ZMQ.Event::getEvent).containsExactly(ZMQ.EVENT_CONNECT_DELAYED,
                    ZMQ.EVENT_CONNECTED, ZMQ.EVENT_HANDSHAKE_PROTOCOL, ZMQ.HANDSHAKE_FAILED_AUTH,
                    ZMQ.EVENT_DISCONNECTED);
            assertThat(clientSide.get(3).getValue()).isEqualTo(400);
        }
    }

    @Test
    void aCurveClientWithTheWrongServerKeyFailsTheServersHandshakeAsCryptographic() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Curve.KeyPair serverKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Curve.KeyPair otherKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Curve.KeyPair clientKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            server.setCurveServer(true);
            server.setCurveSecretKey(ZMQ.Curve.z85Decode(serverKeys.secretKey));
            server.monitor("inproc://curve.server", ZMQ.EVENT_ALL);
            ZMQ.Socket serverEvents = watcher(ctx, "inproc://curve.server");
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.setCurveServerKey(ZMQ.Curve.z85Decode(otherKeys.publicKey));
            client.setCurveSecretKey(ZMQ.Curve.z85Decode(clientKeys.secretKey));

            int port = server.bindToRandomPort("tcp://127.0.0.1");
            client.connect("tcp://127.0.0.1:" + port);

            List<ZMQ.Event> serverSide = new ArrayList<>();
            ZMQ.Event e;
            do {
                e = next(serverEvents);
                serverSide.add(e);
            } while (e.getEvent() != ZMQ.EVENT_DISCONNECTED);
            assertThat(serverSide).extracting(ZMQ.Event::getEvent).containsExactly(ZMQ.EVENT_LISTENING,
                    ZMQ.EVENT_ACCEPTED, ZMQ.EVENT_HANDSHAKE_PROTOCOL, ZMQ.HANDSHAKE_FAILED_PROTOCOL,
                    ZMQ.EVENT_DISCONNECTED);
            assertThat((Object) serverSide.get(3).resolveValue())
                    .isEqualTo(ZMonitor.ProtocolCode.ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC);
        }
    }

    @Test
    void monitorNullStopsTheMonitorWithMonitorStoppedAndAnotherMayStart() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket socket = ctx.createSocket(SocketType.REP);
            assertThat(socket.monitor("inproc://first", ZMQ.EVENT_MONITOR_STOPPED | ZMQ.EVENT_LISTENING)).isTrue();
            ZMQ.Socket first = watcher(ctx, "inproc://first");

            assertThat(socket.monitor(null, 0)).isTrue();
            assertThat(next(first).getEvent()).isEqualTo(ZMQ.EVENT_MONITOR_STOPPED);

            assertThat(socket.monitor("inproc://second", ZMQ.EVENT_LISTENING)).isTrue();
            ZMQ.Socket second = watcher(ctx, "inproc://second");
            socket.bind("tcp://127.0.0.1:*");
            assertThat(next(second).getEvent()).isEqualTo(ZMQ.EVENT_LISTENING);
            // Both monitors would have had LISTENING from the same dispatch, the stopped one first.
            assertThat(ZMQ.Event.recv(first, ZMQ.DONTWAIT)).isNull();
        }
    }

    @Test
    void aSecondMonitorWhileOneRunsIsRefusedAsInJeromq() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket socket = ctx.createSocket(SocketType.REP);
            assertThat(socket.monitor("inproc://once", ZMQ.EVENT_ALL)).isTrue();
            assertThatThrownBy(() -> socket.monitor("inproc://twice", ZMQ.EVENT_ALL))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aMonitorOutsideInprocIsRefusedWithEprotonosupport() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket socket = ctx.createSocket(SocketType.REP);
            assertThat(socket.monitor("tcp://127.0.0.1:5555", ZMQ.EVENT_ALL)).isFalse();
            assertThat(socket.errno()).isEqualTo(ZMQ.Error.EPROTONOSUPPORT.getCode());
        }
    }

    @Test
    void aPortInUseUnderABindFailedMonitorReturnsFalseWithTheEvent() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket first = ctx.createSocket(SocketType.REP);
            first.bind("tcp://127.0.0.1:*");
            ZMQ.Socket second = ctx.createSocket(SocketType.REP);
            second.monitor("inproc://bind.failed", ZMQ.EVENT_BIND_FAILED);
            ZMQ.Socket events = watcher(ctx, "inproc://bind.failed");

            assertThat(second.bind(first.getLastEndpoint())).isFalse();
            assertThat(second.errno()).isEqualTo(ZMQ.Error.EADDRINUSE.getCode());
            ZMQ.Event failed = next(events);
            assertThat(failed.getEvent()).isEqualTo(ZMQ.EVENT_BIND_FAILED);
            assertThat((Object) failed.resolveValue()).isEqualTo(ZMQ.Error.EADDRINUSE);
        }
    }

    @Test
    void aPortInUseWithoutABindFailedMonitorStillThrows() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket first = ctx.createSocket(SocketType.REP);
            first.bind("tcp://127.0.0.1:*");
            ZMQ.Socket second = ctx.createSocket(SocketType.REP);
            second.monitor("inproc://listening.only", ZMQ.EVENT_LISTENING);
            assertThatThrownBy(() -> second.bind(first.getLastEndpoint()))
                    .isInstanceOfSatisfying(ZMQException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EADDRINUSE.getCode()));
        }
    }

    @Test
    void closingAZMonitorStopsTheSocketsMonitorSoAnotherCanStart() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket socket = ctx.createSocket(SocketType.PULL);
            new ZMonitor(ctx, socket).add(ZMonitor.Event.LISTENING).start().close();
            try (ZMonitor again = new ZMonitor(ctx, socket)) {
                again.add(ZMonitor.Event.LISTENING).start();
                socket.bind("tcp://127.0.0.1:*");
                assertThat(again.nextEvent(EVENT_WAIT_MILLIS).type).isEqualTo(ZMonitor.Event.LISTENING);
            }
        }
    }
}
