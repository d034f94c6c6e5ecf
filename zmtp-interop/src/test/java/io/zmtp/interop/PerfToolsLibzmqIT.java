package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code zmtp} perf tools against libzmq's side of bench/ (bench/*.c, built by the pre-integration-test phase
 * against Debian's libzmq3-dev), each in both roles and at small counts: the result lines must parse and the counts
 * must match. Timing is printed, never asserted.
 */
class PerfToolsLibzmqIT {
    private static final long TIMEOUT_SECONDS = scaledSeconds(60);
    private static Path bin;

    @BeforeAll
    static void findLibzmqTools() {
        String dir = System.getProperty("zmtp.interop.perfBin");
        assertThat(dir).as("system property zmtp.interop.perfBin (set by zmtp-interop's pom)").isNotBlank();
        bin = Paths.get(dir);
        for (String tool : List.of("local_thr", "remote_thr", "local_lat", "remote_lat", "rr_server", "rr_client")) {
            assertThat(Files.isExecutable(bin.resolve(tool)))
                    .as("libzmq perf tool %s missing: build it with bench/build.sh %s (installs libzmq3-dev)",
                            bin.resolve(tool), dir)
                    .isTrue();
        }
    }

    @Test
    void ourLocalThrReceivesFromLibzmqRemoteThr() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("local_thr", "tcp://127.0.0.1:" + port, "64", "20000"),
                libzmq("remote_thr", "tcp://127.0.0.1:" + port, "64", "20000"), true);
        assertThroughputLines(out, 64, 20000);
    }

    @Test
    void libzmqLocalThrReceivesFromOurRemoteThr() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("local_thr", "tcp://127.0.0.1:" + port, "64", "20000"),
                zmtp("remote_thr", "tcp://127.0.0.1:" + port, "64", "20000"), true);
        assertThroughputLines(out, 64, 20000);
    }

    // With a warm-up count (bench/compare.sh's steady runs): the sender sends warm-up + count messages, the receiver
    // takes the warm-up untimed and reports the count. A side that ignored the argument would leave the receiver
    // waiting for messages that never come (the pair fails on its deadline) or report another count.
    @Test
    void ourLocalThrTakesAWarmUpFromLibzmqRemoteThr() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("local_thr", "tcp://127.0.0.1:" + port, "64", "20000", "5000"),
                libzmq("remote_thr", "tcp://127.0.0.1:" + port, "64", "20000", "5000"), true);
        assertThroughputLines(out, 64, 20000);
    }

    @Test
    void libzmqLocalThrTakesAWarmUpFromOurPublisher() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("local_thr", "tcp://127.0.0.1:" + port, "16", "20000", "5000", "--pubsub"),
                zmtp("remote_thr", "--pubsub", "tcp://127.0.0.1:" + port, "16", "20000", "5000"), true);
        assertThroughputLines(out, 16, 20000);
    }

    @Test
    void ourSubReceivesFromLibzmqPublisher() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("local_thr", "--pubsub", "tcp://127.0.0.1:" + port, "16", "20000"),
                libzmq("remote_thr", "tcp://127.0.0.1:" + port, "16", "20000", "--pubsub"), true);
        assertThroughputLines(out, 16, 20000);
    }

    @Test
    void libzmqSubReceivesFromOurPublisher() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("local_thr", "tcp://127.0.0.1:" + port, "16", "20000", "--pubsub"),
                zmtp("remote_thr", "--pubsub", "tcp://127.0.0.1:" + port, "16", "20000"), true);
        assertThroughputLines(out, 16, 20000);
    }

    @Test
    void ourLocalLatEchoesLibzmqRemoteLat() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("local_lat", "tcp://127.0.0.1:" + port, "1024", "500"),
                libzmq("remote_lat", "tcp://127.0.0.1:" + port, "1024", "500"), false);
        assertLatencyLines(out, 1024, 500);
    }

    @Test
    void libzmqLocalLatEchoesOurRemoteLat() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("local_lat", "tcp://127.0.0.1:" + port, "1", "500"),
                zmtp("remote_lat", "tcp://127.0.0.1:" + port, "1", "500"), false);
        assertLatencyLines(out, 1, 500);
        assertThat(out).containsPattern("(?m)^latency p99: \\d+\\.\\d{3} \\[us\\]$");
    }

    // The optional warm-up: untimed round trips both sides count the same way (a side that echoed too few would
    // leave the other waiting), and the result lines count only the timed ones.

    @Test
    void ourLocalLatEchoesLibzmqRemoteLatWarmup() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("local_lat", "tcp://127.0.0.1:" + port, "16", "300", "200"),
                libzmq("remote_lat", "tcp://127.0.0.1:" + port, "16", "300", "200"), false);
        assertLatencyLines(out, 16, 300);
    }

    @Test
    void libzmqLocalLatEchoesOurRemoteLatWarmup() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("local_lat", "tcp://127.0.0.1:" + port, "16", "300", "200"),
                zmtp("remote_lat", "tcp://127.0.0.1:" + port, "16", "300", "200"), false);
        assertLatencyLines(out, 16, 300);
    }

    // CURVE with our side's crypto on the Vector API (--add-modules jdk.incubator.vector): libzmq must open what we seal
    // and we what it seals, at sizes where the vector cores take over (from 4 KiB: 8 KiB, one fill of key stream and
    // one buffer of MAC lanes; 64 KiB, several of each).

    private static final String CURVE_PUBLIC = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    private static final String CURVE_SECRET = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";

    @ParameterizedTest(name = "{0} B")
    @ValueSource(ints = {8192, 65536})
    void libzmqLocalThrOpensWhatOurRemoteThrSealsOnTheVectorApi(int size) throws Exception {
        int port = freePort();
        int count = size > 10_000 ? 600 : 3000;
        Path dir = Files.createTempDirectory("perf-it");
        String out = runPair(dir, libzmq("local_thr", "tcp://127.0.0.1:" + port, "" + size, "" + count,
                "--curve-secret-key", CURVE_SECRET), zmtpWithVectorApi("remote_thr", "tcp://127.0.0.1:" + port,
                "" + size, "" + count, "--curve-server-key", CURVE_PUBLIC), true);
        assertThroughputLines(out, size, count);
        assertOnTheVectorApi(dir.resolve("remote.err"));
    }

    @ParameterizedTest(name = "{0} B")
    @ValueSource(ints = {8192, 65536})
    void ourLocalThrOpensWhatLibzmqRemoteThrSealsOnTheVectorApi(int size) throws Exception {
        int port = freePort();
        int count = size > 10_000 ? 600 : 3000;
        Path dir = Files.createTempDirectory("perf-it");
        String out = runPair(dir, zmtpWithVectorApi("local_thr", "tcp://127.0.0.1:" + port, "" + size, "" + count,
                "--curve-secret-key", CURVE_SECRET), libzmq("remote_thr", "tcp://127.0.0.1:" + port, "" + size,
                "" + count, "--curve-server-key", CURVE_PUBLIC), true);
        assertThroughputLines(out, size, count);
        assertOnTheVectorApi(dir.resolve("local.err"));
    }

    private static void assertOnTheVectorApi(Path stderr) throws IOException {
        assertThat(Files.readString(stderr))
                .as("our side logs that both CURVE cores run on the Vector API")
                .contains("Salsa20 on the Vector API")
                .contains("Poly1305 on the Vector API");
    }

    // Request/reply with requests in flight: each pairing must finish (both sides exit 0, so no reply was lost and
    // neither side hung at the end) and the client must print its result line. A small count keeps CI short.

    @Test
    void ourRrClientAgainstOurRrServer() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("rr_server", "tcp://127.0.0.1:" + port, "16", "20000"),
                zmtp("rr_client", "tcp://127.0.0.1:" + port, "16", "20000", "100"), false);
        assertRequestReplyLines(out, 16, 20000, 100);
    }

    @Test
    void ourRrServerEchoesLibzmqRrClient() throws Exception {
        int port = freePort();
        String out = runPair(zmtp("rr_server", "tcp://127.0.0.1:" + port, "1024", "20000", "1000"),
                libzmq("rr_client", "tcp://127.0.0.1:" + port, "1024", "20000", "100", "1000"), false);
        assertRequestReplyLines(out, 1024, 20000, 100);
    }

    @Test
    void libzmqRrServerEchoesOurRrClient() throws Exception {
        int port = freePort();
        String out = runPair(libzmq("rr_server", "tcp://127.0.0.1:" + port, "16", "20000", "1000"),
                zmtp("rr_client", "tcp://127.0.0.1:" + port, "16", "20000", "100", "1000"), false);
        assertRequestReplyLines(out, 16, 20000, 100);
    }

    @Test
    void rrServerRejectsARequestOfTheWrongSize() throws Exception {
        int port = freePort();
        Path dir = Files.createTempDirectory("perf-it");
        List<String> server = zmtp("rr_server", "tcp://127.0.0.1:" + port, "16", "100");
        List<String> client = libzmq("rr_client", "tcp://127.0.0.1:" + port, "17", "100", "10");
        Process s = start(server, dir, "local");
        Process c = start(client, dir, "remote");
        try {
            assertThat(s.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("rr_server exits").isTrue();
            assertThat(s.exitValue()).isEqualTo(1);
            assertThat(Files.readString(dir.resolve("local.err")))
                    .contains("rr_server: request of incorrect size received: 17 B");
        } finally {
            s.destroyForcibly();
            c.destroyForcibly();
        }
    }

    private static void assertRequestReplyLines(String out, int size, int count, int inFlight) {
        assertThat(out).containsPattern("(?m)^message size: " + size + " \\[B\\]$");
        assertThat(out).containsPattern("(?m)^request count: " + count + "$");
        assertThat(out).containsPattern("(?m)^in flight: " + inFlight + "$");
        // The last line exactly, as scripts read it.
        String[] lines = out.split("\\R");
        assertThat(lines[lines.length - 1]).matches("mean throughput: \\d+ \\[req/s\\]");
    }

    private static void assertThroughputLines(String out, int size, int count) {
        assertThat(out).containsPattern("(?m)^message size: " + size + " \\[B\\]$");
        assertThat(out).containsPattern("(?m)^message count: " + count + "$");
        assertThat(out).containsPattern("(?m)^mean throughput: \\d+ \\[msg/s\\]$");
        assertThat(out).containsPattern("(?m)^mean throughput: \\d+\\.\\d{3} \\[Mb/s\\]$");
        Matcher m = Pattern.compile("(?m)^mean throughput: (\\d+) \\[msg/s\\]$").matcher(out);
        assertThat(m.find()).isTrue();
        assertThat(Long.parseLong(m.group(1))).isPositive();
    }

    private static void assertLatencyLines(String out, int size, int count) {
        assertThat(out).containsPattern("(?m)^message size: " + size + " \\[B\\]$");
        assertThat(out).containsPattern("(?m)^roundtrip count: " + count + "$");
        assertThat(out).containsPattern("(?m)^average latency: \\d+\\.\\d{3} \\[us\\]$");
    }

    private static List<String> zmtp(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.zmtp.tools.Zmtp");
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** {@link #zmtp} in a JVM with the Vector API, so that CURVE's crypto runs on it (the codec's CurveVectors). */
    private static List<String> zmtpWithVectorApi(String... args) {
        List<String> cmd = zmtp(args);
        cmd.addAll(1, List.of("--add-modules", "jdk.incubator.vector"));
        return cmd;
    }

    private static List<String> libzmq(String tool, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.resolve(tool).toString());
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /**
     * Starts the binding side, then the connecting side; both must exit 0. Returns the stdout of the side that prints
     * the results: the local (binding) side for throughput, the remote side (the client) for latency and
     * request/reply.
     */
    private static String runPair(List<String> local, List<String> remote, boolean localPrints) throws Exception {
        return runPair(Files.createTempDirectory("perf-it"), local, remote, localPrints);
    }

    /** {@link #runPair(List, List, boolean)} with each side's output in {@code dir}, as local.out, remote.err etc. */
    private static String runPair(Path dir, List<String> local, List<String> remote, boolean localPrints)
            throws Exception {
        Process l = start(local, dir, "local");
        Process r = start(remote, dir, "remote");
        try {
            awaitSuccess(r, dir, "remote", remote);
            awaitSuccess(l, dir, "local", local);
            String out = Files.readString(dir.resolve(localPrints ? "local.out" : "remote.out"), StandardCharsets.UTF_8);
            System.out.println(String.join(" ", localPrints ? local : remote).replace(
                    System.getProperty("java.class.path"), "<classpath>") + "\n" + out);
            return out;
        } finally {
            l.destroyForcibly();
            r.destroyForcibly();
        }
    }

    private static Process start(List<String> cmd, Path dir, String name) throws IOException {
        return new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile())
                .start();
    }

    private static void awaitSuccess(Process p, Path dir, String name, List<String> cmd) throws Exception {
        String what = cmd.get(0).endsWith("java") ? "zmtp " + cmd.get(cmd.indexOf("io.zmtp.tools.Zmtp") + 1) : cmd.get(0);
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(what + " (" + name + ") did not finish in " + TIMEOUT_SECONDS + " s; stderr:\n"
                    + Files.readString(dir.resolve(name + ".err")));
        }
        assertThat(p.exitValue())
                .as("%s (%s) exit status; stderr:%n%s", what, name, Files.readString(dir.resolve(name + ".err")))
                .isZero();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
