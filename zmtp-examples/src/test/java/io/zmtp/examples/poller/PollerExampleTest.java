package io.zmtp.examples.poller;

import io.zmtp.examples.Output;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The poller example as {@code ./zmtp example poller} runs it, three round trips: every step, in order. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PollerExampleTest {

    @Test
    void shouldSendReceiveAndReplyFromOneThreadInOrder() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PollerCommand command = new PollerCommand();
        Output output = new Output();
        command.out = output.stream();
        assertThat(new CommandLine(command).execute("--endpoint", "tcp://127.0.0.1:" + port, "--count", "3",
                "--interval", "100", "--size", "40")).isZero();

        List<String> expected = new ArrayList<>();
        expected.add("poller: REP bound to tcp://127.0.0.1:" + port + ", REQ connected; one thread polls both");
        for (int i = 1; i <= 3; i++) {
            expected.add("REQ sent request " + i + " (40 B payload), non-blocking");
            expected.add("REP received request " + i + " (50 B), replying");
            expected.add("REQ received [reply to request " + i + "]");
        }
        expected.add("poller: done, 3 round trips");
        assertThat(output.all()).containsExactlyElementsOf(expected);
    }
}
