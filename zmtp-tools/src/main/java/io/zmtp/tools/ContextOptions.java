package io.zmtp.tools;

import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpIoTransport;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The {@link ZmtpContext.Builder} settings as command-line options, so a tool runs on exactly what an application
 * would configure.
 */
public final class ContextOptions {
    /**
     * The I/O transport when {@code --io-transport} is not given: so that a script (bench/compare.sh) can put every
     * tool of a run on one transport through the JVM's options ({@code ZMTP_JAVA_OPTS}) without editing each command.
     */
    public static final String IO_TRANSPORT_PROPERTY = "zmtp.io.transport";

    @Option(names = "--io-threads", defaultValue = "1", paramLabel = "<n>",
            description = "I/O threads per context (default: ${DEFAULT-VALUE}, as libzmq's).")
    int ioThreads;

    // picocli sets a negatable option to the opposite of its default when given the name it is declared with, and
    // to the default when given the other form: declared by its negative form, --no-native-transport means false.
    @Option(names = "--no-native-transport", negatable = true, defaultValue = "true",
            description = "Use a native transport where one loads (default); --no-native-transport forces NIO, as "
                    + "--io-transport nio does.")
    boolean nativeTransport;

    @Option(names = "--io-transport", defaultValue = "${sys:" + IO_TRANSPORT_PROPERTY + ":-auto}",
            paramLabel = "<auto|nio|epoll|io_uring>",
            description = "The I/O the context runs on (default: ${DEFAULT-VALUE}; the system property "
                    + IO_TRANSPORT_PROPERTY + " sets the default): auto is epoll, else io_uring, else NIO, whichever "
                    + "loads first; a named one that doesn't load is an error.")
    String ioTransportName;

    public ZmtpContext.Builder builder() {
        return ZmtpContext.builder().ioThreads(ioThreads).ioTransport(ioTransport());
    }

    public ZmtpContext newContext() {
        return builder().build();
    }

    public int ioThreads() {
        return ioThreads;
    }

    /**
     * What was asked for (AUTO unless named); which one a context runs is {@link ZmtpContext#ioTransport()}.
     *
     * @throws IllegalArgumentException for a name that is none, or {@code --no-native-transport} with a native one
     */
    public ZmtpIoTransport ioTransport() {
        ZmtpIoTransport named = ZmtpIoTransport.parse(ioTransportName);
        if (nativeTransport) {
            return named;
        }
        if (named != ZmtpIoTransport.AUTO && named != ZmtpIoTransport.NIO) {
            throw new IllegalArgumentException("--no-native-transport with --io-transport " + named
                    + ": choose one (--no-native-transport is --io-transport nio)");
        }
        return ZmtpIoTransport.NIO;
    }

    /** The options that ask a child JVM's tool for the same context (the same I/O threads and transport). */
    public List<String> asArguments() {
        return List.of("--io-threads", "" + ioThreads, "--io-transport", ioTransport().toString());
    }
}
