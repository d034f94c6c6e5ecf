package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.testkit.TestTimeouts;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * lbbroker3, the reactor version of the load-balancing broker (ZLoop, ZMsg, ZThread.start): every client gets
 * exactly one reply, each request goes to the least recently used ready worker ({@link BrokerLog}), and the backend
 * handler ends the reactor with -1 once all are served. Over ipc:// as the Guide runs it, on each build (one
 * process: clients and workers are its threads); the transports are LoadBalancingBrokerIT's concern, the reactor is
 * this test's.
 */
class LoadBalancingBroker3IT {
    private static final Duration TIMEOUT = TestTimeouts.scaled(Duration.ofSeconds(60));
    private static final int CLIENTS = 20;
    private static final int WORKERS = 3;

    static Stream<Arguments> runs() {
        return Guide.implementations().map(impl -> Arguments.of(impl, "ipc://frontend3.ipc", "ipc://backend3.ipc"));
    }

    @ParameterizedTest(name = "on {0}, {1} {2}")
    @MethodSource("runs")
    void theReactorAnswersEveryClientOnceByTheLeastRecentlyUsedWorker(Implementation impl, String frontend,
            String backend) throws Exception {
        String transport = frontend.substring(0, frontend.indexOf(':'));
        try (GuideProcess broker = GuideProcess.start(impl, Guide.workDir("lbbroker3-" + transport + "-" + impl),
                "lbbroker3", Programs.LB_BROKER3, frontend, backend, String.valueOf(CLIENTS),
                String.valueOf(WORKERS))) {
            broker.awaitSuccess(TIMEOUT);

            // Not "more than one worker served": a worker that connects after another has served all 20 requests (a
            // loaded machine; or JeroMQ 0.6.0, which leaves a few % of its fresh tcp connections, and its ipc:// is
            // tcp, without a greeting until its 30 s handshake timer, zeromq/jeromq PR #1022) serves none, and the
            // broker is right not to wait for it.
            BrokerLog.assertLeastRecentlyUsedAndAnsweredOnce(broker.lines(), CLIENTS, WORKERS);
            // The handler's -1 ended ZLoop.start, which returned it.
            assertThat(broker.lines()).contains("I: reactor ended (-1), all " + CLIENTS + " clients served");
        }
    }
}
