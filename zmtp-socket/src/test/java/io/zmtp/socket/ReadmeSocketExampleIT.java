package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The socket example at the top of README.md, kept compiling and passing: the lines between the "// README:" markers
 * are run here, and must appear in README.md as they are (indentation aside).
 */
class ReadmeSocketExampleIT {

    @Test
    void shouldRunTheReadmeExample() {
        // README: socket
        String received;
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket pull = context.socket(ZmtpSocketType.PULL);
             ZmtpSocket push = context.socket(ZmtpSocketType.PUSH)) {
            String endpoint = pull.bind("tcp://127.0.0.1:*");        // any free port: bind returns the endpoint
            push.connect(endpoint);                                   // connects in the background, reconnects

            push.send(ZmtpMessage.of("job", "42"));                   // two frames; send takes ownership
            ZmtpMessage job = pull.receive(Duration.ofSeconds(5));    // null if nothing came within 5 s
            try {
                received = job.frameString(0) + " " + job.frameString(1);   // "job 42"
            } finally {
                job.release();                                        // what you receive is yours to release
            }
        }
        // README: end
        assertThat(received).isEqualTo("job 42");
    }

    @Test
    void shouldQuoteTheExampleInTheReadmeAsItIsHere() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        String example = SocketTestSupport.snippet(Path.of("src/test/java/io/zmtp/socket/ReadmeSocketExampleIT.java"),
                "README", "socket");
        assertThat(readme).contains("```java\n" + example + "```\n");
    }
}
