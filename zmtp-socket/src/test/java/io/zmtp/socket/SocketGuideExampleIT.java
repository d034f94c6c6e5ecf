package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The example in docs/sockets.md, kept compiling and passing (between the "// guide:" markers). */
class SocketGuideExampleIT {

    @Test
    void shouldRunTheGuideExample() {
        // guide: start
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket server = context.socket(ZmtpSocketType.REP);
             ZmtpSocket client = context.socket(ZmtpSocketType.REQ)) {
            String endpoint = server.bind("tcp://127.0.0.1:*");   // e.g. tcp://127.0.0.1:54321
            client.connect(endpoint);

            client.send(ZmtpMessage.of("hello"));                 // send takes ownership of the message
            ZmtpMessage request = server.receive(Duration.ofSeconds(5));
            try {
                server.send(ZmtpMessage.of(request.frameString(0) + ", world"));
            } finally {
                request.release();                                 // receive hands ownership to the caller
            }
            ZmtpMessage reply = client.receive(Duration.ofSeconds(5));
            try {
                assertThat(reply.frameString(0)).isEqualTo("hello, world");
            } finally {
                reply.release();
            }
        }
        // guide: end
    }
}
