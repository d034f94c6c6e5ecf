package io.zmtp.tools;

import io.zmtp.socket.ZmtpIoTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The I/O transport a tool asks its context for: the option, the system property that sets its default, the old
 * flag.
 */
class ContextOptionsTest {
    @Command(name = "tool")
    static final class Tool {
        @Mixin
        ContextOptions context;
    }

    @AfterEach
    void clearProperty() {
        System.clearProperty(ContextOptions.IO_TRANSPORT_PROPERTY);
    }

    private static ContextOptions parse(String... args) {
        Tool tool = new Tool();
        new CommandLine(tool).parseArgs(args);
        return tool.context;
    }

    @Test
    void shouldAskForAutoByDefault() {
        assertThat(parse().ioTransport()).isEqualTo(ZmtpIoTransport.AUTO);
    }

    @Test
    void shouldAskForTheTransportNamed() {
        assertThat(parse("--io-transport", "io_uring").ioTransport()).isEqualTo(ZmtpIoTransport.IO_URING);
        assertThat(parse("--io-transport", "epoll").ioTransport()).isEqualTo(ZmtpIoTransport.EPOLL);
        assertThat(parse("--io-transport", "nio").ioTransport()).isEqualTo(ZmtpIoTransport.NIO);
    }

    @Test
    void shouldTakeTheDefaultFromTheSystemPropertyAndLetTheOptionOverrideIt() {
        System.setProperty(ContextOptions.IO_TRANSPORT_PROPERTY, "io_uring");
        assertThat(parse().ioTransport()).isEqualTo(ZmtpIoTransport.IO_URING);
        assertThat(parse("--io-transport", "epoll").ioTransport()).isEqualTo(ZmtpIoTransport.EPOLL);
    }

    @Test
    void shouldKeepNoNativeTransportAsNioAndRefuseItBesideANativeOne() {
        assertThat(parse("--no-native-transport").ioTransport()).isEqualTo(ZmtpIoTransport.NIO);
        assertThat(parse("--no-native-transport", "--io-transport", "nio").ioTransport())
                .isEqualTo(ZmtpIoTransport.NIO);
        assertThatThrownBy(() -> parse("--no-native-transport", "--io-transport", "io_uring").ioTransport())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("choose one");
    }

    @Test
    void shouldPassTheSameContextToAChildTool() {
        assertThat(parse("--io-threads", "2", "--io-transport", "io_uring").asArguments())
                .isEqualTo(List.of("--io-threads", "2", "--io-transport", "io_uring"));
    }
}
