package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ZAuth and ZCert between zmtp-jeromq and real JeroMQ 0.6.0, both ways: the server's {@code ZAuth} on one build
 * decides for REQ clients on the other. CURVE with a {@code ZCertStore} directory of public certificates written by
 * the client's build ({@code ZCert.savePublic}) and read by the server's, the server's certificate written by the
 * server's build and read by the client's; PLAIN with a password file. In each, a known client is answered (ZAuth
 * replies 200 with its User-Id, on zmtp-jeromq with the metadata of the client's certificate, and logs "Allowed"
 * when verbose) and a refused one (a key not in the store, a wrong password, an unknown user) sees its handshake fail
 * with the ZAP status, 400, and gets nothing served.
 *
 * <p>Every role is {@link ZAuthPeerMain}, one JeroMQ-API program, run in child JVMs: as built, on JeroMQ's jar
 * (this JVM's class path), or with zmtp-jeromq in its place ({@link ZmtpJeromqPeer#classPath()}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZAuthJeromqIT {
    /** Each wait is for one step of a child JVM (a start, a handshake, a request), which takes a few seconds. */
    private static final Duration TIMEOUT = scaled(Duration.ofSeconds(20));

    enum Build {
        JEROMQ("JeroMQ 0.6.0"),
        ZMTP_JEROMQ("zmtp-jeromq");

        final String label;

        Build(String label) {
            this.label = label;
        }

        String classPath() {
            return this == JEROMQ ? System.getProperty("java.class.path") : ZmtpJeromqPeer.classPath();
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** The server's build, then the clients'. */
    static Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Build.ZMTP_JEROMQ, Build.JEROMQ), Arguments.of(Build.JEROMQ, Build.ZMTP_JEROMQ));
    }

    @TempDir
    Path dir;

    @ParameterizedTest(name = "ZAuth on {0}, clients on {1}")
    @MethodSource("pairs")
    void curveAllowsTheStoresCertificatesAndRefusesOthers(Build serverBuild, Build clientBuild) throws Exception {
        Path store = Files.createDirectory(dir.resolve("store"));
        Path secrets = Files.createDirectory(dir.resolve("secrets"));
        // Each side writes its own certificates; the other reads them.
        String serverKey = certificate(serverBuild, secrets.resolve("server.pub"), secrets.resolve("server.key"),
                "server");
        String knownKey = certificate(clientBuild, store.resolve("known.pub"), secrets.resolve("known.key"),
                "known");
        String strangerKey = certificate(clientBuild, secrets.resolve("stranger.pub"),
                secrets.resolve("stranger.key"), "stranger");
        assertThat(Files.readString(store.resolve("known.pub"))).contains(knownKey).doesNotContain("secret-key");

        try (Child server = Child.start(serverBuild, dir, "curve-server", store.toString(),
                secrets.resolve("server.key").toString())) {
            String port = server.await(l -> l.startsWith("PORT ")).substring("PORT ".length());
            assertThat(server.lines()).contains("ZAuth: Using " + store + " as certificates directory");

            String refused = runClient(clientBuild, "curve-client", port, secrets.resolve("server.pub").toString(),
                    secrets.resolve("stranger.key").toString(), "from a stranger");
            assertThat(refused).isEqualTo("REFUSED HANDSHAKE_FAILED_AUTH 400");
            server.await(l -> l.startsWith("ZAP 400"));
            assertThat(server.lines()).contains("ZAuth: Denied (CURVE) client_key=" + strangerKey);

            String answered = runClient(clientBuild, "curve-client", port, secrets.resolve("server.pub").toString(),
                    secrets.resolve("known.key").toString(), "from a known client");
            assertThat(answered).as(server.output()).isEqualTo("REPLY OK from a known client");
            // The User-Id is the client's key. zmtp-jeromq's reply also has the metadata of the certificate (written
            // by JeroMQ here); JeroMQ 0.6.0's reply carries none.
            String allowed = "ZAP 200 " + knownKey + (serverBuild == Build.ZMTP_JEROMQ ? " name=known" : "");
            server.await(allowed::equals);
            assertThat(server.lines()).contains("ZAuth: Allowed (CURVE) client_key=" + knownKey,
                    "SERVED from a known client").doesNotContain("SERVED from a stranger");
            assertThat(server.count(l -> l.startsWith("ZAP 200"))).as(server.output()).isEqualTo(1);
            assertThat(serverKey).isNotEqualTo(knownKey);
        }
    }

    @ParameterizedTest(name = "ZAuth on {0}, clients on {1}")
    @MethodSource("pairs")
    void plainAllowsThePasswordFilesUsersAndRefusesWrongPasswords(Build serverBuild, Build clientBuild)
            throws Exception {
        Path passwords = dir.resolve("passwords");
        Files.writeString(passwords, "alice=wonderland\nbob=builder\n", StandardCharsets.UTF_8);
        try (Child server = Child.start(serverBuild, dir, "plain-server", passwords.toString())) {
            String port = server.await(l -> l.startsWith("PORT ")).substring("PORT ".length());

            assertThat(runClient(clientBuild, "plain-client", port, "alice", "rabbit hole", "wrong password"))
                    .isEqualTo("REFUSED HANDSHAKE_FAILED_AUTH 400");
            server.await(l -> l.startsWith("ZAP 400"));
            assertThat(server.lines()).contains("ZAuth: Denied (PLAIN) username=alice");

            assertThat(runClient(clientBuild, "plain-client", port, "mallory", "wonderland", "unknown user"))
                    .isEqualTo("REFUSED HANDSHAKE_FAILED_AUTH 400");
            server.await(l -> l.contains("username=mallory"));
            assertThat(server.lines()).contains("ZAuth: Denied (PLAIN) username=mallory");

            assertThat(runClient(clientBuild, "plain-client", port, "bob", "builder", "from bob"))
                    .as(server.output()).isEqualTo("REPLY OK from bob");
            server.await(l -> l.equals("ZAP 200 bob"));
            assertThat(server.lines()).contains("ZAuth: Allowed (PLAIN) username=bob", "SERVED from bob")
                    .doesNotContain("SERVED wrong password", "SERVED unknown user");
            // A refused client reconnects until it ends (as libzmq's): one or more 400s each, one 200 only.
            assertThat(server.count(l -> l.startsWith("ZAP 200"))).as(server.output()).isEqualTo(1);
        }
    }

    /** Writes a certificate with {@code build}'s ZCert and returns its public key. */
    private String certificate(Build build, Path publicFile, Path secretFile, String name) throws Exception {
        try (Child cert = Child.start(build, dir, "cert", publicFile.toString(), secretFile.toString(), name)) {
            String key = cert.await(l -> l.startsWith("CERT ")).substring("CERT ".length());
            cert.awaitSuccess();
            return key;
        }
    }

    /** Runs a client to its end and returns its outcome line (REPLY or REFUSED). */
    private String runClient(Build build, String... args) throws Exception {
        try (Child client = Child.start(build, dir, args)) {
            client.awaitSuccess();
            List<String> outcome = client.lines().stream()
                    .filter(l -> l.startsWith("REPLY ") || l.startsWith("REFUSED ") || l.startsWith("NO ANSWER"))
                    .toList();
            assertThat(outcome).as(client.output()).hasSize(1);
            return outcome.get(0) + (outcome.get(0).startsWith("NO ANSWER") ? "\n" + client.output() : "");
        }
    }

    /** One run of {@link ZAuthPeerMain} in a child JVM, its stdout and stderr merged and kept line by line. */
    private static final class Child implements AutoCloseable {
        private final Build build;
        private final Process process;
        private final Thread reader;
        private final List<String> lines = new ArrayList<>();

        private Child(Build build, Process process) {
            this.build = build;
            this.process = process;
            this.reader = new Thread(this::read, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(Build build, Path workDir, String... args) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Dio.netty.leakDetection.level=paranoid", "-cp", build.classPath(),
                    ZAuthPeerMain.class.getName()));
            command.addAll(List.of(args));
            try {
                return new Child(build, new ProcessBuilder(command).directory(workDir.toFile())
                        .redirectErrorStream(true).start());
            } catch (IOException e) {
                throw new UncheckedIOException("starting " + command, e);
            }
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended; its lines are kept
            }
        }

        List<String> lines() {
            synchronized (lines) {
                return new ArrayList<>(lines);
            }
        }

        long count(Predicate<String> match) {
            return lines().stream().filter(match).count();
        }

        String output() {
            return build + ":\n" + String.join("\n", lines());
        }

        String await(Predicate<String> match) throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            synchronized (lines) {
                while (true) {
                    for (String line : lines) {
                        if (match.test(line)) {
                            return line;
                        }
                    }
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (left <= 0) {
                        throw new AssertionError("no such line within " + TIMEOUT + " on " + output());
                    }
                    lines.wait(left);
                }
            }
        }

        void awaitSuccess() throws InterruptedException {
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("did not end within " + TIMEOUT + " on " + output());
            }
            reader.join(TIMEOUT.toMillis());
            assertThat(process.exitValue()).as(output()).isZero();
        }

        /** Ends the child (stdin closed: a server stops), then fails on a leak Netty reported in it. */
        @Override
        public void close() throws InterruptedException {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already gone
            }
            if (!process.waitFor(scaledSeconds(15), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            reader.join(TIMEOUT.toMillis());
            assertThat(lines()).as(output()).noneMatch(l -> l.contains("LEAK:"));
        }
    }

    static {
        // The JeroMQ build is this JVM's own class path: make sure JeroMQ is on it (it is a test dependency).
        if (!System.getProperty("java.class.path").contains("jeromq-0.6.0")) {
            throw new AssertionError("JeroMQ 0.6.0 is not on the test class path: run the tests through Maven"
                    + " (./mvnw verify -pl zmtp-interop -am), whose pom has it as a test dependency");
        }
    }
}
