package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The perf programs run to their end and report in libzmq's format, each side on each build (the figures are
 * bench/jeromq-api.sh's business, not a test's).
 */
class PerfProgramsIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(120));

    @ParameterizedTest(name = "local on {0}, remote on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void throughputPairReceivesEveryMessage(Implementation local, Implementation remote) throws Exception {
        Path dir = Guide.workDir("perf-thr-" + local + "-" + remote);
        String endpoint = "tcp://127.0.0.1:" + Guide.freePort();
        try (GuideProcess receiver = GuideProcess.start(local, dir, "local_thr", Programs.LOCAL_THR, endpoint, "64",
                "20000");
             GuideProcess sender = GuideProcess.start(remote, dir, "remote_thr", Programs.REMOTE_THR, endpoint, "64",
                     "20000")) {
            receiver.awaitSuccess(TIMEOUT);
            sender.awaitSuccess(TIMEOUT);
            assertThat(receiver.lines()).contains("message size: 64 [B]", "message count: 20000");
            assertThat(receiver.lines()).anyMatch(l -> l.matches("mean throughput: [1-9]\\d* \\[msg/s]"));
        }
    }

    @ParameterizedTest(name = "local on {0}, remote on {1}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#pairs")
    void latencyPairCompletesEveryRoundTrip(Implementation local, Implementation remote) throws Exception {
        Path dir = Guide.workDir("perf-lat-" + local + "-" + remote);
        String endpoint = "tcp://127.0.0.1:" + Guide.freePort();
        try (GuideProcess echo = GuideProcess.start(local, dir, "local_lat", Programs.LOCAL_LAT, endpoint, "1", "2000");
             GuideProcess pinger = GuideProcess.start(remote, dir, "remote_lat", Programs.REMOTE_LAT, endpoint, "1",
                     "2000")) {
            pinger.awaitSuccess(TIMEOUT);
            echo.awaitSuccess(TIMEOUT);
            assertThat(pinger.lines()).contains("message size: 1 [B]", "roundtrip count: 2000");
            assertThat(pinger.lines()).anyMatch(l -> l.matches("average latency: \\d+\\.\\d{3} \\[us]"));
        }
    }
}
