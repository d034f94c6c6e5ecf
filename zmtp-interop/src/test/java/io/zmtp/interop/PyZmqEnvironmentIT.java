package io.zmtp.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/** Checks the interop environment itself, so a broken setup fails here first and says why. */
class PyZmqEnvironmentIT {

    @Test
    void venvProvidesPyzmqWithLibzmq435Line() {
        PyZmq.Versions versions = PyZmq.versions();

        assertThat(versions.libzmq()).startsWith("4.3.");
        assertThat(versions.pyzmq()).isNotBlank();
    }

    @Test
    void jeromqIsOnTheClasspath() {
        assertThat(ZMQ.getFullVersion()).isPositive();
        assertThat(ZMQ.getVersionString()).isNotBlank();
    }

    @Test
    void jeromqTalksToAPythonPeer() {
        try (PyZmq.Peer peer = PyZmq.start("rep_echo.py", "tcp://127.0.0.1:*", "1");
                ZContext ctx = new ZContext()) {
            String endpoint = peer.readLine().substring("ENDPOINT ".length());
            ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
            req.setReceiveTimeOut(10_000);
            // A fresh JeroMQ 0.6.0 connection now and then never sends its greeting; its handshake timeout then
            // reconnects (JeroMq.HANDSHAKE_IVL_MILLIS).
            req.setHandshakeIvl(JeroMq.HANDSHAKE_IVL_MILLIS);
            req.connect(endpoint);

            req.send("ping".getBytes(UTF_8));

            assertThat(req.recvStr()).isEqualTo("ping");
            assertThat(peer.readLine()).isEqualTo("RECV 70696e67");
            peer.awaitExit(Duration.ofSeconds(10));
        }
    }
}
