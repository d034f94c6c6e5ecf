package io.zmtp.examples.http;

import io.zmtp.examples.Output;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The http example's web page in a real browser: Debian's chromium, headless, driven by npm's playwright-core
 * ({@code src/test/node/browser_check.mjs}; both set up by {@code setup-browser.sh} in pre-integration-test). The
 * page's {@code zws.js} subscribes to the example's stats PUB and sends a request to its workers' ROUTER through the
 * browser's own WebSocket, over ws:// and over wss:// (a keytool certificate; the browser told to accept it). The
 * test asserts what the page shows: live messages (server to browser, which needs the browser's subscription to
 * have reached the PUB), the workers' replies to the page's requests (browser to server and back) and their count
 * of them in a later live message, no script errors; and that the browser refuses {@code ZWS2.0/NULL} as a subprotocol
 * (why the page speaks the bare {@code ZWS2.0}). Screenshots go to {@code target/browser/} (docs/images/ has the
 * ws one).
 *
 * <p>Here and not in zmtp-interop: it runs the example's own server in-process (package-private options, the port
 * it picked), and the page under test is this module's resources.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HttpExampleBrowserIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(20));
    private static final Pattern LISTENING =
            Pattern.compile("^http: listening on (https?)://127\\.0\\.0\\.1:(\\d+)/ .*");
    private static final String PASSWORD = "browser-test";

    private static Path nodeDir;
    private static Path script;
    private static Path screenshots;
    private static String chromium;

    @BeforeAll
    static void findTheBrowser() throws Exception {
        nodeDir = Path.of(System.getProperty("zmtp.examples.node", "target/node")).toAbsolutePath();
        script = Path.of(System.getProperty("zmtp.examples.nodeScripts", "src/test/node"))
                .resolve("browser_check.mjs").toAbsolutePath();
        screenshots = Path.of(System.getProperty("zmtp.examples.screenshots", "target/browser")).toAbsolutePath();
        Files.createDirectories(screenshots);
        chromium = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
        if (!Files.isExecutable(Path.of(chromium))) {
            fail("no chromium at " + chromium + ": HttpExampleBrowserIT needs Debian's chromium "
                    + "(apt-get install chromium, or run the build as root: setup-browser.sh installs it), "
                    + "or CHROMIUM=/path/to/chromium");
        }
        if (!Files.isDirectory(nodeDir.resolve("node_modules/playwright-core"))) {
            fail("no playwright-core in " + nodeDir + ": run zmtp-examples/src/test/node/setup-browser.sh " + nodeDir
                    + " (./mvnw -pl zmtp-examples -am verify runs it)");
        }
    }

    @Test
    void thePageTalksZeroMqOverWs() throws Exception {
        String seen = runBrowserAgainstTheExample("http", List.of(), "http-example-ws.png");
        assertThat(seen).contains("\"states\":[\"open\",\"open\"]");
    }

    @Test
    void thePageTalksZeroMqOverWss(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor()).as("keytool: " + output).isZero();
        String seen = runBrowserAgainstTheExample("https",
                List.of("--tls-keystore", store.toString(), "--tls-password", PASSWORD), "http-example-wss.png");
        assertThat(seen).contains("\"states\":[\"open\",\"open\"]");
    }

    /** Starts the example, lets the browser use its page, stops the example; returns the browser's JSON line. */
    private static String runBrowserAgainstTheExample(String scheme, List<String> extraArgs, String screenshotName)
            throws Exception {
        HttpCommand command = new HttpCommand();
        Output output = new Output();
        command.out = output.stream();
        List<String> args = new ArrayList<>(List.of("--port", "0", "--workers", "2", "--stats-ms", "200"));
        args.addAll(extraArgs);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> new CommandLine(command).execute(args.toArray(new String[0])));
        try {
            String listening = output.await(l -> l.startsWith("http: listening"), WAIT);
            Matcher m = LISTENING.matcher(listening);
            assertThat(m.matches()).as(listening).isTrue();
            assertThat(m.group(1)).isEqualTo(scheme);
            String page = scheme + "://127.0.0.1:" + m.group(2) + "/app/";
            Path screenshot = screenshots.resolve(screenshotName);
            Files.deleteIfExists(screenshot);

            String seen = runBrowser(page, screenshot);
            assertThat(seen).as("the browser's report").contains("\"errors\":[]");
            // The browser's WebSocket refuses the subprotocol with the mechanism in it: '/' is no token character.
            assertThat(seen).contains("\"slashSubprotocol\":\"SyntaxError");
            // Server to browser: live messages from the PUB, which sends only what the page subscribed to.
            assertThat(seen).containsPattern("\"stats\":\\[\"stats #\\d+: served");
            // Browser to server and back: the workers' replies to the page's three requests (sent at once, which
            // zws.js sends one at a time, REQ-style), and their count of them.
            assertThat(seen).containsPattern("\"replies\":\\[(\"\\\\\"hello from chromium\\\\\" -> "
                    + "\\{\\\\\"worker\\\\\":[12],\\\\\"bytes\\\\\":19}\",?){3}\\]");
            assertThat(seen).contains("served 3 at");
            assertThat(Files.size(screenshot)).as("screenshot " + screenshot).isPositive();
            return seen;
        } finally {
            command.stop();
            assertThat(exit.get(scaledSeconds(30), TimeUnit.SECONDS)).isZero();
        }
    }

    private static String runBrowser(String page, Path screenshot) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("node", script.toString(), page, screenshot.toString())
                .redirectErrorStream(true);
        pb.environment().put("NODE_DIR", nodeDir.toString());
        pb.environment().put("CHROMIUM", chromium);
        Process node = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "reading the browser's output: " + e;
            }
        });
        if (!node.waitFor(scaledSeconds(120), TimeUnit.SECONDS)) {
            node.destroyForcibly();
            fail("the browser did not finish in " + scaledSeconds(120) + " s: " + out.getNow(""));
        }
        String all = out.get(scaledSeconds(10), TimeUnit.SECONDS);
        assertThat(node.exitValue()).as("node browser_check.mjs: " + all).isZero();
        String[] lines = all.strip().split("\n");
        String last = lines[lines.length - 1];
        assertThat(last).as("node browser_check.mjs: " + all).startsWith("{");
        return last;
    }
}
