package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which I/O transport a context runs ({@link ZmtpContext.Builder#ioTransport}, {@link ZmtpContext#ioTransport()}),
 * how {@code nativeTransport(boolean)} maps onto it, and that choosing one loads no other's classes: a context on NIO
 * touches neither epoll nor io_uring, one on epoll (AUTO's choice on Linux) not io_uring, one on io_uring not epoll.
 * The classes are counted in a child JVM of each, from {@code -Xlog:class+load}: this JVM has loaded them all.
 * Where neither loads, AUTO runs NIO and a named one fails the build saying why. These tests run on Linux, where
 * epoll and io_uring must both be available (IoUringIT says what to do if not).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IoTransportChoiceIT {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "epoll", "io_uring"})
    void shouldRunAndReportTheTransportAskedFor(String name) {
        ZmtpIoTransport wanted = ZmtpIoTransport.parse(name);
        try (ZmtpContext ctx = ZmtpContext.builder().ioTransport(wanted).build()) {
            assertThat(ctx.ioTransport()).isEqualTo(wanted);
            assertThat(ctx.isNativeTransport()).isEqualTo(wanted != ZmtpIoTransport.NIO);
            exchangeOverTcp(ctx);
        }
    }

    @Test
    void shouldRunEpollForAutoAndTheDefault() {
        try (ZmtpContext byDefault = new ZmtpContext();
             ZmtpContext auto = ZmtpContext.builder().ioTransport(ZmtpIoTransport.AUTO).build()) {
            assertThat(byDefault.ioTransport()).as("AUTO on Linux with the epoll jars")
                    .isEqualTo(ZmtpIoTransport.EPOLL);
            assertThat(auto.ioTransport()).isEqualTo(ZmtpIoTransport.EPOLL);
        }
    }

    @Test
    void shouldMapNativeTransportOntoAutoAndNioWithTheLaterCallWinning() {
        try (ZmtpContext off = ZmtpContext.builder().ioTransport(ZmtpIoTransport.IO_URING).nativeTransport(false)
                .build();
             ZmtpContext on = ZmtpContext.builder().nativeTransport(false).nativeTransport(true).build();
             ZmtpContext named = ZmtpContext.builder().nativeTransport(false).ioTransport(ZmtpIoTransport.IO_URING)
                     .build()) {
            assertThat(off.ioTransport()).isEqualTo(ZmtpIoTransport.NIO);
            assertThat(off.isNativeTransport()).isFalse();
            assertThat(on.ioTransport()).isEqualTo(ZmtpIoTransport.EPOLL);
            assertThat(named.ioTransport()).isEqualTo(ZmtpIoTransport.IO_URING);
        }
    }

    @Test
    void shouldParseTheNamesTheToolsUse() {
        assertThat(ZmtpIoTransport.parse("io_uring")).isEqualTo(ZmtpIoTransport.IO_URING);
        assertThat(ZmtpIoTransport.parse("IO_URING")).isEqualTo(ZmtpIoTransport.IO_URING);
        assertThat(ZmtpIoTransport.parse("Epoll")).isEqualTo(ZmtpIoTransport.EPOLL);
        assertThat(ZmtpIoTransport.IO_URING).hasToString("io_uring");
        assertThat(ZmtpIoTransport.AUTO).hasToString("auto");
        assertThatThrownBy(() -> ZmtpIoTransport.parse("kqueue")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: auto, nio, epoll or io_uring");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "auto", "io_uring"})
    void shouldLoadNoClassesOfATransportItDoesNotUse(String name) throws Exception {
        List<String> loaded = nettyTransportClassesLoadedBy(name);
        assertThat(loaded).as("the child ran to its end").contains("ran");
        List<String> epoll = loaded.stream().filter(c -> c.startsWith("io.netty.channel.epoll.")).toList();
        List<String> uring = loaded.stream().filter(c -> c.startsWith("io.netty.channel.uring.")).toList();
        switch (name) {
            case "nio":
                assertThat(epoll).as("epoll classes on NIO").isEmpty();
                assertThat(uring).as("io_uring classes on NIO").isEmpty();
                break;
            case "auto":
                assertThat(epoll).as("AUTO runs epoll").isNotEmpty();
                assertThat(uring).as("io_uring classes on epoll").isEmpty();
                break;
            default:
                assertThat(uring).as("io_uring runs").isNotEmpty();
                assertThat(epoll).as("epoll classes on io_uring").isEmpty();
        }
    }

    /**
     * Where no native transport loads (here: Netty told not to load any, {@code -Dio.netty.transport.noNative=true}),
     * AUTO runs NIO, and asking for io_uring by name fails the build with Netty's reason and what it needs.
     */
    @Test
    void shouldFallBackToNioOnAutoAndRefuseANamedTransportThatIsMissing() throws Exception {
        ChildJvm.Result child = ChildJvm.run(List.of("-Dio.netty.transport.noNative=true"), NoNativeMain.class);
        List<String> out = child.output();
        assertThat(child.exited()).as("the child JVM exited").isTrue();
        assertThat(child.exitValue()).as("output: %s", out).isZero();
        assertThat(out).as("output").contains("auto runs nio");
        assertThat(out).as("output").anySatisfy(line -> assertThat(line)
                .startsWith("io_uring refused: I/O transport io_uring was asked for but is not available here")
                .contains("noNative")
                .contains("io.netty:netty-transport-native-io_uring"));
    }

    /** The io.netty.channel.epoll and .uring classes a child JVM loads to run one exchange on {@code name}. */
    private static List<String> nettyTransportClassesLoadedBy(String name) throws Exception {
        ChildJvm.Result child = ChildJvm.run(List.of("-Xlog:class+load=info:stdout"), ExchangeMain.class, name);
        List<String> out = child.output();
        assertThat(child.exited()).as("the child JVM exited").isTrue();
        assertThat(child.exitValue()).as("the child's exit status; its output ends: %s",
                out.subList(Math.max(0, out.size() - 20), out.size())).isZero();
        // "[0.123s][info][class,load] io.netty.channel.epoll.Epoll source: jar:file:..."
        return out.stream()
                .map(line -> line.contains("[class,load] ") ? line.substring(line.indexOf("[class,load] ") + 13)
                        .split(" ")[0] : line)
                .filter(c -> c.startsWith("io.netty.channel.epoll.") || c.startsWith("io.netty.channel.uring.")
                        || c.equals("ran"))
                .collect(Collectors.toList());
    }

    private static void exchangeOverTcp(ZmtpContext ctx) {
        ZmtpSocket rep = ctx.socket(ZmtpSocketType.REP);
        ZmtpSocket req = ctx.socket(ZmtpSocketType.REQ);
        req.connect(rep.bind("tcp://127.0.0.1:*"));
        req.send("ping");
        ZmtpMessage ping = rep.receive(WAIT);
        assertThat(ping).as("request within %s", WAIT).isNotNull();
        rep.send(ping);
        ZmtpMessage pong = req.receive(WAIT);
        assertThat(pong).as("reply within %s", WAIT).isNotNull();
        pong.release();
    }

    /** AUTO's choice, and the refusal of io_uring, in a JVM where no native transport loads. */
    public static final class NoNativeMain {
        public static void main(String[] args) {
            try (ZmtpContext ctx = new ZmtpContext()) {
                exchangeOverTcp(ctx);
                System.out.println("auto runs " + ctx.ioTransport());
            }
            try (ZmtpContext ctx = ZmtpContext.builder().ioTransport(ZmtpIoTransport.IO_URING).build()) {
                System.out.println("io_uring built: " + ctx.ioTransport());
            } catch (IllegalStateException e) {
                System.out.println("io_uring refused: " + e.getMessage());
            }
        }
    }

    /** A context on the transport named by its argument, one exchange over tcp, then "ran". */
    public static final class ExchangeMain {
        public static void main(String[] args) {
            try (ZmtpContext ctx = ZmtpContext.builder().ioTransport(ZmtpIoTransport.parse(args[0])).build()) {
                exchangeOverTcp(ctx);
            }
            System.out.println("ran");
        }
    }
}
