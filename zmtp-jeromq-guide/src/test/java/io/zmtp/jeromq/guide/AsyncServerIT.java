package io.zmtp.jeromq.guide;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
 * asyncsrv: DEALER clients forked with ZThread.fork report over their pipes; a ROUTER/DEALER ZMQ.proxy server
 * deals their requests to workers forked in its context, which send request #n back n % 4 times. Every client gets
 * exactly its replies, each one the request it sent. As the Guide runs it (one process) on each build, and the
 * server and clients as two processes, one on each build, both ways.
 */
class AsyncServerIT {
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(60));
    private static final int CLIENTS = 3;
    private static final int REQUESTS = 5;
    private static final int WORKERS = 5;
    private static final Pattern SERVED = Pattern.compile("Worker (worker-\\d+): (client-\\d+) request #(\\d+), "
            + "(\\d+) replies");

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.zmtp.jeromq.guide.Guide#implementations")
    void oneProcessAnswersEveryRequest(Implementation impl) throws Exception {
        try (GuideProcess all = GuideProcess.start(impl, Guide.workDir("asyncsrv-" + impl), "asyncsrv",
                Programs.ASYNC_SRV, "all", "tcp://127.0.0.1:" + Guide.freePort(), String.valueOf(CLIENTS),
                String.valueOf(REQUESTS), String.valueOf(WORKERS))) {
            all.awaitSuccess(TIMEOUT);
            assertClientsAnswered(all);
            assertServed(all);
        }
    }

    /** Pairs of different builds (one build with itself is the one-process test's). */
    static Stream<Arguments> crossPairs() {
        return Guide.pairs().filter(pair -> pair.get()[0] != pair.get()[1]);
    }

    @ParameterizedTest(name = "server on {0}, clients on {1}")
    @MethodSource("crossPairs")
    void serverProcessAnswersEveryRequestOfTheClientsProcess(Implementation serverImpl, Implementation clientImpl)
            throws Exception {
        Path dir = Guide.workDir("asyncsrv-" + serverImpl + "-" + clientImpl);
        String endpoint = "tcp://127.0.0.1:" + Guide.freePort();
        try (GuideProcess server = GuideProcess.start(serverImpl, dir, "asyncsrv-server", Programs.ASYNC_SRV,
                "server", endpoint, "0", "0", String.valueOf(WORKERS))) {
            server.awaitLine(l -> l.startsWith("I: server ready"), TIMEOUT);
            try (GuideProcess clients = GuideProcess.start(clientImpl, dir, "asyncsrv-clients", Programs.ASYNC_SRV,
                    "clients", endpoint, String.valueOf(CLIENTS), String.valueOf(REQUESTS))) {
                clients.awaitSuccess(TIMEOUT);
                assertClientsAnswered(clients);
            }
            // Every request was printed by its worker before its first reply left: all are in the output now.
            assertServed(server);
        }
    }

    /** Each client printed request #n exactly n % 4 times, and reported that total over its pipe. */
    private static void assertClientsAnswered(GuideProcess process) {
        int expected = 0;
        for (int n = 1; n <= REQUESTS; n++) {
            expected += n % 4;
        }
        for (int c = 0; c < CLIENTS; c++) {
            String client = "client-" + c;
            for (int n = 1; n <= REQUESTS; n++) {
                String reply = client + " request #" + n;
                assertThat(process.count(reply::equals)).as(process.output()).isEqualTo(n % 4);
            }
            assertThat(process.lines()).as(process.output())
                    .contains("I: " + client + " got " + expected + " replies to " + REQUESTS + " requests");
        }
    }

    /** Every request was served once, by its worker announcing n % 4 replies, and the load was shared. */
    private static void assertServed(GuideProcess process) {
        Map<String, Integer> perRequest = new TreeMap<>();
        Map<String, Integer> perWorker = new TreeMap<>();
        for (String line : process.lines()) {
            Matcher m = SERVED.matcher(line);
            if (m.matches()) {
                assertThat(Integer.parseInt(m.group(4))).as(line).isEqualTo(Integer.parseInt(m.group(3)) % 4);
                perRequest.merge(m.group(2) + " #" + m.group(3), 1, Integer::sum);
                perWorker.merge(m.group(1), 1, Integer::sum);
            }
        }
        assertThat(perRequest).as(process.output()).hasSize(CLIENTS * REQUESTS);
        assertThat(perRequest.values()).containsOnly(1);
        // The backend DEALER deals requests round-robin over the workers connected, and the server starts its proxy
        // once all have connected: each serves the same share. (This asserted only "more than one serves", which
        // still depended on how soon the worker threads connected.)
        assertThat(perWorker).as(process.output()).hasSize(WORKERS);
        assertThat(perWorker.values()).as(process.output()).containsOnly(CLIENTS * REQUESTS / WORKERS);
    }
}
