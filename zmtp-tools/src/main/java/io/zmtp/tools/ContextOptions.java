package io.zmtp.tools;

import io.zmtp.socket.ZmtpContext;
import picocli.CommandLine.Option;

/**
 * The {@link ZmtpContext.Builder} settings as command-line options, so a tool runs on exactly what an application
 * would configure.
 */
public final class ContextOptions {
    @Option(names = "--io-threads", defaultValue = "1", paramLabel = "<n>",
            description = "I/O threads per context (default: ${DEFAULT-VALUE}, as libzmq's).")
    int ioThreads;

    // picocli sets a negatable option to the opposite of its default when given the name it is declared with, and
    // to the default when given the other form: declared by its negative form, --no-native-transport means false.
    @Option(names = "--no-native-transport", negatable = true, defaultValue = "true",
            description = "Use epoll where its native library loads (default); --no-native-transport forces NIO.")
    boolean nativeTransport;

    public ZmtpContext.Builder builder() {
        return ZmtpContext.builder().ioThreads(ioThreads).nativeTransport(nativeTransport);
    }

    public ZmtpContext newContext() {
        return builder().build();
    }

    public int ioThreads() {
        return ioThreads;
    }

    /** What was asked for; whether epoll actually loads is {@link ZmtpContext#isNativeTransport()}. */
    public boolean nativeTransport() {
        return nativeTransport;
    }
}
