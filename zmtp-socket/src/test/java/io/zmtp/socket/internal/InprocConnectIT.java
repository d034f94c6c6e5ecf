package io.zmtp.socket.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.transport.InprocTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code connect} to a bound inproc name returns once the connection is joined, as libzmq's does: held at the join's
 * test seam (both pipes active, the links not yet open), a connecting thread woken there must not return.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InprocConnectIT {
    private EventLoopGroup group;
    private ExecutorService async;
    private InprocTransport inproc;
    private SocketContext context;

    @BeforeEach
    void setUp() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        async = Executors.newSingleThreadExecutor();
        inproc = new InprocTransport();
        context = new SocketContext(group, async, 1000, inproc);
    }

    @AfterEach
    void tearDown() {
        InprocLink.beforeOpenForTests = null;
        for (SocketBase s : context.sockets()) {
            s.close();
        }
        inproc.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        async.shutdown();
    }

    /**
     * Between the join's activation of the pipes and its opening of the links, the connecting pipe is active but its
     * socket may not have taken the connection yet; a socket closed with LINGER 0 in that moment refuses it and
     * drops what it sent. connect returned as soon as its pipe was active, so a thread that connected, sent and
     * closed at once could land there, given a wake-up at that moment. Here the join is
     * held at its seam and the connecting socket woken: connect must stay in, and return once the join is let go.
     */
    @Test
    void shouldReturnFromConnectOnlyOnceTheJoinHasOpenedTheLinks() throws Exception {
        PullSocket pull = new PullSocket(context);
        pull.bind("inproc://join-seam");
        PushSocket push = new PushSocket(context);
        push.setOption(ZmtpSocketOption.LINGER, 0);
        CountDownLatch atSeam = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InprocLink.beforeOpenForTests = () -> {
            InprocLink.beforeOpenForTests = null;
            atSeam.countDown();
            try {
                release.await(scaledSeconds(30), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        CountDownLatch connected = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread connecting = new Thread(() -> {
            try {
                push.connect("inproc://join-seam");
                connected.countDown();
                assertThat(push.send(ZmtpMessage.of("ready"), 0)).isTrue();
                push.close();
            } catch (Throwable t) {
                failure.set(t);
                connected.countDown();
            }
        });
        connecting.start();
        try {
            assertThat(atSeam.await(scaledSeconds(10), TimeUnit.SECONDS)).as("the join reached its seam").isTrue();
            // A wake-up with the pipe active and the links not yet open: connect looks again and must wait on.
            push.signal().signal();
            // Only a wrong connect ends this wait early; a right one keeps it the whole time.
            assertThat(connected.await(300, TimeUnit.MILLISECONDS)).as("connect returned before the join was done")
                    .isFalse();
        } finally {
            release.countDown();
        }
        connecting.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(failure.get()).isNull();
        assertThat(connected.getCount()).isZero();
        ZmtpMessage m = pull.receive(TimeUnit.SECONDS.toNanos(5));
        assertThat(m).as("what was sent right after connect, the socket then closed with LINGER 0").isNotNull();
        try {
            assertThat(m.frame(0).toString(StandardCharsets.UTF_8)).isEqualTo("ready");
        } finally {
            m.release();
        }
    }

    /** A connection the peer's socket type refuses ends the wait too, and connect returns without a join. */
    @Test
    void shouldReturnFromConnectWhenThePeerRefusesTheConnection() {
        PullSocket pull = new PullSocket(context);
        pull.bind("inproc://refusing");
        PullSocket other = new PullSocket(context);
        other.connect("inproc://refusing");
        assertThat(other.isClosed()).isFalse();
    }
}
