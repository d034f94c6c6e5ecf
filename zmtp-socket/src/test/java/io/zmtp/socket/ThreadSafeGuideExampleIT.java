package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The examples of docs/sockets.md's "The thread-safe types" section, kept compiling and passing: the lines between the
 * "// guide:" markers run here and must appear in the guide as they are (indentation aside).
 */
class ThreadSafeGuideExampleIT {
    private static final Path SOURCE = Path.of("src/test/java/io/zmtp/socket/ThreadSafeGuideExampleIT.java");

    @Test
    void shouldRunTheClientServerExample() {
        String reply;
        // guide: client-server
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket server = context.socket(ZmtpSocketType.SERVER);
             ZmtpSocket client = context.socket(ZmtpSocketType.CLIENT)) {
            client.connect(server.bind("tcp://127.0.0.1:*"));
            client.send(ZmtpMessage.of("ping"));                      // one part: a multipart send throws

            ZmtpMessage request = server.receive(Duration.ofSeconds(5));
            int from = request.routingId();                           // the client's id, never 0
            request.release();
            server.send(ZmtpMessage.of("pong").routingId(from));      // unknown id: HostUnreachable

            ZmtpMessage answer = client.receive(Duration.ofSeconds(5));
            reply = answer.frameString(0);                             // "pong"
            answer.release();
        }
        // guide: end
        assertThat(reply).isEqualTo("pong");
    }

    @Test
    void shouldRunTheRadioDishExample() {
        String got;
        // guide: radio-dish
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket radio = context.socket(ZmtpSocketType.RADIO);
             ZmtpSocket dish = context.socket(ZmtpSocketType.DISH)) {
            dish.join("weather");                                      // exact groups, not prefixes
            dish.connect(radio.bind("tcp://127.0.0.1:*"));            // or dish.bind("udp://*:5556")...

            ZmtpMessage m = null;
            while (m == null) {                                        // until the JOIN has reached the RADIO
                radio.send(ZmtpMessage.of("rain").group("weather"));
                m = dish.receive(Duration.ofMillis(50));
            }
            got = m.group() + ": " + m.frameString(0);                 // "weather: rain"
            m.release();
        }
        // guide: end
        assertThat(got).isEqualTo("weather: rain");
    }

    @Test
    void shouldRunThePeerExample() {
        String got;
        // guide: peer
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket a = context.socket(ZmtpSocketType.PEER);
             ZmtpSocket b = context.socket(ZmtpSocketType.PEER)) {
            String endpoint = a.bind("tcp://127.0.0.1:*");
            int toA = b.connectPeer(endpoint);                         // known at once, before the connection
            b.send(ZmtpMessage.of("hello").routingId(toA));

            ZmtpMessage m = a.receive(Duration.ofSeconds(5));
            a.send(ZmtpMessage.of("hello back").routingId(m.routingId()));
            m.release();
            ZmtpMessage back = b.receive(Duration.ofSeconds(5));
            got = back.frameString(0);                                 // "hello back"
            back.release();
        }
        // guide: end
        assertThat(got).isEqualTo("hello back");
    }

    @Test
    void shouldRunTheScatterGatherExample() {
        List<String> got;
        // guide: scatter-gather
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket gather = context.socket(ZmtpSocketType.GATHER);
             ZmtpSocket scatter = context.socket(ZmtpSocketType.SCATTER)) {
            scatter.connect(gather.bind("inproc://work"));
            scatter.send(ZmtpMessage.of("task 1"));                    // round-robin over the GATHERs
            scatter.send(ZmtpMessage.of("task 2"));
            got = List.of(gather.receiveString(Duration.ofSeconds(5)),   // "task 1"
                          gather.receiveString(Duration.ofSeconds(5)));  // "task 2"
        }
        // guide: end
        assertThat(got).containsExactly("task 1", "task 2");
    }

    @Test
    void shouldRunTheChannelExample() {
        String got;
        // guide: channel
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket a = context.socket(ZmtpSocketType.CHANNEL);
             ZmtpSocket b = context.socket(ZmtpSocketType.CHANNEL)) {
            b.connect(a.bind("tcp://127.0.0.1:*"));                    // one peer at a time
            b.send(ZmtpMessage.of("ping"));
            a.send(ZmtpMessage.of(a.receiveString(Duration.ofSeconds(5)) + "/pong"));
            got = b.receiveString(Duration.ofSeconds(5));               // "ping/pong"
        }
        // guide: end
        assertThat(got).isEqualTo("ping/pong");
    }

    @Test
    void shouldQuoteTheExamplesInTheGuideAsTheyAreHere() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "sockets.md"), StandardCharsets.UTF_8);
        for (String name : List.of("client-server", "radio-dish", "peer", "scatter-gather", "channel")) {
            assertThat(guide).as(name).contains("```java\n" + SocketTestSupport.snippet(SOURCE, "guide", name)
                    + "```\n");
        }
    }
}
