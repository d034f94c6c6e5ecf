package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * lbbroker3, the reactor version of the load-balancing broker (ZLoop, ZMsg, ZThread.start): every client gets
 * exactly one reply, the requests are spread over the workers, and the backend handler ends the reactor with -1
 * once all are served. Over ipc:// as the Guide runs it, on each build (one process: clients and workers are its
 * threads); the transports are LoadBalancingBrokerIT's concern, the reactor is this test's.
 */
class LoadBalancingBroker3IT {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int CLIENTS = 20;
    private static final int WORKERS = 3;
    private static final Pattern ROUTED =
            Pattern.compile("Broker: (client-\\d+) <- OK from (worker-\\d+) \\((worker-\\d+) ready again\\)");

    static Stream<Arguments> runs() {
        return Guide.implementations().map(impl -> Arguments.of(impl, "ipc://frontend3.ipc", "ipc://backend3.ipc"));
    }

    @ParameterizedTest(name = "on {0}, {1} {2}")
    @MethodSource("runs")
    void theReactorAnswersEveryClientOnceOverTheWorkers(Implementation impl, String frontend, String backend)
            throws Exception {
        String transport = frontend.substring(0, frontend.indexOf(':'));
        try (GuideProcess broker = GuideProcess.start(impl, Guide.workDir("lbbroker3-" + transport + "-" + impl),
                "lbbroker3", Programs.LB_BROKER3, frontend, backend, String.valueOf(CLIENTS),
                String.valueOf(WORKERS))) {
            broker.awaitSuccess(TIMEOUT);

            Map<String, Integer> repliesPerClient = new TreeMap<>();
            Map<String, Integer> requestsPerWorker = new TreeMap<>();
            for (String line : broker.lines()) {
                Matcher m = ROUTED.matcher(line);
                if (m.matches()) {
                    repliesPerClient.merge(m.group(1), 1, Integer::sum);
                    requestsPerWorker.merge(m.group(2), 1, Integer::sum);
                    // The worker whose reply this is goes back on the ready queue: the reply's envelope named it.
                    assertThat(m.group(3)).as(line).isEqualTo(m.group(2));
                }
            }
            assertThat(repliesPerClient).as(broker.output()).hasSize(CLIENTS);
            assertThat(repliesPerClient.values()).containsOnly(1);
            // The frontend is polled only while a worker is ready and each request goes to the least recently used
            // one: with 20 requests and 3 workers, all three serve, unless a worker's connection is late. JeroMQ
            // 0.6.0 leaves a few % of its fresh tcp connections (its ipc:// is tcp) without a greeting until its 30 s
            // handshake timer (zeromq/jeromq PR #1022); the other workers then take all the requests. So: more than one.
            assertThat(requestsPerWorker.keySet()).as(broker.output()).hasSizeGreaterThan(1)
                    .allMatch(w -> w.matches("worker-[0-" + (WORKERS - 1) + "]"));
            // The handler's -1 ended ZLoop.start, which returned it.
            assertThat(broker.lines()).contains("I: reactor ended (-1), all " + CLIENTS + " clients served");
        }
    }
}
