package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.testkit.TestTimeouts;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * lbbroker: every client gets exactly one reply, and the broker hands each request to the least recently used of its
 * ready workers ({@link BrokerLog}). Over ipc:// as the Guide runs it, and over tcp://, each build. Not inproc://:
 * each client and worker thread has its own ZContext, as in the Guide, and inproc:// connects sockets of one context
 * only (in libzmq and JeroMQ alike).
 */
class LoadBalancingBrokerIT {
    private static final Duration TIMEOUT = TestTimeouts.scaled(Duration.ofSeconds(90));
    private static final int CLIENTS = 20;
    private static final int WORKERS = 3;

    static Stream<Arguments> runs() {
        return Guide.implementations().flatMap(impl -> Stream.of(
                Arguments.of(impl, "ipc://frontend.ipc", "ipc://backend.ipc"),
                Arguments.of(impl, "tcp://127.0.0.1:" + Guide.freePort(), "tcp://127.0.0.1:" + Guide.freePort())));
    }

    @ParameterizedTest(name = "on {0}, {1} {2}")
    @MethodSource("runs")
    void everyClientIsAnsweredOnceByTheLeastRecentlyUsedWorker(Implementation impl, String frontend, String backend)
            throws Exception {
        String transport = frontend.substring(0, frontend.indexOf(':'));
        try (GuideProcess broker = GuideProcess.start(impl, Guide.workDir("lbbroker-" + transport + "-" + impl),
                "lbbroker", Programs.LB_BROKER, frontend, backend, String.valueOf(CLIENTS), String.valueOf(WORKERS))) {
            broker.awaitSuccess(TIMEOUT);

            // Not "all three workers served": a worker that connects after the others have served all 20 requests
            // (a loaded machine) serves none, and the broker is right not to wait for it.
            BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(broker.lines(), CLIENTS, WORKERS);
            assertThat(broker.lines()).contains("I: all " + CLIENTS + " clients served");
        }
    }
}
