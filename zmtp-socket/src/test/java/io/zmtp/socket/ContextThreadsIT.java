package io.zmtp.socket;

import io.netty.util.concurrent.GlobalEventExecutor;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program's {@code main} that closes its context exits: no thread the library started (its own, Netty's) is left
 * that would keep the JVM alive, whatever transports it used. One limit: shutting down any Netty event loop group
 * notifies its termination listeners on Netty's {@code GlobalEventExecutor}, whose thread is not a daemon and ends
 * after a second without tasks; the test waits for that, then looks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ContextThreadsIT {

    @Test
    void shouldLeaveNoThreadThatKeepsTheJvmAliveOnceClosed() throws InterruptedException {
        Set<Thread> before = nonDaemonThreads();
        try (ZmtpContext context = new ZmtpContext()) {
            for (String endpoint : new String[] {"inproc://exit", "tcp://127.0.0.1:*"}) {
                ZmtpSocket rep = context.socket(ZmtpSocketType.REP);
                ZmtpSocket req = context.socket(ZmtpSocketType.REQ);
                req.connect(rep.bind(endpoint));
                req.send("ping");
                ZmtpMessage ping = rep.receive(WAIT);
                assertThat(ping).isNotNull();
                rep.send(ping);
                ZmtpMessage pong = req.receive(WAIT);
                assertThat(pong).isNotNull();
                pong.release();
            }
            assertThat(context.socket(ZmtpSocketType.PAIR).bind("inproc://late")).isNotNull();
        }
        assertThat(GlobalEventExecutor.INSTANCE.awaitInactivity(10, TimeUnit.SECONDS)).isTrue();
        Set<Thread> left = nonDaemonThreads();
        left.removeAll(before);
        assertThat(left.stream().map(Thread::getName).collect(Collectors.toList()))
                .as("threads that keep the JVM alive after the context closed").isEmpty();
    }

    private static Set<Thread> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon())
                .collect(Collectors.toSet());
    }
}
