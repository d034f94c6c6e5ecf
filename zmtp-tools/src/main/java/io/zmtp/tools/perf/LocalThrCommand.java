package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.SocketTypeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * libzmq's {@code local_thr}: a PULL socket (SUB with {@code --pubsub}, or the {@code --type} given: SUB or
 * GATHER) binds, receives {@code message-count}
 * messages of {@code message-size} bytes, and prints libzmq's lines. As libzmq's, the clock starts at the first
 * message; with a {@code warmup-count}, that many messages are received untimed first (the peer's remote_thr must
 * send them: give it the same count), so the figure is the JVM's past its warm-up (bench/compare.sh's steady runs).
 */
@Command(name = "local_thr", mixinStandardHelpOptions = true,
        description = "Throughput test, receiving side: PULL (or SUB, or GATHER) binds and receives <message-count> "
                + "messages (peer: remote_thr, ours or libzmq's, with PUSH, PUB or SCATTER).")
public final class LocalThrCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<bind-to>",
            description = "e.g. tcp://*:5555 or ipc:///tmp/perf.sock")
    String bindTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per message")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<message-count>")
    long messageCount;

    @Parameters(index = "3", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed messages received before the timed ones (default: ${DEFAULT-VALUE}); give "
                    + "remote_thr the same")
    long warmupCount;

    @Option(names = "--pubsub", description = "SUB (subscribed to everything) instead of PULL; peer: remote_thr --pubsub.")
    boolean pubsub;

    @Option(names = {"-t", "--type"}, paramLabel = "<type>", converter = SocketTypeConverter.class,
            description = "PULL (default), SUB (as --pubsub) or GATHER; peer: remote_thr --type PUSH, PUB or "
                    + "SCATTER.")
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
            ZmtpSocketType receiver = PerfSupport.checkType(type, pubsub ? ZmtpSocketType.SUB : ZmtpSocketType.PULL,
                    pubsub ? new ZmtpSocketType[] {ZmtpSocketType.SUB}
                            : new ZmtpSocketType[] {ZmtpSocketType.PULL, ZmtpSocketType.SUB, ZmtpSocketType.GATHER});
            long elapsedNanos;
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = PerfSupport.open(context, receiver)) {
                security.apply(socket, true);
                security.bind(socket, bindTo);
                try (PerfSupport.Progress progress = new PerfSupport.Progress()) {
                    receive(socket, warmupCount, progress);
                    receive(socket, 1, progress);
                    long start = System.nanoTime();
                    receive(socket, messageCount - 1, progress);
                    elapsedNanos = System.nanoTime() - start;
                }
            }
            print(System.out, messageSize, messageCount, elapsedNanos);
            return 0;
        } catch (RuntimeException e) {
            System.err.println("local_thr: " + e.getMessage());
            return 1;
        }
    }

    /** Receives {@code count} messages, each checked for its size and released. */
    private void receive(ZmtpSocket socket, long count, PerfSupport.Progress progress) {
        for (long i = 0; i < count; i++) {
            ZmtpMessage m = socket.receive();
            PerfSupport.checkSize(m, messageSize);
            m.release();
            progress.increment();
        }
    }

    /** libzmq's arithmetic: elapsed in whole microseconds (at least 1), throughput truncated to an integer. */
    static void print(PrintStream out, int size, long count, long elapsedNanos) {
        long elapsedMicros = Math.max(elapsedNanos / 1000, 1);
        long throughput = (long) ((double) count / (double) elapsedMicros * 1_000_000);
        double megabits = (double) (throughput * size * 8) / 1_000_000;
        out.printf("message size: %d [B]%n", size);
        out.printf("message count: %d%n", count);
        out.printf("mean throughput: %d [msg/s]%n", throughput);
        out.printf("mean throughput: %.3f [Mb/s]%n", megabits);
        out.flush();
    }
}
