package io.zmtp.tools.cat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code zmtp cat} on the thread-safe types, against our own sockets: the command runs in-process with stdin a pipe
 * the test writes lines into as it goes, and stdout and stderr captured.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CatThreadSafeTypesTest {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));

    private final ZmtpContext context = ZmtpContext.builder().lingerCapMillis(1000).build();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PipedOutputStream stdin;

    @AfterEach
    void tearDown() throws IOException {
        if (stdin != null) {
            stdin.close();
        }
        context.close();
    }

    /** Starts {@code zmtp cat args} on another thread; lines written to {@link #stdin} are its input. */
    private CompletableFuture<Integer> cat(String... args) throws IOException {
        CatCommand cat = new CatCommand();
        PipedInputStream in = new PipedInputStream(64 * 1024);
        stdin = new PipedOutputStream(in);
        cat.stdin = in;
        cat.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        cat.stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        return CompletableFuture.supplyAsync(() -> new CommandLine(cat).execute(args));
    }

    private void type(String line) throws IOException {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** Waits until {@code text} (stdout or stderr, read again each time) satisfies {@code done}. */
    private static String await(java.util.function.Supplier<String> text, Predicate<String> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.test(text.get())) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not there after " + WAIT + ": " + text.get());
            }
            Thread.sleep(10);
        }
        return text.get();
    }

    @Test
    void shouldPrintGroupThenBodyForTheGroupsADishJoined() throws Exception {
        ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
        String endpoint = radio.bind("tcp://127.0.0.1:*");
        CompletableFuture<Integer> exit = cat("--type", "DISH", "--join", "a", "--connect", endpoint, "-n", "2");
        // Until the DISH's JOIN reaches the RADIO, what it sends goes nowhere: send until two have arrived.
        while (!exit.isDone()) {
            radio.send(ZmtpMessage.of("not joined").group("b"));
            radio.send(ZmtpMessage.of("hello|world").group("a"));
            Thread.sleep(5);
        }
        assertThat(exit.get()).isZero();
        // The body is one frame, so the delimiter in it is printed as it is.
        assertThat(stdout()).isEqualTo(String.format("a|hello|world%na|hello|world%n"));
    }

    @Test
    void shouldRefuseJoinOnAnotherTypeAndWarnOfADishWithNoGroup() throws Exception {
        assertThat(cat("--type", "SUB", "--join", "a", "--connect", "tcp://127.0.0.1:1").get()).isEqualTo(2);
        assertThat(stderr()).contains("--join is for a DISH");
        ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
        String endpoint = radio.bind("tcp://127.0.0.1:*");
        assertThat(cat("--type", "DISH", "--connect", endpoint, "--timeout", "0.2").get()).isZero();
        assertThat(stderr()).contains("a DISH that has joined no group receives nothing");
    }

    @Test
    void shouldSendEachRadioLineToTheGroupBeforeTheFirstDelimiter() throws Exception {
        ZmtpSocket dish = context.socket(ZmtpSocketType.DISH);
        dish.join("x");
        String endpoint = dish.bind("tcp://127.0.0.1:*");
        CompletableFuture<Integer> exit = cat("--type", "RADIO", "--connect", endpoint);
        ZmtpMessage m = null;
        for (int i = 0; i < 400 && m == null; i++) {
            type("y|not for this dish");
            type("x|yes|really");
            m = dish.receive(Duration.ofMillis(25));
        }
        assertThat(m).as("a line reached the DISH").isNotNull();
        try {
            assertThat(m.group()).isEqualTo("x");
            assertThat(m.size()).isEqualTo(1);
            assertThat(m.frameString(0)).isEqualTo("yes|really");
        } finally {
            m.release();
        }
        type("no delimiter here");
        stdin.close();
        assertThat(exit.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(stderr()).contains("line").contains("skipped: RADIO expects GROUP|BODY");
    }

    @Test
    void shouldPrintEachServerMessageAfterItsRoutingIdAndReplyToTheIdALineNames() throws Exception {
        ZmtpSocket client = context.socket(ZmtpSocketType.CLIENT);
        String endpoint = client.bind("tcp://127.0.0.1:*");
        CompletableFuture<Integer> exit = cat("--type", "SERVER", "--connect", endpoint, "-n", "2");
        client.send("ping|1");
        String printed = await(this::stdout, s -> s.contains("\n"));
        Matcher line = Pattern.compile("^([1-9][0-9]*)\\|ping\\|1\\R$").matcher(printed);
        assertThat(line.matches()).as(printed).isTrue();
        String id = line.group(1);

        type("4000000000|to nobody");
        type("not a number|x");
        type(id + "|pong|2");
        assertThat(client.receiveString(WAIT)).isEqualTo("pong|2");
        client.send("bye");
        assertThat(exit.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(stdout()).isEqualTo(String.format("%s|ping|1%n%s|bye%n", id, id));
        // Both bad lines were reported and skipped, and the session went on.
        assertThat(stderr()).contains("line 1 skipped").contains("4000000000").contains("line 2 skipped");
    }

    @Test
    void shouldSendAClientLineAsOneFrameDelimitersAndAll() throws Exception {
        ZmtpSocket server = context.socket(ZmtpSocketType.SERVER);
        String endpoint = server.bind("tcp://127.0.0.1:*");
        CompletableFuture<Integer> exit = cat("--type", "CLIENT", "--connect", endpoint, "-n", "1");
        type("a|b\\x7c");
        ZmtpMessage request = server.receive(WAIT);
        assertThat(request).isNotNull();
        assertThat(request.size()).isEqualTo(1);
        assertThat(request.frameString(0)).isEqualTo("a|b|");
        int id = request.routingId();
        request.release();
        server.send(ZmtpMessage.of("re|ply").routingId(id));
        assertThat(exit.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(stdout()).isEqualTo(String.format("re|ply%n"));
    }

    @Test
    void shouldTellThePeerIdOfEachConnectPeerAndSendToIt() throws Exception {
        ZmtpSocket peer = context.socket(ZmtpSocketType.PEER);
        String endpoint = peer.bind("tcp://127.0.0.1:*");
        CompletableFuture<Integer> exit = cat("--type", "PEER", "--connect-peer", endpoint, "-n", "1");
        Matcher told = Pattern.compile("(?m)^PEER ([1-9][0-9]*) " + Pattern.quote(endpoint) + "$")
                .matcher(await(this::stderr, s -> s.contains(endpoint)));
        assertThat(told.find()).as(stderr()).isTrue();
        String id = told.group(1);
        // The PEER on the other end has never heard from cat: cat speaks first, to the id it was told.
        type(id + "|hi");
        ZmtpMessage m = peer.receive(WAIT);
        assertThat(m).isNotNull();
        assertThat(m.frameString(0)).isEqualTo("hi");
        int back = m.routingId();
        m.release();
        peer.send(ZmtpMessage.of("hi back").routingId(back));
        assertThat(exit.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
        assertThat(stdout()).isEqualTo(String.format("%s|hi back%n", id));
    }
}
