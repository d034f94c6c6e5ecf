package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Polling reports what a send or receive may do and changes none of it (libzmq's zmq_poll on REQ and REP). */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PollStateIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(5));
    private ZmtpContext ctx;
    private ZmtpSocket req;
    private ZmtpSocket rep;

    @BeforeEach
    void setUp() {
        ctx = ZmtpContext.builder().lingerCapMillis(1000).build();
        rep = socket(REP);
        req = socket(REQ);
        req.connect(rep.bind("tcp://127.0.0.1:*"));
    }

    @AfterEach
    void tearDown() {
        ctx.close();
    }

    private ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 0);
        return s;
    }

    private static void awaitReadable(ZmtpSocket s) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!s.pollIn()) {
            assertThat(System.nanoTime() - deadline).as(s + " readable in time").isNegative();
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldKeepAReqWhoseReplyAPollHasSeenReadableAndNotWritableUntilTheReplyIsReceived() {
        req.send(ZmtpMessage.of("request 1"));
        assertThat(recv(rep)).isEqualTo("request 1");
        rep.send(ZmtpMessage.of("reply 1"));

        awaitReadable(req);
        assertThat(req.pollIn()).isTrue();
        assertThat(req.pollOut()).as("REQ with a reply pending is not writable").isFalse();
        assertThatThrownBy(() -> req.send(ZmtpMessage.of("request 2")))
                .isInstanceOf(ZmtpSocketException.IllegalState.class);

        assertThat(recv(req)).isEqualTo("reply 1");
        assertThat(req.pollIn()).isFalse();
        assertThat(req.pollOut()).isTrue();

        // Replies stay in step with requests afterwards.
        req.send(ZmtpMessage.of("request 2"));
        assertThat(recv(rep)).isEqualTo("request 2");
        rep.send(ZmtpMessage.of("reply 2"));
        assertThat(recv(req)).isEqualTo("reply 2");
    }

    @Test
    void shouldKeepARepWhoseRequestAPollHasSeenNotWritableUntilTheRequestIsReceived() {
        req.send(ZmtpMessage.of("request"));
        awaitReadable(rep);
        assertThat(rep.pollOut()).as("REP with an unread request is not writable").isFalse();
        assertThatThrownBy(() -> rep.send(ZmtpMessage.of("too early")))
                .isInstanceOf(ZmtpSocketException.IllegalState.class);
        assertThat(rep.pollIn()).isTrue();

        assertThat(recv(rep)).isEqualTo("request");
        assertThat(rep.pollIn()).isFalse();
        assertThat(rep.pollOut()).isTrue();
        rep.send(ZmtpMessage.of("reply"));
        assertThat(recv(req)).isEqualTo("reply");
    }

    @Test
    void shouldLeaveAReqWritableAfterAPollBeforeAnyRequest() {
        assertThat(req.pollIn()).isFalse();
        assertThat(req.pollOut()).isTrue();
        req.send(ZmtpMessage.of("q"));
        assertThat(req.pollOut()).isFalse();
        assertThat(recv(rep)).isEqualTo("q");
    }
}
