package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Spotify's netty-zmtp ({@code com.spotify:netty4-zmtp:0.4.0}, the ZMTP 1.0/2.0 implementation netty-zmtp users come from) as a
 * peer in a separate JVM. That library declares Netty 4.0.28 as "provided" and is compiled against it; our codec
 * needs Netty 4.2, and the two can't share a class path (same package names, changed internals). So the build
 * copies netty4-zmtp and netty-all 4.0.28.Final into {@code target/spotify-lib} (maven-dependency-plugin execution
 * {@code spotify-netty-zmtp}), and this class compiles {@code src/test/spotify-peer} against exactly those jars
 * with javax.tools, then starts {@code io.zmtp.interop.spotify.SpotifyZmtpPeer} and drives it line by line (see
 * that class for the protocol). A missing jar fails the test with the reason; it never skips.
 */
final class SpotifyPeer implements AutoCloseable {
    static final String LIB_PROPERTY = "zmtp.interop.spotify.lib";
    static final String SOURCES_PROPERTY = "zmtp.interop.spotify.sources";
    static final String CLASSES_PROPERTY = "zmtp.interop.spotify.classes";
    static final String SPOTIFY_JAR = "netty4-zmtp-0.4.0.jar";
    static final String NETTY_JAR = "netty-all-4.0.28.Final.jar";
    private static final String MAIN = "io.zmtp.interop.spotify.SpotifyZmtpPeer";
    private static final Logger LOG = LoggerFactory.getLogger(SpotifyPeer.class);
    private static final String EOF = new String("<eof>");

    private static Path compiled;

    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final StringBuffer stderr = new StringBuffer();
    private final String banner;

    private SpotifyPeer(Process process) {
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), UTF_8);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8)), true);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), UTF_8)), false);
        this.banner = readLine(Duration.ofSeconds(30));
        if (!banner.startsWith("READY ")) {
            close();
            throw new AssertionError("Spotify peer did not start: " + banner + describe());
        }
        LOG.info("Spotify netty-zmtp peer: {}", banner.substring("READY ".length()));
    }

    /** Starts the peer JVM (compiling it on first use in this JVM). */
    static SpotifyPeer start() {
        List<Path> jars = jars();
        Path classes = compile(jars);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        // Netty 4.0's own leak detector: a report lands in stderr, which the tests check.
        command.add("-Dio.netty.leakDetectionLevel=paranoid");
        command.add("-cp");
        StringBuilder cp = new StringBuilder(classes.toString());
        for (Path jar : jars) {
            cp.append(java.io.File.pathSeparator).append(jar);
        }
        command.add(cp.toString());
        command.add(MAIN);
        try {
            return new SpotifyPeer(new ProcessBuilder(command).start());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + command, e);
        }
    }

    /** The banner: netty4-zmtp, Netty and Java versions the peer runs with. */
    String banner() {
        return banner;
    }

    private static List<Path> jars() {
        Path lib = Path.of(System.getProperty(LIB_PROPERTY, "target/spotify-lib")).toAbsolutePath();
        List<Path> jars = new ArrayList<>();
        for (String name : List.of(SPOTIFY_JAR, NETTY_JAR)) {
            Path jar = lib.resolve(name);
            if (!Files.isRegularFile(jar)) {
                throw new AssertionError("Missing " + jar + ": the Spotify netty-zmtp interop tests need "
                        + "com.spotify:netty4-zmtp:0.4.0 and the Netty it was built for, io.netty:netty-all:"
                        + "4.0.28.Final, copied into " + lib + " by zmtp-interop's maven-dependency-plugin execution"
                        + " 'spotify-netty-zmtp' (pre-integration-test). Run `./mvnw -pl zmtp-interop -am verify`"
                        + " (without -o the first time, so Maven can download them from Maven Central), or pass -D"
                        + LIB_PROPERTY + "=<dir with both jars>.");
            }
            jars.add(jar);
        }
        return jars;
    }

    private static synchronized Path compile(List<Path> jars) {
        if (compiled != null) {
            return compiled;
        }
        Path sources = Path.of(System.getProperty(SOURCES_PROPERTY, "src/test/spotify-peer")).toAbsolutePath();
        Path classes = Path.of(System.getProperty(CLASSES_PROPERTY, "target/spotify-peer-classes")).toAbsolutePath();
        List<String> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
            Files.createDirectories(classes);
        } catch (IOException e) {
            throw new AssertionError("Cannot read the Spotify peer sources in " + sources + " (system property "
                    + SOURCES_PROPERTY + ")", e);
        }
        if (files.isEmpty()) {
            throw new AssertionError("No Spotify peer sources in " + sources);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new AssertionError("The Spotify peer is compiled at test time and needs a JDK, not a JRE: "
                    + System.getProperty("java.home"));
        }
        StringBuilder cp = new StringBuilder();
        for (Path jar : jars) {
            cp.append(cp.isEmpty() ? "" : java.io.File.pathSeparator).append(jar);
        }
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", cp.toString(),
                "-encoding", "UTF-8", "-nowarn", "-Xlint:none"));
        args.addAll(files);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = javac.run(null, out, out, args.toArray(String[]::new));
        if (rc != 0) {
            throw new AssertionError("Compiling the Spotify peer (" + sources + ") against " + jars + " failed:\n"
                    + out.toString(UTF_8));
        }
        compiled = classes;
        return classes;
    }

    /** Sends one command line. */
    void send(String line) {
        try {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            throw new AssertionError("Spotify peer is gone (writing `" + line + "`)" + describe(), e);
        }
    }

    String readLine() {
        return readLine(Duration.ofSeconds(60));
    }

    String readLine(Duration timeout) {
        String line;
        try {
            line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (line == null) {
            throw new AssertionError("No output from the Spotify peer within " + timeout + describe());
        }
        if (line == EOF) {
            stdout.add(EOF);
            throw new AssertionError("The Spotify peer exited" + describe());
        }
        return line;
    }

    /** What the peer printed on stderr so far (stack traces of its failures, Netty leak reports). */
    String stderr() {
        return stderr.toString();
    }

    private String describe() {
        String err = stderr.toString().strip();
        return err.isEmpty() ? "" : "; its stderr:\n" + err;
    }

    @Override
    public void close() {
        try {
            send("EXIT");
            stdin.close();
        } catch (AssertionError | IOException ignored) {
            // Already gone.
        }
        try {
            if (!process.waitFor(scaledSeconds(10), TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(scaledSeconds(5), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(scaledSeconds(5), TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private void pump(BufferedReader reader, boolean out) {
        Thread t = new Thread(() -> {
            try (reader) {
                for (String line; (line = reader.readLine()) != null; ) {
                    if (out) {
                        stdout.add(line);
                    } else {
                        stderr.append(line).append('\n');
                    }
                }
            } catch (IOException ignored) {
                // The process was destroyed.
            } finally {
                if (out) {
                    stdout.add(EOF);
                }
            }
        }, out ? "spotify-peer-stdout" : "spotify-peer-stderr");
        t.setDaemon(true);
        t.start();
    }
}
