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
 * lbbroker: every client gets exactly one reply, and the broker spreads the requests over all its workers. Over
 * ipc:// as the Guide runs it, and over tcp://, each build. Not inproc://: each client and worker thread has its own
 * ZContext, as in the Guide, and inproc:// connects sockets of one context only (in libzmq and JeroMQ alike).
 */
class LoadBalancingBrokerIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int CLIENTS = 20;
    private static final int WORKERS = 3;
    private static final Pattern ROUTED = Pattern.compile("Broker: (client-\\d+) <- OK from (worker-\\d+)");

    static Stream<Arguments> runs() {
        return Guide.implementations().flatMap(impl -> Stream.of(
                Arguments.of(impl, "ipc://frontend.ipc", "ipc://backend.ipc"),
                Arguments.of(impl, "tcp://127.0.0.1:" + Guide.freePort(), "tcp://127.0.0.1:" + Guide.freePort())));
    }

    @ParameterizedTest(name = "on {0}, {1} {2}")
    @MethodSource("runs")
    void everyClientIsAnsweredOnceAndEveryWorkerServes(Implementation impl, String frontend, String backend)
            throws Exception {
        String transport = frontend.substring(0, frontend.indexOf(':'));
        try (GuideProcess broker = GuideProcess.start(impl, Guide.workDir("lbbroker-" + transport + "-" + impl),
                "lbbroker", Programs.LB_BROKER, frontend, backend, String.valueOf(CLIENTS), String.valueOf(WORKERS))) {
            broker.awaitSuccess(TIMEOUT);

            Map<String, Integer> repliesPerClient = new TreeMap<>();
            Map<String, Integer> requestsPerWorker = new TreeMap<>();
            for (String line : broker.lines()) {
                Matcher m = ROUTED.matcher(line);
                if (m.matches()) {
                    repliesPerClient.merge(m.group(1), 1, Integer::sum);
                    requestsPerWorker.merge(m.group(2), 1, Integer::sum);
                }
            }
            assertThat(repliesPerClient).as(broker.output()).hasSize(CLIENTS);
            assertThat(repliesPerClient.values()).containsOnly(1);
            // The least recently used worker gets each request: with 20 requests and 3 workers, all three serve (a
            // worker would have to take longer to connect than the other two take for all 20 to be left out).
            assertThat(requestsPerWorker).as(broker.output()).hasSize(WORKERS);
            assertThat(broker.lines()).contains("I: all " + CLIENTS + " clients served");
        }
    }
}
