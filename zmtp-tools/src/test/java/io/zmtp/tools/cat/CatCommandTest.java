package io.zmtp.tools.cat;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code zmtp cat} as a REQ fed from a pipe: each line a request, each reply printed. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CatCommandTest {

    /** It used to receive before its first request was out, which a REQ refuses (EFSM), and died. */
    @Test
    void shouldSendEachLineAsARequestBeforeWaitingForItsReplyAsAReq() throws Exception {
        try (ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build()) {
            ZmtpSocket rep = context.socket(ZmtpSocketType.REP);
            String endpoint = rep.bind("tcp://127.0.0.1:*");
            CompletableFuture<Void> replies = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 2; i++) {
                    String request = rep.receiveString(scaled(Duration.ofSeconds(10)));
                    rep.send("re: " + request);
                }
            });
            CatCommand cat = new CatCommand();
            cat.stdin = new ByteArrayInputStream("STATISTICS\nPAUSE\n".getBytes(StandardCharsets.UTF_8));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            cat.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            int exit = new CommandLine(cat).execute("--type", "REQ", "--connect", endpoint, "-n", "2");
            replies.get(scaledSeconds(10), TimeUnit.SECONDS);
            assertThat(exit).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(String.format("re: STATISTICS%nre: PAUSE%n"));
        }
    }

    /** With a count, it used to exit on the last request before it had sent the reply. */
    @Test
    void shouldAnswerTheLastRequestBeforeExitingAsARepWithACount() throws Exception {
        try (ZmtpContext context = ZmtpContext.builder().lingerCapMillis(1000).build()) {
            ZmtpSocket req = context.socket(ZmtpSocketType.REQ);
            String endpoint = req.bind("tcp://127.0.0.1:*");
            CatCommand cat = new CatCommand();
            cat.stdin = new ByteArrayInputStream("pong\n".getBytes(StandardCharsets.UTF_8));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            cat.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(cat).execute(
                    "--type", "REP", "--connect", endpoint, "-n", "1"));
            req.send("ping");
            assertThat(req.receiveString(scaled(Duration.ofSeconds(10)))).isEqualTo("pong");
            assertThat(exit.get(scaledSeconds(10), TimeUnit.SECONDS)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(String.format("ping%n"));
        }
    }
}
