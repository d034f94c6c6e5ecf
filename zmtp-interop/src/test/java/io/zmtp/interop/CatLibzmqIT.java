package io.zmtp.interop;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code zmtp cat} against libzmq sockets (pyzmq): it receives, sends, and talks to a ROUTER as a DEALER. */
class CatLibzmqIT {
    private static final long TIMEOUT_SECONDS = scaledSeconds(60);

    @Test
    void catPullPrintsWhatALibzmqPushSends() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        try (PyZmq.Peer peer = PyZmq.start("cat_peer.py", "push-bind", endpoint)) {
            assertThat(peer.readLine()).isEqualTo("READY");
            Result r = zmtpCat("", "cat", "--type", "PULL", "--connect", endpoint, "--count", "3");
            assertThat(r.stdout.split("\n")).containsExactly("hello|\\x00\\x01|0", "hello|\\x00\\x01|1",
                    "hello|\\x00\\x01|2");
        }
    }

    @Test
    void catPushSendsEachLineAsAMessageToALibzmqPull() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        try (PyZmq.Peer peer = PyZmq.start("cat_peer.py", "pull-bind", endpoint)) {
            assertThat(peer.readLine()).isEqualTo("READY");
            zmtpCat("a|b\nbinary\\x00\\xff\n", "cat", "--type", "PUSH", "--connect", endpoint);
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'a', b'b']");
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'binary\\x00\\xff']");
        }
    }

    @Test
    void catDealerGetsRepliesFromALibzmqRouterWithEvents() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        try (PyZmq.Peer peer = PyZmq.start("cat_peer.py", "router-bind", endpoint)) {
            assertThat(peer.readLine()).isEqualTo("READY");
            Result r = zmtpCat("one\ntwo|parts\n", "cat", "--type", "DEALER", "--identity", "me", "--connect",
                    endpoint, "--count", "2", "--events");
            assertThat(r.stdout.split("\n")).containsExactly("one", "two|parts");
            assertThat(r.stderr).contains("CONNECTED " + endpoint).contains("ZMTP/3.1 ROUTER");
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'one']");
        }
    }

    @Test
    void catDealerTalksCurveToALibzmqRouter() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        io.zmtp.codec.security.CurveKeyPair server = io.zmtp.codec.security.CurveKeyPair.generate();
        try (PyZmq.Peer peer = PyZmq.start("cat_peer.py", "router-bind", endpoint,
                "curve=" + server.secretKeyZ85())) {
            assertThat(peer.readLine()).isEqualTo("READY");
            Result r = zmtpCat("one\ntwo|parts\n", "cat", "--type", "DEALER", "--connect", endpoint, "--count", "2",
                    "--curve-server-key", server.publicKeyZ85());
            assertThat(r.stdout.split("\n")).containsExactly("one", "two|parts");
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'one']");
        }
    }

    @Test
    void catPushLogsInWithPlainToALibzmqPull() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        try (PyZmq.Peer peer = PyZmq.start("cat_peer.py", "pull-bind", endpoint, "plain=admin:secret")) {
            assertThat(peer.readLine()).isEqualTo("READY");
            zmtpCat("a|b\nc\n", "cat", "--type", "PUSH", "--connect", endpoint, "--plain", "admin:secret");
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'a', b'b']");
            assertThat(peer.readLine(Duration.ofSeconds(20))).isEqualTo("[b'c']");
        }
    }

    private record Result(String stdout, String stderr) {
    }

    private static Result zmtpCat(String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.zmtp.tools.Zmtp");
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("zmtp " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS
                    + " s; stderr:\n" + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("zmtp %s exit status; stderr:%n%s", String.join(" ", args), err).isZero();
        return new Result(out, err);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
