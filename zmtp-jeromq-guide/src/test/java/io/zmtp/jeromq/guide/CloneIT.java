package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Clone pattern (model three): two clients push random updates over a small key space (so they overwrite each
 * other's keys) through the server's PULL, and apply what its PUB publishes on top of the snapshot its ROUTER gave
 * them; a third client that only takes a snapshot afterwards sees the server's map. All three maps are the same.
 */
class CloneIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(90));
    private static final int UPDATES = 40;

    @ParameterizedTest(name = "server on {0}, clients on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void clientsConvergeOnTheServersMap(Implementation serverImpl, Implementation clientImpl) throws Exception {
        Path dir = Guide.workDir("clone-" + serverImpl + "-" + clientImpl);
        int snapshot = Guide.freePort();
        int publisher = Guide.freePort();
        int collector = Guide.freePort();
        try (GuideProcess server = GuideProcess.start(serverImpl, dir, "clonesrv3", Programs.CLONE_SRV3,
                "tcp://127.0.0.1:" + snapshot, "tcp://127.0.0.1:" + publisher, "tcp://127.0.0.1:" + collector)) {
            server.awaitLine(l -> l.startsWith("I: bound"), TIMEOUT);
            String[] endpoints = {"tcp://127.0.0.1:" + snapshot, "tcp://127.0.0.1:" + publisher,
                    "tcp://127.0.0.1:" + collector};
            try (GuideProcess a = client(clientImpl, dir, "a", endpoints, UPDATES);
                 GuideProcess b = client(clientImpl, dir, "b", endpoints, UPDATES)) {
                a.awaitSuccess(TIMEOUT);
                b.awaitSuccess(TIMEOUT);
                try (GuideProcess late = client(clientImpl, dir, "late", endpoints, 0)) {
                    late.awaitSuccess(TIMEOUT);

                    server.awaitLine(l -> l.matches("I: publishing update +" + 2 * UPDATES), TIMEOUT);
                    List<String> serverMap = map(late);
                    assertThat(late.lines()).contains("Received snapshot = " + 2 * UPDATES);
                    assertThat(serverMap).isNotEmpty();
                    assertThat(map(a)).as(a.output()).isEqualTo(serverMap);
                    assertThat(map(b)).as(b.output()).isEqualTo(serverMap);
                    assertThat(a.lines()).contains("I: map at sequence " + 2 * UPDATES + ", " + serverMap.size()
                            + " keys");
                }
            }
        }
    }

    private static GuideProcess client(Implementation impl, Path dir, String name, String[] endpoints, int updates) {
        // 40 updates 50 ms apart over 30 keys.
        return GuideProcess.start(impl, dir, "clonecli3-" + name, Programs.CLONE_CLI3, endpoints[0], endpoints[1],
                endpoints[2], String.valueOf(updates), "50", "30");
    }

    private static List<String> map(GuideProcess client) {
        return client.lines().stream().filter(l -> l.startsWith("I: entry ")).toList();
    }
}
