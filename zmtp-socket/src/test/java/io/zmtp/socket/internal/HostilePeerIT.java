package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.SocketTestSupport.RawPeer;
import io.zmtp.socket.transport.IoKind;
import io.zmtp.socket.transport.TcpTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/** Peers that send what their type never should, against a socket whose internals the test can see. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostilePeerIT {
    private EventLoopGroup group;
    private ExecutorService async;
    private SocketContext context;

    @BeforeEach
    void setUp() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        async = Executors.newSingleThreadExecutor();
        context = new SocketContext(group, async, 1000, new TcpTransport(group, IoKind.NIO, InetAddress::getByName,
                async));
    }

    @AfterEach
    void tearDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        async.shutdown();
    }

    private static int pipeCount(SocketBase socket) {
        socket.lock.lock();
        try {
            socket.attached.processEvents();
            return socket.pipes().size();
        } finally {
            socket.lock.unlock();
        }
    }

    @Test
    void shouldKeepNothingOnABoundPushFromPullPeersThatSendAndDisconnect() throws Exception {
        PushSocket push = new PushSocket(context);
        try {
            String endpoint = push.bind("tcp://127.0.0.1:*");
            try (RawPeer pull = new RawPeer(ZmtpConfig.builder(PULL).build())) {
                for (int i = 0; i < 50; i++) {
                    Channel ch = pull.connect(endpoint);
                    for (int j = 0; j < 100; j++) {
                        ch.write(ZmtpMessage.of("a PULL never sends this", Integer.toString(j)));
                    }
                    ch.writeAndFlush(ZmtpMessage.of("last")).sync();
                    ch.close().sync();
                }
            }
            long deadline = System.nanoTime() + scaled(Duration.ofSeconds(10)).toNanos();
            while (pipeCount(push) > 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
            assertThat(pipeCount(push)).as("pipes of closed connections").isZero();
        } finally {
            push.close();
        }
    }
}
