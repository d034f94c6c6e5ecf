package io.zmtp.tools.perf;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The perf tools' {@code --type}: both sides in this JVM over ipc (a fresh path, so no port to race for on a shared
 * machine), stdout and stderr captured, the result lines checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PerfTypesTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    private String endpoint() {
        return "ipc://" + dir.resolve("perf.sock").toAbsolutePath();
    }

    private static CompletableFuture<Integer> start(Callable<Integer> command, String... args) {
        return CompletableFuture.supplyAsync(() -> new CommandLine(command).execute(args));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldAnswerAClientFromAServerAndReportTheCounts() throws Exception {
        CompletableFuture<Integer> server = start(new RrServerCommand(), "--type", "SERVER", endpoint(), "16",
                "20000", "100");
        CompletableFuture<Integer> client = start(new RrClientCommand(), "--type", "client", endpoint(), "16",
                "20000", "1000", "100");
        assertThat(client.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(server.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(String.format("message size: 16 [B]%nrequest count: 20000%nin flight: 1000%n"))
                .containsPattern("(?m)^mean throughput: [1-9][0-9]* \\[req/s\\]$");
    }

    @Test
    void shouldCountEveryMessageAGatherReceivesFromAScatter() throws Exception {
        CompletableFuture<Integer> local = start(new LocalThrCommand(), "--type", "GATHER", endpoint(), "64",
                "50000");
        CompletableFuture<Integer> remote = start(new RemoteThrCommand(), "-t", "SCATTER", endpoint(), "64",
                "50000");
        assertThat(remote.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(local.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(String.format("message size: 64 [B]%nmessage count: 50000%n"))
                .containsPattern("(?m)^mean throughput: [1-9][0-9]* \\[msg/s\\]$");
    }

    @Test
    void shouldRefuseATypeTheToolCantUseBeforeOpeningAnything() {
        assertThat(new CommandLine(new LocalThrCommand()).execute("--type", "PUSH", endpoint(), "1", "1")).isOne();
        assertThat(new CommandLine(new RemoteThrCommand()).execute("--pubsub", "--type", "SCATTER", endpoint(), "1",
                "1")).isOne();
        assertThat(new CommandLine(new RrServerCommand()).execute("--type", "DEALER", endpoint(), "1", "1")).isOne();
        assertThat(new CommandLine(new RrClientCommand()).execute("--type", "SERVER", endpoint(), "1", "1", "1"))
                .isOne();
        assertThat(new CommandLine(new RrClientCommand()).execute("--type", "NOPE", endpoint(), "1", "1", "1"))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("local_thr: --type PUSH (expected: PULL, SUB, GATHER)")
                .contains("remote_thr: --type SCATTER (expected: PUB)")
                .contains("rr_server: --type DEALER (expected: ROUTER, SERVER)")
                .contains("rr_client: --type SERVER (expected: DEALER, CLIENT)")
                .contains("not a socket type: NOPE");
    }
}
