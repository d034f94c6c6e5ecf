package io.zmtp.tools.perf;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.Payload;
import io.zmtp.tools.SocketTypeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * libzmq's {@code remote_thr}: a PUSH socket (PUB with {@code --pubsub}, or the {@code --type} given: PUB or
 * SCATTER) connects and sends {@code message-count}
 * messages of {@code message-size} bytes (after {@code warmup-count} more, untimed by local_thr), then closes once all
 * are written. Prints nothing on stdout, as libzmq's.
 * Send blocks at the high-water mark, so memory stays bounded however far ahead of the receiver it runs; as PUB it
 * first waits for the subscriber's subscription, so nothing is dropped.
 */
@Command(name = "remote_thr", mixinStandardHelpOptions = true,
        description = "Throughput test, sending side: PUSH (or PUB, or SCATTER) connects and sends <message-count> "
                + "messages (peer: local_thr, ours or libzmq's, with PULL, SUB or GATHER).")
public final class RemoteThrCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<connect-to>",
            description = "e.g. tcp://127.0.0.1:5555 or ipc:///tmp/perf.sock")
    String connectTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per message")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<message-count>")
    long messageCount;

    @Parameters(index = "3", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed messages sent before the counted ones (default: ${DEFAULT-VALUE}); give local_thr "
                    + "the same")
    long warmupCount;

    @Option(names = "--pubsub", description = "PUB instead of PUSH; peer: local_thr --pubsub.")
    boolean pubsub;

    @Option(names = {"-t", "--type"}, paramLabel = "<type>", converter = SocketTypeConverter.class,
            description = "PUSH (default), PUB (as --pubsub) or SCATTER; peer: local_thr --type PULL, SUB or "
                    + "GATHER.")
    ZmtpSocketType type;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    SecurityOptions security;

    @Override
    public Integer call() {
        try {
            PerfSupport.checkArguments(messageSize, messageCount);
            PerfSupport.checkWarmup(warmupCount);
            ZmtpSocketType sender = PerfSupport.checkType(type, pubsub ? ZmtpSocketType.PUB : ZmtpSocketType.PUSH,
                    pubsub ? new ZmtpSocketType[] {ZmtpSocketType.PUB}
                            : new ZmtpSocketType[] {ZmtpSocketType.PUSH, ZmtpSocketType.PUB, ZmtpSocketType.SCATTER});
            ByteBuf payload = Payload.shared(messageSize);
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = PerfSupport.open(context, sender)) {
                security.apply(socket, false);
                socket.connect(connectTo);
                if (sender == ZmtpSocketType.PUB) {
                    PerfSupport.awaitSubscriber(socket);
                }
                try (PerfSupport.Progress progress = new PerfSupport.Progress()) {
                    for (long i = 0, n = warmupCount + messageCount; i < n; i++) {
                        socket.send(ZmtpMessage.wrap(payload.duplicate()));
                        progress.increment();
                    }
                }
            }
            return 0;
        } catch (RuntimeException e) {
            System.err.println("remote_thr: " + e.getMessage());
            return 1;
        }
    }
}
