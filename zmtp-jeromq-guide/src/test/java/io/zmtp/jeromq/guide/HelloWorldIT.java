package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * hwserver and hwclient: ten "Hello"s, ten "World"s, over tcp with each build on each side (so JeroMQ's hwclient
 * talks to zmtp-jeromq's hwserver and the reverse), and over ipc:// between two processes on zmtp-jeromq (JeroMQ's
 * ipc:// is tcp behind a name only its own process knows, so it can't cross processes).
 */
class HelloWorldIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(60));

    @ParameterizedTest(name = "server on {0}, client on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void clientGetsAWorldForEachHelloOverTcp(Implementation server, Implementation client) throws Exception {
        int port = Guide.freePort();
        exchange(server, client, Guide.workDir("hello-tcp-" + server + "-" + client),
                "tcp://127.0.0.1:" + port, "tcp://127.0.0.1:" + port);
    }

    @Test
    void clientGetsAWorldForEachHelloOverIpcBetweenProcessesOnZmtpJeromq() throws Exception {
        // Always on zmtp-jeromq, whatever zmtp.guide.implementations selects: it is this module's build, never missing.
        Implementation impl = Implementation.ZMTP_JEROMQ;
        exchange(impl, impl, Guide.workDir("hello-ipc-" + impl), "ipc://hello.ipc", "ipc://hello.ipc");
    }

    private static void exchange(Implementation serverImpl, Implementation clientImpl, Path dir, String bind,
            String connect) throws Exception {
        try (GuideProcess server = GuideProcess.start(serverImpl, dir, "hwserver", Programs.HW_SERVER, bind)) {
            server.awaitLine(l -> l.startsWith("I: bound"), TIMEOUT);
            try (GuideProcess client = GuideProcess.start(clientImpl, dir, "hwclient", Programs.HW_CLIENT, connect,
                    "10")) {
                client.awaitSuccess(TIMEOUT);
                assertThat(client.lines()).containsSubsequence(
                        IntStream.range(0, 10).mapToObj(i -> "Received World " + i).toList());
            }
            assertThat(server.count(l -> l.equals("Received: [Hello]"))).isEqualTo(10);
        }
    }
}
