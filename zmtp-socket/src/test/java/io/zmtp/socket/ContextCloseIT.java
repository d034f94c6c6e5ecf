package io.zmtp.socket;

import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** A context closed from two threads at once, or while another thread makes sockets in it. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ContextCloseIT {

    @Test
    void shouldReturnFromASecondCloseOnlyOnceTheFirstHasFinished() throws Exception {
        ZmtpContext context = ZmtpContext.builder().lingerCapMillis(60_000).build();
        ZmtpSocket push = context.socket(ZmtpSocketType.PUSH);
        push.setOption(ZmtpSocketOption.LINGER, 60_000);
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        // Nobody listens yet: the message waits in a connecting pipe, and the first close lingers over it.
        push.connect("tcp://127.0.0.1:" + port);
        push.send("last words");

        Thread first = new Thread(context::close, "first closer");
        first.start();
        while (!push.isClosed()) {
            Thread.onSpinWait();
        }
        CountDownLatch secondReturned = new CountDownLatch(1);
        AtomicReference<Boolean> terminatedWhenSecondReturned = new AtomicReference<>();
        Thread second = new Thread(() -> {
            context.close();
            terminatedWhenSecondReturned.set(context.ioTerminated());
            secondReturned.countDown();
        }, "second closer");
        second.start();

        // The linger ends when the message is delivered: a peer turns up.
        try (ZmtpContext other = new ZmtpContext(); ZmtpSocket pull = other.socket(ZmtpSocketType.PULL)) {
            pull.bind("tcp://127.0.0.1:" + port);
            io.zmtp.codec.ZmtpMessage m = pull.receive(SocketTestSupport.WAIT);
            assertThat(m).isNotNull();
            assertThat(m.frameString(0)).isEqualTo("last words");
            m.release();
            secondReturned.await();
        }
        first.join();
        assertThat(terminatedWhenSecondReturned.get())
                .as("the second close returned only after the first had stopped the context").isTrue();
    }

    @Test
    void shouldCloseEverySocketMadeWhileTheContextCloses() throws Exception {
        for (int round = 0; round < 200; round++) {
            ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build();
            List<ZmtpSocket> made = new ArrayList<>();
            CountDownLatch making = new CountDownLatch(1);
            Thread maker = new Thread(() -> {
                try {
                    for (;;) {
                        made.add(context.socket(ZmtpSocketType.PAIR));
                        making.countDown();
                    }
                } catch (ZmtpSocketException.Closed expected) {
                    // The context closed: no more sockets.
                }
            }, "maker");
            maker.start();
            making.await();
            context.close();
            maker.join();
            for (ZmtpSocket s : made) {
                assertThat(s.isClosed()).as("round %d: a socket the context made is closed with it", round).isTrue();
            }
        }
    }
}
