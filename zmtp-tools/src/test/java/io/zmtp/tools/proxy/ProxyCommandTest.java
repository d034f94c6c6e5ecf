package io.zmtp.tools.proxy;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code zmtp proxy}: socket specs, and a shared queue run from the command line until TERMINATE. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProxyCommandTest {
    private static final Duration WAIT = scaled(Duration.ofSeconds(5));

    @Test
    void shouldParseTypeAndEndpointsToBindAndConnect() {
        SocketSpec spec = SocketSpec.parse("router@tcp://*:5555,>tcp://10.0.0.7:6000,@ipc:///tmp/x");
        assertThat(spec.type).isEqualTo(ZmtpSocketType.ROUTER);
        assertThat(spec.binds).containsExactly("tcp://*:5555", "ipc:///tmp/x");
        assertThat(spec.connects).containsExactly("tcp://10.0.0.7:6000");
        assertThat(SocketSpec.parse("DEALER>tcp://127.0.0.1:1").connects).containsExactly("tcp://127.0.0.1:1");
    }

    @Test
    void shouldRejectASpecWithoutTypeOrEndpointMarks() {
        assertThatThrownBy(() -> SocketSpec.parse("tcp://*:5555")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SocketSpec.parse("@tcp://*:5555")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SocketSpec.parse("ROUTER@tcp://*:1,tcp://*:2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tcp://*:2");
        assertThatThrownBy(() -> SocketSpec.parse("NOSUCH@tcp://*:1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRunASharedQueueUntilTerminatedThroughItsControlSocket() throws Exception {
        int front = freePort();
        int back = freePort();
        int steer = freePort();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        ProxyCommand command = new ProxyCommand();
        command.err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(command).execute(
                "--frontend", "ROUTER@tcp://127.0.0.1:" + front, "--backend", "DEALER@tcp://127.0.0.1:" + back,
                "--control", "REP@tcp://127.0.0.1:" + steer));

        try (ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build()) {
            ZmtpSocket worker = context.socket(ZmtpSocketType.REP);
            worker.connect("tcp://127.0.0.1:" + back);
            ZmtpSocket client = context.socket(ZmtpSocketType.REQ);
            client.connect("tcp://127.0.0.1:" + front);
            client.send("ping");
            assertThat(worker.receiveString(WAIT)).isEqualTo("ping");
            worker.send("pong");
            assertThat(client.receiveString(WAIT)).isEqualTo("pong");

            ZmtpSocket commander = context.socket(ZmtpSocketType.REQ);
            commander.connect("tcp://127.0.0.1:" + steer);
            commander.send("STATISTICS");
            List<byte[]> stats = List.of(commander.receiveBytes(WAIT), commander.receiveBytes(WAIT),
                    commander.receiveBytes(WAIT));
            // Frontend received [id, empty, "ping"]: three frames.
            assertThat(stats.get(0)).containsExactly(3, 0, 0, 0, 0, 0, 0, 0);
            while (commander.hasReceiveMore()) {
                commander.receiveBytes(WAIT);
            }
            commander.send("TERMINATE");
            assertThat(commander.receiveString(WAIT)).isEmpty();
        }
        assertThat(exit.get(scaledSeconds(10), TimeUnit.SECONDS)).isZero();
        String err = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(err).contains("frontend ROUTER bound to tcp://127.0.0.1:" + front)
                .contains("terminated by the control socket");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
