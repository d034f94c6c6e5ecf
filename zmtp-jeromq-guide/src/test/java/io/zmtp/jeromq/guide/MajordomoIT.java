package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Majordomo: mdbroker with an "echo" and a "reverse" worker (both mdworker, which echoes); mdclient's requests to
 * a service are answered by that service's worker only, and the broker's own mmi.service says which services
 * exist. The broker on each build, the workers and clients on each.
 */
class MajordomoIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(90));

    @ParameterizedTest(name = "broker on {0}, workers and clients on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void requestsAreAnsweredByTheirServicesWorkers(Implementation brokerImpl, Implementation peers)
            throws Exception {
        Path dir = Guide.workDir("majordomo-" + brokerImpl + "-" + peers);
        String endpoint = "tcp://127.0.0.1:" + Guide.freePort();
        try (GuideProcess broker = GuideProcess.start(brokerImpl, dir, "mdbroker", Programs.MD_BROKER, endpoint);
             GuideProcess echo = GuideProcess.start(peers, dir, "mdworker-echo", Programs.MD_WORKER, endpoint, "echo");
             GuideProcess other = GuideProcess.start(peers, dir, "mdworker-other", Programs.MD_WORKER, endpoint,
                     "other")) {
            broker.awaitLine(l -> l.startsWith("I: MDP broker/0.1.1 is active"), TIMEOUT);

            // Workers register asynchronously: ask the broker (MMI) until both services have one.
            awaitService(peers, dir, endpoint, "echo");
            awaitService(peers, dir, endpoint, "other");

            GuideProcess echoClient = client(peers, dir, endpoint, "echo", "200", "Hello world");
            assertThat(echoClient.lines()).contains("I: first reply from 'echo': Hello world",
                    "200 requests/replies processed");
            GuideProcess otherClient = client(peers, dir, endpoint, "other", "7", "to the other");
            assertThat(otherClient.lines()).contains("I: first reply from 'other': to the other",
                    "7 requests/replies processed");

            assertThat(echo.count(l -> l.startsWith("I: echo request "))).isEqualTo(200);
            assertThat(other.count(l -> l.startsWith("I: other request "))).isEqualTo(7);

            GuideProcess missing = client(peers, dir, endpoint, "mmi.service", "1", "nobody");
            assertThat(missing.lines()).contains("I: first reply from 'mmi.service': 404");
            GuideProcess unknownMmi = client(peers, dir, endpoint, "mmi.nothing", "1", "echo");
            assertThat(unknownMmi.lines()).contains("I: first reply from 'mmi.nothing': 501");
        }
    }

    private static void awaitService(Implementation impl, Path dir, String endpoint, String service)
            throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            GuideProcess lookup = client(impl, dir, endpoint, "mmi.service", "1", service);
            if (lookup.lines().contains("I: first reply from 'mmi.service': 200")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("service " + service + " never registered; last lookup:\n"
                        + lookup.output());
            }
            Thread.sleep(200);
        }
    }

    /** Runs mdclient to its end: {@code requests} requests of {@code body} to {@code service}. */
    private static GuideProcess client(Implementation impl, Path dir, String endpoint, String service,
            String requests, String body) throws Exception {
        try (GuideProcess client = GuideProcess.start(impl, dir, "mdclient-" + service, Programs.MD_CLIENT, endpoint,
                service, requests, body)) {
            client.awaitSuccess(TIMEOUT);
            return client;
        }
    }
}
