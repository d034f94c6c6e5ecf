package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A program's {@code main} that closes its context exits: no thread the library started (its own, Netty's) is left
 * that would keep the JVM alive, whatever transports it used, the moment {@code close()} returns. One I/O thread and
 * the inproc thread are loops of their own, so that a group's termination doesn't start Netty's
 * {@code GlobalEventExecutor} (not a daemon; it outlives its last task by a second). Not yet covered: a tcp connect
 * registers Netty's address resolver on the loop's termination, whose notification starts that thread just after
 * close returns, so such a main still ends about a second late (docs/performance-notes.md, start-up round 4).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ContextThreadsIT {

    @Test
    void shouldLeaveNoThreadThatKeepsTheJvmAliveOnceClosed() {
        Set<Thread> before = nonDaemonThreads();
        exchangeOverTcpAndInprocThenClose();
        Set<Thread> left = nonDaemonThreads();
        left.removeAll(before);
        assertThat(left.stream().map(Thread::getName).collect(Collectors.toList()))
                .as("threads that keep the JVM alive after the context closed").isEmpty();
    }

    @Test
    void shouldLetAMainThatClosesItsContextExit() throws Exception {
        ChildJvm.Result child = ChildJvm.run(List.of(), ClosingMain.class);
        List<String> out = child.output();
        assertThat(child.exited()).as("the JVM exited by itself after main returned; output: %s", out).isTrue();
        assertThat(child.exitValue()).as("output: %s", out).isZero();
        assertThat(out).as("main ran to its end").contains("closed");
    }

    private static void exchangeOverTcpAndInprocThenClose() {
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
    }

    private static Set<Thread> nonDaemonThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !t.isDaemon())
                .collect(Collectors.toSet());
    }

    /** A program as a user writes it: the JVM must end when it returns, with no System.exit. */
    public static final class ClosingMain {
        public static void main(String[] args) {
            exchangeOverTcpAndInprocThenClose();
            System.out.println("closed");
        }
    }
}
