package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JeroMQ API over tcp: binding, errors, monitor events and CURVE. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpSocketIT {

    @Test
    void bindToRandomPortBindsAPortInTheRange() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket rep = ctx.createSocket(SocketType.REP);
            int port = rep.bindToRandomPort("tcp://127.0.0.1");
            assertThat(port).isBetween(0xc000, 0xffff);
            assertThat(rep.getLastEndpoint()).isEqualTo("tcp://127.0.0.1:" + port);

            ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
            req.connect("tcp://127.0.0.1:" + port);
            req.send("ping");
            assertThat(rep.recvStr()).isEqualTo("ping");
            rep.send("pong");
            assertThat(req.recvStr()).isEqualTo("pong");
        }
    }

    @Test
    void aWildcardPortIsReportedAsTheOneBound() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket pull = ctx.createSocket(SocketType.PULL);
            assertThat(pull.bind("tcp://127.0.0.1:*")).isTrue();
            assertThat(pull.getLastEndpoint()).matches("tcp://127\\.0\\.0\\.1:\\d+");
        }
    }

    @Test
    void aPortInUseThrowsEaddrinuse() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket first = ctx.createSocket(SocketType.PULL);
            first.bind("tcp://127.0.0.1:*");
            ZMQ.Socket second = ctx.createSocket(SocketType.PULL);
            assertThatThrownBy(() -> second.bind(first.getLastEndpoint()))
                    .isInstanceOfSatisfying(ZMQException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EADDRINUSE.getCode()));
            assertThat(second.errno()).isEqualTo(ZMQ.Error.EADDRINUSE.getCode());
        }
    }

    @Test
    void anUnknownTransportIsRefused() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket s = ctx.createSocket(SocketType.PAIR);
            assertThatThrownBy(() -> s.connect("bogus://nowhere")).isInstanceOf(ZMQException.class);
        }
    }

    @Test
    void monitorEventsArriveInLibzmqsFormat() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
            assertThat(server.monitor("inproc://monitor.server",
                    ZMQ.EVENT_LISTENING | ZMQ.EVENT_ACCEPTED | ZMQ.HANDSHAKE_SUCCEEDED)).isTrue();
            ZMQ.Socket watcher = ctx.createSocket(SocketType.PAIR);
            watcher.connect("inproc://monitor.server");
            server.bind("tcp://127.0.0.1:*");
            String endpoint = server.getLastEndpoint();
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.connect(endpoint);

            List<Integer> events = new ArrayList<>();
            ZMQ.Event listening = ZMQ.Event.recv(watcher);
            events.add(listening.getEvent());
            assertThat(listening.getAddress()).isEqualTo(endpoint);
            while (!events.contains(ZMQ.HANDSHAKE_SUCCEEDED)) {
                events.add(ZMQ.Event.recv(watcher).getEvent());
            }
            assertThat(events).containsSubsequence(ZMQ.EVENT_LISTENING, ZMQ.EVENT_ACCEPTED, ZMQ.HANDSHAKE_SUCCEEDED);
        }
    }

    @Test
    void zmonitorReportsTheEventsAdded() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            try (ZMonitor monitor = new ZMonitor(ctx, client)) {
                monitor.add(ZMonitor.Event.CONNECTED, ZMonitor.Event.HANDSHAKE_SUCCEEDED).start();
                ZMQ.Socket server = ctx.createSocket(SocketType.PULL);
                server.bind("tcp://127.0.0.1:*");
                client.connect(server.getLastEndpoint());
                ZMonitor.ZEvent connected = monitor.nextEvent();
                assertThat(connected.type).isEqualTo(ZMonitor.Event.CONNECTED);
                assertThat(connected.address).isEqualTo(server.getLastEndpoint());
                assertThat(monitor.nextEvent(-1).type).isEqualTo(ZMonitor.Event.HANDSHAKE_SUCCEEDED);
                assertThat(monitor.nextEvent(false)).isNull();
            }
        }
    }

    @Test
    void zeventResolvesAConnectRetryToItsDelay() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket client = ctx.createSocket(SocketType.PUSH);
            client.setReconnectIVL(10);
            client.monitor("inproc://monitor.retry", ZMQ.EVENT_CONNECT_RETRIED);
            ZMQ.Socket watcher = ctx.createSocket(SocketType.PAIR);
            watcher.connect("inproc://monitor.retry");
            // Nothing listens on port 1: the connection is refused and retried.
            client.connect("tcp://127.0.0.1:1");
            ZEvent retried = ZEvent.recv(watcher);
            assertThat(retried.getEvent()).isEqualTo(ZMonitor.Event.CONNECT_RETRIED);
            assertThat(retried.<java.time.Duration>getValue()).isPositive();
            assertThat(retried.isDebug()).isTrue();
        }
    }

    @Test
    void curveClientAndServerExchangeWithKeysInZ85() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Curve.KeyPair serverKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Curve.KeyPair clientKeys = ZMQ.Curve.generateKeyPair();
            ZMQ.Socket server = ctx.createSocket(SocketType.REP);
            server.setCurveServer(true);
            server.setCurveSecretKey(ZMQ.Curve.z85Decode(serverKeys.secretKey));
            server.bind("tcp://127.0.0.1:*");

            ZMQ.Socket client = ctx.createSocket(SocketType.REQ);
            client.setCurveServerKey(serverKeys.publicKey.getBytes(ZMQ.CHARSET));
            client.setCurvePublicKey(clientKeys.publicKey.getBytes(ZMQ.CHARSET));
            client.setCurveSecretKey(clientKeys.secretKey.getBytes(ZMQ.CHARSET));
            client.connect(server.getLastEndpoint());
            assertThat(client.getMechanism()).isEqualTo(ZMQ.Socket.Mechanism.CURVE);

            client.send("secret");
            assertThat(server.recvStr()).isEqualTo("secret");
            server.send("reply");
            assertThat(client.recvStr()).isEqualTo("reply");
        }
    }
}
