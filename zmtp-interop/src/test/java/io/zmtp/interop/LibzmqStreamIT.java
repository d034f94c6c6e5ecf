package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Our STREAM socket against libzmq's (pyzmq), both ways: raw bytes and libzmq's connect/disconnect notices. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibzmqStreamIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private ZmtpContext ctx;

    @BeforeEach
    void setUp() {
        ctx = ZmtpContext.builder().lingerCapMillis(2000).build();
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private ZmtpSocket stream() {
        ZmtpSocket s = ctx.socket(ZmtpSocketType.STREAM);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    /** The next message, as [id, text]; checks it has two frames. */
    private static String[] receive(ZmtpSocket s) {
        ZmtpMessage m = s.receive(WAIT);
        assertThat(m).as("a message within " + WAIT).isNotNull();
        try {
            assertThat(m.size()).isEqualTo(2);
            return new String[] {m.frameString(0), m.frameString(1)};
        } finally {
            m.release();
        }
    }

    @Test
    void ourStreamClientTalksToALibzmqStreamServer() {
        try (PyZmq.Peer peer = PyZmq.start("stream_peer.py", "server")) {
            String endpoint = peer.readLine().substring("ENDPOINT ".length());
            ZmtpSocket client = stream();
            client.connect(endpoint);
            ZmtpMessage notice = client.receive(WAIT);
            byte[] id = notice.frameBytes(0);
            assertThat(notice.frame(1).readableBytes()).as("the connect notice").isZero();
            notice.release();
            assertThat(peer.readLine()).isEqualTo("CONNECTED");

            client.send(ZmtpMessage.ofBytes(id, "bye".getBytes(StandardCharsets.US_ASCII)));
            StringBuilder got = new StringBuilder();
            String[] m;
            while (!(m = receive(client))[1].isEmpty()) {
                got.append(m[1]);
            }
            assertThat(got.toString()).as("libzmq's answer, then its hang-up as [id, \"\"]").isEqualTo("echo:bye");
            assertThat(peer.readLine()).isEqualTo("CLOSED");
        }
    }

    @Test
    void aLibzmqStreamClientTalksToOurStreamServer() {
        ZmtpSocket server = stream();
        String endpoint = server.bind("tcp://127.0.0.1:*");
        try (PyZmq.Peer peer = PyZmq.start("stream_peer.py", "client", endpoint)) {
            ZmtpMessage notice = server.receive(WAIT);
            byte[] id = notice.frameBytes(0);
            assertThat(notice.frame(1).readableBytes()).isZero();
            notice.release();
            assertThat(peer.readLine()).isEqualTo("CONNECTED");
            assertThat(receive(server)[1]).isEqualTo("hello");
            server.send(ZmtpMessage.ofBytes(id, "world".getBytes(StandardCharsets.US_ASCII)));
            assertThat(peer.readLine()).isEqualTo("RECV world");
            server.send(ZmtpMessage.ofBytes(id, new byte[0]));
            assertThat(peer.readLine()).as("libzmq sees our hang-up as its disconnect notice")
                    .isEqualTo("DISCONNECTED");
            assertThat(receive(server)[1]).as("and ours sees the connection go").isEmpty();
        }
    }
}
