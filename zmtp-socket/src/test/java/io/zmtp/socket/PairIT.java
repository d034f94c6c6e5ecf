package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.socket.SocketTestSupport.recv;
import static org.assertj.core.api.Assertions.assertThat;

/** PAIR over tcp. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PairIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private ZmtpSocket socket(ZmtpSocketType type) {
        return sockets.socket(type);
    }

    @Test
    void shouldPairWithOnePeerAndRefuseASecond() {
        ZmtpSocket a = socket(PAIR);
        ZmtpSocket b = socket(PAIR);
        String ep = a.bind("tcp://127.0.0.1:*");
        b.connect(ep);
        b.send(ZmtpMessage.of("1"));
        assertThat(recv(a)).isEqualTo("1");
        a.send(ZmtpMessage.of("2"));
        assertThat(recv(b)).isEqualTo("2");
        // A second peer is refused; the first keeps working.
        ZmtpSocket c = socket(PAIR);
        c.connect(ep);
        c.send(ZmtpMessage.of("intruder"));
        b.send(ZmtpMessage.of("3"));
        assertThat(recv(a)).isEqualTo("3");
        assertThat(a.receive(Duration.ofMillis(200))).isNull();
    }
}
