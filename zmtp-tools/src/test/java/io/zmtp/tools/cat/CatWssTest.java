package io.zmtp.tools.cat;

import io.zmtp.tools.SelfSignedCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * wss:// options ({@code WssOptions}) through {@code zmtp cat}, which has every tool's security options: a certificate and key from PEM
 * files and a client that trusts that certificate; a client trusting another one fails the TLS handshake, said on
 * stderr; contradicting options are refused before any socket is bound.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CatWssTest {
    @TempDir
    Path dir;

    /** A cat with piped stdin, its stdout and stderr kept. */
    private static final class Cat {
        final CatCommand command = new CatCommand();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();

        Cat(String stdin) {
            command.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
            command.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            command.stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        }

        CompletableFuture<Integer> start(String... args) {
            return CompletableFuture.supplyAsync(() -> new CommandLine(command).execute(args));
        }

        String printed() {
            return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Path[] writeCertificate(String name) throws IOException {
        Path cert = dir.resolve(name + ".crt.pem");
        Path key = dir.resolve(name + ".key.pem");
        SelfSignedCertificate.generate().writePem(cert, key);
        return new Path[] {cert, key};
    }

    @Test
    void shouldServeWssFromPemFilesToAClientThatTrustsTheCertificate() throws Exception {
        Path[] server = writeCertificate("server");
        String endpoint = "wss://127.0.0.1:" + freePort() + "/zmq";
        Cat rep = new Cat("pong\n");
        CompletableFuture<Integer> repExit = rep.start("--type", "REP", "--bind", endpoint, "-n", "1",
                "--wss-cert", server[0].toString(), "--wss-key", server[1].toString());
        Cat req = new Cat("ping\n");
        CompletableFuture<Integer> reqExit = req.start("--type", "REQ", "--connect", endpoint, "-n", "1",
                "--wss-trust", server[0].toString());
        assertThat(reqExit.get(scaledSeconds(50), TimeUnit.SECONDS)).as(req::printed).isZero();
        assertThat(repExit.get(scaledSeconds(50), TimeUnit.SECONDS)).as(rep::printed).isZero();
        assertThat(rep.out.toString(StandardCharsets.UTF_8)).isEqualTo(String.format("ping%n"));
        assertThat(req.out.toString(StandardCharsets.UTF_8)).isEqualTo(String.format("pong%n"));
        assertThat(req.err.toString(StandardCharsets.UTF_8)).doesNotContain("WARNING");
    }

    @Test
    void shouldFailTheTlsHandshakeOfAClientThatTrustsAnotherCertificate() throws Exception {
        Path[] server = writeCertificate("server");
        Path[] other = writeCertificate("other");
        String endpoint = "wss://127.0.0.1:" + freePort() + "/zmq";
        Cat rep = new Cat("");
        CompletableFuture<Integer> repExit = rep.start("--type", "REP", "--bind", endpoint, "--timeout", "3",
                "--wss-cert", server[0].toString(), "--wss-key", server[1].toString());
        // Receive-only, so that nothing waits on a send that can't go out: it gives up after 3 s of silence.
        Cat sub = new Cat("");
        CompletableFuture<Integer> subExit = sub.start("--type", "SUB", "--connect", endpoint, "--timeout", "3",
                "--events", "--wss-trust", other[0].toString());
        subExit.get(scaledSeconds(50), TimeUnit.SECONDS);
        repExit.get(scaledSeconds(50), TimeUnit.SECONDS);
        assertThat(rep.out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(sub.err.toString(StandardCharsets.UTF_8)).contains("TLS handshake failed");
    }

    @Test
    void shouldRefuseOptionsThatContradictEachOtherBeforeBinding() throws Exception {
        Path[] server = writeCertificate("server");
        Cat noKey = new Cat("");
        assertThat(noKey.start("--type", "PULL", "--bind", "wss://127.0.0.1:*/", "--wss-cert", server[0].toString())
                .get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo(2);
        Cat both = new Cat("");
        assertThat(both.start("--type", "PULL", "--bind", "wss://127.0.0.1:*/", "--wss-self-signed",
                "--wss-cert", server[0].toString(), "--wss-key", server[1].toString())
                .get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo(2);
        Cat trustAndInsecure = new Cat("");
        assertThat(trustAndInsecure.start("--type", "PUSH", "--connect", "wss://127.0.0.1:1/", "--wss-insecure",
                "--wss-trust", server[0].toString()).get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo(2);
        Cat noCertificate = new Cat("");
        assertThat(noCertificate.start("--type", "PULL", "--bind", "wss://127.0.0.1:*/")
                .get(scaledSeconds(30), TimeUnit.SECONDS)).isEqualTo(2);
        Cat badPem = new Cat("");
        assertThat(badPem.start("--type", "PULL", "--bind", "wss://127.0.0.1:*/", "--wss-cert",
                server[1].toString(), "--wss-key", server[1].toString()).get(scaledSeconds(30), TimeUnit.SECONDS))
                .isEqualTo(2);
        assertThat(noKey.err.toString(StandardCharsets.UTF_8))
                .isEqualTo(String.format("zmtp cat: --wss-cert and --wss-key go together%n"));
        assertThat(both.err.toString(StandardCharsets.UTF_8))
                .contains("--wss-self-signed or --wss-cert/--wss-key, not both");
        assertThat(trustAndInsecure.err.toString(StandardCharsets.UTF_8))
                .contains("--wss-trust or --wss-insecure, not both");
        assertThat(noCertificate.err.toString(StandardCharsets.UTF_8))
                .contains("binding wss://127.0.0.1:*/ needs a certificate: --wss-cert <pem> --wss-key <pem>");
        assertThat(badPem.err.toString(StandardCharsets.UTF_8)).startsWith("zmtp cat: wss: ")
                .contains("--wss-cert " + server[1]);
    }
}
