package io.zmtp.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

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
    void endpointsParseLikeLibzmq() {
        assertThat(Endpoint.parse("tcp://*:5555").bindAddress().getAddress().isAnyLocalAddress()).isTrue();
        assertThat(Endpoint.parse("tcp://127.0.0.1:5555").connectAddress().getPort()).isEqualTo(5555);
        assertThat(Endpoint.parse("tcp://[::1]:5555").connectAddress().getAddress().isLoopbackAddress()).isTrue();
        assertThatThrownBy(() -> Endpoint.parse("ipc:///tmp/x")).hasMessageContaining("expected: tcp://");
        assertThatThrownBy(() -> Endpoint.parse("tcp://host:99999")).hasMessageContaining("0..65535");
    }
}
