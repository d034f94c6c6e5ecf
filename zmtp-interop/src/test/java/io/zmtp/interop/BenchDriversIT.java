package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The other implementations' sides of the benchmarks in bench/ run and print their result lines: libzmq's scale
 * drivers (bench/scale_libzmq.py on the interop venv's pyzmq) and Spotify netty-zmtp's (bench/spotify/SpotifyPerf.java,
 * launched from source on the Spotify jars this module copies). Short runs; no speed is asserted.
 */
class BenchDriversIT {
    private static final Path BENCH = Path.of("..", "bench").toAbsolutePath().normalize();

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "fanout --subscribers 3 --duration 1 --size 16; messages/s delivered over 1 s to 3 subscribers",
        "router-scale --peers 20 --duration 1 --inflight 2; requests/s over 1 s with 20 peers"})
    void libzmqScaleDriverShouldPrintItsResultLine(String args, String summary) throws Exception {
        List<String> command = new ArrayList<>(List.of(PyZmq.python().toString(),
                BENCH.resolve("scale_libzmq.py").toString()));
        command.addAll(List.of(args.split(" ")));
        assertThat(run(command)).contains("average: ").contains(summary);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "throughput 1 100; messages/s over 1 s",
        "reqrep 1 100; requests/s over 1 s"})
    void spotifyDriverShouldPrintItsResultLine(String args, String summary) throws Exception {
        Path lib = Path.of(System.getProperty("zmtp.interop.spotify.lib", "target/spotify-lib")).toAbsolutePath();
        String classPath = lib.resolve(SpotifyPeer.SPOTIFY_JAR) + File.pathSeparator + lib.resolve(SpotifyPeer.NETTY_JAR);
        assertThat(Files.isRegularFile(lib.resolve(SpotifyPeer.NETTY_JAR)))
                .as("%s: copied by zmtp-interop's 'spotify-netty-zmtp' execution (pre-integration-test)", lib)
                .isTrue();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", classPath, BENCH.resolve("spotify/src/main/java/SpotifyPerf.java").toString()));
        command.addAll(List.of(args.split(" ")));
        assertThat(run(command)).contains("spotify netty4-zmtp 0.4.0").contains("average: ").contains(summary);
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean exited = p.waitFor(scaledSeconds(60), TimeUnit.SECONDS);
        if (!exited) {
            p.destroyForcibly();
        }
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        assertThat(exited).as("%s exits within 60 s:%n%s", command, out).isTrue();
        assertThat(p.exitValue()).as("%s:%n%s", command, out).isZero();
        return out;
    }
}
