package io.zmtp.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The perf tools' result lines must be libzmq's, byte for byte, so scripts can read either. */
class PerfOutputTest {

    @Test
    void throughputLinesFollowLibzmqArithmetic() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // 1,000,000 messages of 64 B in 0.5 s: libzmq prints 2000000 msg/s and (2000000 * 64 * 8) / 1e6 Mb/s.
        LocalThrCommand.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 64, 1_000_000,
                TimeUnit.MILLISECONDS.toNanos(500));

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(String.format(
                "message size: 64 [B]%nmessage count: 1000000%nmean throughput: 2000000 [msg/s]%n"
                        + "mean throughput: 1024.000 [Mb/s]%n"));
    }

    @Test
    void requestReplyLinesEndWithTheRateAsAnInteger() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // 200,000 replies in 0.8 s: 250000 req/s, truncated as local_thr's rate is.
        RrClientCommand.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 16, 200_000, 1000,
                TimeUnit.MILLISECONDS.toNanos(800));

        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(String.format(
                "message size: 16 [B]%nrequest count: 200000%nin flight: 1000%nmean throughput: 250000 [req/s]%n"));
    }

    @Test
    void latencyLinesReportHalfRoundTrips() {
        Histogram h = new Histogram(TimeUnit.MINUTES.toNanos(10), 3);
        for (int i = 0; i < 100; i++) {
            h.recordValue(50_000); // 50 us round trips
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RemoteLatCommand.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 1, 100, 5_000_000, h);

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out).startsWith(String.format(
                "message size: 1 [B]%nroundtrip count: 100%naverage latency: 25.000 [us]%n"));
        assertThat(out).containsPattern("(?m)^latency p50: 25\\.0\\d\\d \\[us\\]$");
        assertThat(out).containsPattern("(?m)^latency p99\\.9: 25\\.0\\d\\d \\[us\\]$");
    }

    @Test
    void endpointsAreTheSocketLayersAndABadOneExitsWithStatus1() {
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            assertThat(new CommandLine(new LocalThrCommand()).execute("tcp://127.0.0.1:99999", "1", "1")).isEqualTo(1);
            assertThat(new CommandLine(new RemoteThrCommand()).execute("tcp://*:5555", "1", "1")).isEqualTo(1);
        } finally {
            System.setErr(err);
        }
        // The wording is the socket layer's; what the tools add is the tool's name in front and one line each.
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .containsPattern("(?m)^local_thr: .*99999.*$")
                .containsPattern("(?m)^remote_thr: .*\\*:5555.*$");
    }
}
