package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.DISH;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.RADIO;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.socket.SocketTestSupport.WAIT;
import static io.zmtp.socket.SocketTestSupport.awaitFirst;
import static io.zmtp.socket.SocketTestSupport.recv;
import static io.zmtp.socket.SocketTestSupport.retry;
import static io.zmtp.socket.SocketTestSupport.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The basic patterns on a context asked for io_uring ({@link ZmtpIoTransport#IO_URING}): REQ/REP, PUSH/PULL,
 * PUB/SUB and ROUTER/DEALER over tcp, PUSH/PULL over ipc (file and abstract names), RADIO/DISH over udp.
 *
 * <p>That a message arrives shows the connection ran on io_uring's channels, not only that the context says so: an
 * io_uring event loop refuses to register a channel of another kind, so a transport that picked NIO's or epoll's
 * classes would fail every bind and connect here.
 *
 * <p>io_uring must be there (Linux 5.9+, the jars on the test class path through zmtp-socket's pom): the class fails
 * saying what is missing. Only where the kernel itself refuses io_uring (the {@code kernel.io_uring_disabled} sysctl,
 * or a seccomp profile that answers EPERM) does it abort instead, printing why: that is the machine's policy, not
 * something a build can fix.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IoUringIT {
    @TempDir
    Path dir;
    private ZmtpContext ctx;

    @BeforeAll
    static void ioUringMustBeAvailable() {
        Throwable cause = ZmtpIoTransport.IO_URING.unavailabilityCause();
        if (cause == null) {
            return;
        }
        String refusal = kernelRefusal(cause);
        if (refusal != null) {
            String why = "IoUringIT not run: the kernel refuses io_uring here (" + refusal + "; " + cause + ")";
            System.err.println(why);
            Assumptions.abort(why);
        }
        fail("io_uring is not available (" + cause + "): these tests need Linux 5.9 or later (Netty 4.2.18's "
                + "check) and io.netty:netty-transport-native-io_uring:linux-x86_64 (or linux-aarch_64) on the test "
                + "class path, which zmtp-socket's pom declares; run ./mvnw once without -o to fetch it", cause);
    }

    /** Why the kernel refuses io_uring by policy, or null if it doesn't (then the cause is something to fix). */
    private static String kernelRefusal(Throwable cause) {
        try {
            String disabled = Files.readString(Path.of("/proc/sys/kernel/io_uring_disabled"),
                    StandardCharsets.US_ASCII).trim();
            if (!"0".equals(disabled)) {
                return "sysctl kernel.io_uring_disabled=" + disabled;
            }
        } catch (IOException e) {
            // No such sysctl (kernels before 6.6): the cause below decides.
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (m.contains("Operation not permitted")) {
                return "io_uring_setup: EPERM (a seccomp profile, as container runtimes' defaults)";
            }
        }
        return null;
    }

    @BeforeEach
    void openContext() {
        ctx = ZmtpContext.builder().ioTransport(ZmtpIoTransport.IO_URING).lingerCapMillis(2000).build();
    }

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    private ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = ctx.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 1000);
        return s;
    }

    @Test
    void shouldReportIoUringAsTheTransportInUse() {
        assertThat(ctx.ioTransport()).isEqualTo(ZmtpIoTransport.IO_URING);
        assertThat(ctx.isNativeTransport()).isTrue();
    }

    @Test
    void shouldExchangeRequestsAndRepliesOverTcp() {
        ZmtpSocket rep = socket(REP);
        ZmtpSocket req = socket(REQ);
        req.connect(rep.bind("tcp://127.0.0.1:*"));
        for (int i = 0; i < 3; i++) {
            req.send(ZmtpMessage.of("hello", "" + i));
            assertThat(recv(rep)).isEqualTo("hello|" + i);
            rep.send(ZmtpMessage.of("world", "" + i));
            assertThat(recv(req)).isEqualTo("world|" + i);
        }
    }

    /** Many messages, large ones among them: reads and writes that span several completions, in order. */
    @Test
    void shouldPushToPullInOrderOverTcp() {
        ZmtpSocket pull = socket(PULL);
        ZmtpSocket push = socket(PUSH);
        push.connect(pull.bind("tcp://127.0.0.1:*"));
        byte[] big = new byte[256 * 1024];
        for (int i = 0; i < 1000; i++) {
            push.send(i % 100 == 0 ? ZmtpMessage.of("" + i, new String(big, StandardCharsets.ISO_8859_1))
                    : ZmtpMessage.of("" + i));
        }
        for (int i = 0; i < 1000; i++) {
            ZmtpMessage m = pull.receive(WAIT);
            assertThat(m).as("message %d", i).isNotNull();
            try {
                assertThat(m.frameString(0)).isEqualTo("" + i);
                assertThat(m.size()).isEqualTo(i % 100 == 0 ? 2 : 1);
            } finally {
                m.release();
            }
        }
    }

    @Test
    void shouldPublishToASubscriberOverTcp() {
        ZmtpSocket pub = socket(PUB);
        ZmtpSocket sub = socket(SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, "news".getBytes(StandardCharsets.UTF_8));
        sub.connect(pub.bind("tcp://127.0.0.1:*"));
        assertThat(awaitFirst(pub, sub, "news first")).isEqualTo("news first");
        pub.send(ZmtpMessage.of("sport ignored"));
        pub.send(ZmtpMessage.of("news second"));
        assertThat(recv(sub)).isEqualTo("news second");
    }

    @Test
    void shouldRouteBetweenRouterAndDealerOverTcp() {
        ZmtpSocket router = socket(ROUTER);
        ZmtpSocket dealer = socket(DEALER);
        dealer.setOption(ZmtpSocketOption.ROUTING_ID, "d1".getBytes(StandardCharsets.UTF_8));
        dealer.connect(router.bind("tcp://127.0.0.1:*"));
        dealer.send(ZmtpMessage.of("ask"));
        assertThat(recv(router)).isEqualTo("d1|ask");
        router.send(ZmtpMessage.of("d1", "answer"));
        assertThat(recv(dealer)).isEqualTo("answer");
    }

    @Test
    void shouldPushToPullOverIpc() {
        ZmtpSocket pull = socket(PULL);
        String endpoint = pull.bind("ipc://" + dir.resolve("uring.sock"));
        ZmtpSocket push = socket(PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("over", "ipc"));
        assertThat(recv(pull)).isEqualTo("over|ipc");
    }

    /** Abstract names need Netty's own domain socket address, which io_uring's channels take as epoll's do. */
    @Test
    void shouldPushToPullOverAnAbstractIpcName() {
        String endpoint = "ipc://@zmtp-uring-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        ZmtpSocket pull = socket(PULL);
        assertThat(pull.bind(endpoint)).isEqualTo(endpoint);
        ZmtpSocket push = socket(PUSH);
        push.connect(endpoint);
        push.send(ZmtpMessage.of("abstract"));
        assertThat(recv(pull)).isEqualTo("abstract");
    }

    @Test
    void shouldCarryRadioToDishOverUdp() {
        ZmtpSocket dish = socket(DISH);
        dish.join("weather");
        String endpoint = dish.bind("udp://127.0.0.1:*");
        ZmtpSocket radio = socket(RADIO);
        radio.connect(endpoint);
        // Datagrams sent before the DISH's channel reads are lost, as libzmq's: send until one arrives.
        ZmtpMessage m = retry(() -> {
            radio.send(ZmtpMessage.of("goal!").group("sports"));
            radio.send(ZmtpMessage.of("rain").group("weather"));
            return dish.receive(Duration.ofMillis(25));
        });
        assertThat(m).as("a datagram within %s", WAIT).isNotNull();
        assertThat(m.group()).isEqualTo("weather");
        assertThat(text(m)).isEqualTo("rain");
    }
}
