package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * libzmq's {@code local_lat}: a REP socket bound to an endpoint echoes {@code roundtrip-count} messages of
 * {@code message-size} bytes. Prints nothing on stdout, as libzmq's; its peer is {@code remote_lat}.
 */
@Command(name = "local_lat", mixinStandardHelpOptions = true,
        description = "Latency test, echoing side: REP binds and echoes <roundtrip-count> messages "
                + "(peer: remote_lat, ours or libzmq's).")
public final class LocalLatCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<bind-to>",
            description = "e.g. tcp://*:5555 or ipc:///tmp/perf.sock")
    String bindTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per message")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<roundtrip-count>")
    long roundtripCount;

    @Parameters(index = "3", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed round trips remote_lat makes first (default: ${DEFAULT-VALUE}); echoed as well")
    long warmupCount;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    SecurityOptions security;

    @Override
    public Integer call() {
        try {
            PerfSupport.checkArguments(messageSize, roundtripCount);
            PerfSupport.checkWarmup(warmupCount);
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = PerfSupport.open(context, ZmtpSocketType.REP)) {
                security.apply(socket, true);
                security.bind(socket, bindTo);
                try (PerfSupport.Progress progress = new PerfSupport.Progress()) {
                    for (long i = 0, n = warmupCount + roundtripCount; i < n; i++) {
                        ZmtpMessage m = socket.receive();
                        PerfSupport.checkSize(m, messageSize);
                        socket.send(m);
                        progress.increment();
                    }
                }
            }
            return 0;
        } catch (RuntimeException e) {
            System.err.println("local_lat: " + e.getMessage());
            return 1;
        }
    }
}
