package io.zmtp.tools.perf;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The perf tools over ws:// and wss:// (both sides in this JVM, stdout and stderr captured): the result lines, and
 * on wss the self-signed certificate's fingerprint and the loud warning of a client that checks nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PerfWsTest {
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

    /** Both tools name the same port, so the binding side can't ask for "*". */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static CompletableFuture<Integer> start(Callable<Integer> command, String... args) {
        return CompletableFuture.supplyAsync(() -> new CommandLine(command).execute(args));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldCountEveryMessageOverWs() throws Exception {
        String endpoint = "ws://127.0.0.1:" + freePort() + "/zmq";
        CompletableFuture<Integer> local = start(new LocalThrCommand(), endpoint, "64", "20000");
        CompletableFuture<Integer> remote = start(new RemoteThrCommand(), endpoint, "64", "20000");
        assertThat(remote.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(local.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(String.format("message size: 64 [B]%nmessage count: 20000%n"))
                .containsPattern("(?m)^mean throughput: [1-9][0-9]* \\[msg/s\\]$");
    }

    @Test
    void shouldMeasureLatencyOverWssWithASelfSignedCertificateAndSayTheClientChecksNothing() throws Exception {
        String endpoint = "wss://127.0.0.1:" + freePort() + "/zmq";
        CompletableFuture<Integer> local = start(new LocalLatCommand(), "--wss-self-signed", endpoint, "1", "500");
        CompletableFuture<Integer> remote = start(new RemoteLatCommand(), "--wss-insecure", endpoint, "1", "500");
        assertThat(remote.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(local.get(scaledSeconds(50), TimeUnit.SECONDS)).as(this::printed).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith(String.format("message size: 1 [B]%nroundtrip count: 500%n"));
        assertThat(err.toString(StandardCharsets.UTF_8))
                .containsPattern("wss: self-signed certificate for localhost, 127.0.0.1, ::1; SHA-256 fingerprint "
                        + "([0-9A-F]{2}:){31}[0-9A-F]{2}")
                .contains("WARNING: --wss-insecure: the wss:// server's certificate is NOT checked");
    }

    @Test
    void shouldRefuseToBindWssWithoutACertificateNamingTheOptions() {
        assertThat(new CommandLine(new LocalThrCommand()).execute("wss://127.0.0.1:*/zmq", "1", "1")).isOne();
        assertThat(new CommandLine(new RrServerCommand()).execute("--wss-cert", "/nonexistent/cert.pem",
                "wss://127.0.0.1:*/zmq", "1", "1")).isOne();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("local_thr: binding wss://127.0.0.1:*/zmq needs a certificate: --wss-cert <pem> "
                        + "--wss-key <pem>, or --wss-self-signed for a test")
                .contains("rr_server: --wss-cert and --wss-key go together");
    }
}
