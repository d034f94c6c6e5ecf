package io.zmtp.examples.http;

import io.zmtp.examples.Output;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The http example as {@code ./zmtp example http} runs it: both routes over keep-alive connections, a worker's reply
 * for POST /work over inproc and over tcp, pipelined requests answered in order, then a clean stop.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpExampleTest {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final Pattern LISTENING = Pattern.compile("^http: listening on http://127\\.0\\.0\\.1:(\\d+)/ .*");

    @Test
    void shouldAnswerBothRoutesWithWorkersOverInproc() throws Exception {
        run("inproc://http-test-workers");
    }

    @Test
    void shouldAnswerBothRoutesWithWorkersOverTcp() throws Exception {
        run("tcp://127.0.0.1:*");
    }

    private void run(String workersEndpoint) throws Exception {
        HttpCommand command = new HttpCommand();
        Output output = new Output();
        command.out = output.stream();
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(command).execute(
                "--port", "0", "--workers", "2", "--workers-endpoint", workersEndpoint, "--name", "test \"app\""));
        String listening = output.await(l -> l.startsWith("http: listening"), WAIT);
        Matcher m = LISTENING.matcher(listening);
        assertThat(m.matches()).as(listening).isTrue();
        int port = Integer.parseInt(m.group(1));

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI root = URI.create("http://127.0.0.1:" + port + "/");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> info = client.send(HttpRequest.newBuilder(root).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(info.statusCode()).isEqualTo(200);
            assertThat(info.headers().firstValue("content-type")).hasValue("application/json");
            assertThat(info.body()).isEqualTo("{\"applicationName\":\"test \\\"app\\\"\",\"applicationVersion\":\"1.0\"}");

            HttpResponse<String> work = client.send(HttpRequest.newBuilder(root.resolve("/work"))
                    .POST(HttpRequest.BodyPublishers.ofString("hello workers")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(work.statusCode()).isEqualTo(200);
            assertThat(work.body()).matches("\\{\"worker\":[12],\"bytes\":13\\}");
        }
        assertThat(client.send(HttpRequest.newBuilder(root.resolve("/nowhere")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
        assertThat(client.send(HttpRequest.newBuilder(root.resolve("/work")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(405);

        assertThat(pipelined(port)).as("responses in request order")
                .containsSubsequence("{\"worker\":", "\"bytes\":3}", "{\"applicationName\"", "\"bytes\":1}");
        // More than a connection may have unanswered (HttpHandler.MAX_PENDING): read again as answers go out.
        StringBuilder many = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int n = 1; n <= 3 * HttpHandler.MAX_PENDING; n++) {
            many.append("POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: ").append(n).append("\r\n\r\n")
                    .append("x".repeat(n));
            expected.add("\"bytes\":" + n + "}");
        }
        many.append("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        expected.add("{\"applicationName\"");
        assertThat(exchange(port, many.toString())).containsSubsequence(expected);

        command.stop();
        assertThat(exit.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isZero();
        assertThat(output.all()).last().isEqualTo("http: stopped");
    }

    /** POST /work, GET /, POST /work written at once on one connection (HTTP/1.1 pipelining); what comes back. */
    private static String pipelined(int port) throws Exception {
        return exchange(port, "POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /work HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nConnection: close\r\n\r\nd");
    }

    /** Writes {@code requests} at once on a new connection (the last one closing it); reads all that comes back. */
    private static String exchange(int port, String requests) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(requests.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
