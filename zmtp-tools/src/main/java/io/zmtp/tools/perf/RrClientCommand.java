package io.zmtp.tools.perf;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.Payload;
import io.zmtp.tools.SocketTypeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * Request/reply with many requests in flight, requesting side: a DEALER (or with {@code --type CLIENT}, a CLIENT, whose
 * requests and replies are the same single frame) connects, sends one untimed request and waits
 * for its reply (the connection is up and both ends have run once), then {@code warmup-count - 1} more untimed
 * requests, then {@code request-count} timed ones, keeping {@code in-flight} outstanding, and prints the replies per
 * second. The peer is {@code rr_server} (ours or bench/rr_server.c) started with the same size, count and warm-up:
 * it echoes exactly {@code max(warmup-count, 1) + request-count} requests, which is what this side sends.
 *
 * <p>The window is counted in replies, not sends: the run ends when the last reply has arrived, never when the last
 * request has merely been queued.
 */
@Command(name = "rr_client", mixinStandardHelpOptions = true,
        description = "Request/reply throughput, requesting side: DEALER (or CLIENT) connects and keeps <in-flight> "
                + "requests outstanding until <request-count> replies have arrived (peer: rr_server, ours or "
                + "libzmq's, with ROUTER or SERVER).")
public final class RrClientCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<connect-to>",
            description = "e.g. tcp://127.0.0.1:5555 or ipc:///tmp/perf.sock")
    String connectTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per request and per reply")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<request-count>", description = "timed requests")
    long requestCount;

    @Parameters(index = "3", paramLabel = "<in-flight>", description = "requests kept outstanding")
    int inFlight;

    @Parameters(index = "4", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed requests before the timed ones, the first included (default: ${DEFAULT-VALUE}, "
                    + "i.e. only the first)")
    long warmupCount;

    @Option(names = {"-t", "--type"}, paramLabel = "<type>", converter = SocketTypeConverter.class,
            description = "DEALER (default; peer: rr_server --type ROUTER) or CLIENT (peer: rr_server --type "
                    + "SERVER), which keeps <in-flight> requests outstanding as the DEALER does.")
    ZmtpSocketType type;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    SecurityOptions security;

    @Override
    public Integer call() {
        try {
            PerfSupport.checkArguments(messageSize, requestCount);
            if (inFlight < 1) {
                throw new PerfSupport.PerfException("in-flight: " + inFlight + " (expected: >= 1)");
            }
            PerfSupport.checkWarmup(warmupCount);
            ZmtpSocketType requester = PerfSupport.checkType(type, ZmtpSocketType.DEALER, ZmtpSocketType.DEALER,
                    ZmtpSocketType.CLIENT);
            ByteBuf payload = Payload.shared(messageSize);
            long elapsedNanos;
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = context.socket(requester)) {
                // The window, not the HWM, bounds what is outstanding: a DEALER (or CLIENT) blocks its sender at SNDHWM, and
                // a window wider than the HWM would measure that stall.
                socket.setOption(ZmtpSocketOption.SNDHWM, 0);
                socket.setOption(ZmtpSocketOption.RCVHWM, 0);
                // The run ends only once every request has been answered, so nothing is left to send at close;
                // 0 means close can't wait on a server that has gone away.
                socket.setOption(ZmtpSocketOption.LINGER, 0);
                security.apply(socket, false);
                socket.connect(connectTo);
                try (PerfSupport.Progress progress = new PerfSupport.Progress()) {
                    // Waits as long as it takes, as libzmq's tools do: the server may start after us.
                    socket.send(ZmtpMessage.wrap(payload.duplicate()));
                    ZmtpMessage first = socket.receive();
                    PerfSupport.checkSize(first, messageSize);
                    first.release();
                    progress.increment();
                    exchange(socket, payload, Math.max(warmupCount, 1) - 1, progress);
                    long start = System.nanoTime();
                    exchange(socket, payload, requestCount, progress);
                    elapsedNanos = System.nanoTime() - start;
                }
            }
            print(System.out, messageSize, requestCount, inFlight, elapsedNanos);
            return 0;
        } catch (RuntimeException e) {
            System.err.println("rr_client: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Sends {@code count} requests, at most {@link #inFlight} unanswered at a time, and returns once all
     * {@code count} replies have arrived. Fails if the server goes quiet for {@link PerfSupport#STALL}.
     */
    private void exchange(ZmtpSocket socket, ByteBuf payload, long count, PerfSupport.Progress progress) {
        long sent = 0;
        long replies = 0;
        while (replies < count) {
            while (sent < count && sent - replies < inFlight) {
                socket.send(ZmtpMessage.wrap(payload.duplicate()));
                sent++;
            }
            ZmtpMessage reply = socket.receive(PerfSupport.STALL);
            if (reply == null) {
                throw new PerfSupport.PerfException("no reply for " + PerfSupport.STALL.toSeconds() + " s: "
                        + replies + " of " + count + " replies received, " + (sent - replies) + " outstanding");
            }
            PerfSupport.checkSize(reply, messageSize);
            reply.release();
            replies++;
            progress.increment();
        }
    }

    /** libzmq's arithmetic, as local_thr: elapsed in whole microseconds (at least 1), the rate truncated. */
    static void print(PrintStream out, int size, long count, int inFlight, long elapsedNanos) {
        long elapsedMicros = Math.max(elapsedNanos / 1000, 1);
        long throughput = (long) ((double) count / (double) elapsedMicros * 1_000_000);
        out.printf("message size: %d [B]%n", size);
        out.printf("request count: %d%n", count);
        out.printf("in flight: %d%n", inFlight);
        out.printf("mean throughput: %d [req/s]%n", throughput);
        out.flush();
    }
}
