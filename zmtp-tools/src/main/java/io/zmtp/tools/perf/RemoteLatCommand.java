package io.zmtp.tools.perf;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.Payload;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * libzmq's {@code remote_lat}: a REQ socket connects and makes {@code roundtrip-count} round trips of
 * {@code message-size} bytes, then prints libzmq's lines (average latency = elapsed / (count * 2), i.e. half a
 * round trip) and, from an HdrHistogram of every round trip, percentiles of the half round trip.
 */
@Command(name = "remote_lat", mixinStandardHelpOptions = true,
        description = "Latency test, measuring side: REQ connects, makes <roundtrip-count> round trips "
                + "(peer: local_lat, ours or libzmq's) and prints the average and percentiles of half a round trip.")
public final class RemoteLatCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<connect-to>",
            description = "e.g. tcp://127.0.0.1:5555 or ipc:///tmp/perf.sock")
    String connectTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per message")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<roundtrip-count>")
    long roundtripCount;

    @Parameters(index = "3", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed round trips before the timed ones (default: ${DEFAULT-VALUE}, as libzmq's tool); "
                    + "local_lat must be given the same")
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
            Histogram histogram = new Histogram(TimeUnit.MINUTES.toNanos(10), 3);
            ByteBuf payload = Payload.shared(messageSize);
            long elapsedNanos;
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = PerfSupport.open(context, ZmtpSocketType.REQ)) {
                security.apply(socket, false);
                socket.connect(connectTo);
                try (PerfSupport.Progress progress = new PerfSupport.Progress(
                        rate -> rate == 0 ? "" : String.format("    average latency: %.3f [us]", 1e6 / rate / 2))) {
                    for (long i = 0; i < warmupCount; i++) {
                        socket.send(ZmtpMessage.wrap(payload.duplicate()));
                        ZmtpMessage reply = socket.receive();
                        PerfSupport.checkSize(reply, messageSize);
                        reply.release();
                        progress.increment();
                    }
                    long start = System.nanoTime();
                    long last = start;
                    for (long i = 0; i < roundtripCount; i++) {
                        socket.send(ZmtpMessage.wrap(payload.duplicate()));
                        ZmtpMessage reply = socket.receive();
                        PerfSupport.checkSize(reply, messageSize);
                        reply.release();
                        long now = System.nanoTime();
                        histogram.recordValue(Math.min(now - last, histogram.getHighestTrackableValue()));
                        last = now;
                        progress.increment();
                    }
                    elapsedNanos = last - start;
                }
            }
            print(System.out, messageSize, roundtripCount, elapsedNanos, histogram);
            return 0;
        } catch (RuntimeException e) {
            System.err.println("remote_lat: " + e.getMessage());
            return 1;
        }
    }

    static void print(PrintStream out, int size, long count, long elapsedNanos, Histogram roundTrips) {
        double elapsedMicros = Math.max(elapsedNanos / 1000.0, 1);
        out.printf("message size: %d [B]%n", size);
        out.printf("roundtrip count: %d%n", count);
        out.printf("average latency: %.3f [us]%n", elapsedMicros / (count * 2));
        // Same unit as libzmq's average: half a round trip.
        out.printf("latency p50: %.3f [us]%n", roundTrips.getValueAtPercentile(50) / 2000.0);
        out.printf("latency p90: %.3f [us]%n", roundTrips.getValueAtPercentile(90) / 2000.0);
        out.printf("latency p99: %.3f [us]%n", roundTrips.getValueAtPercentile(99) / 2000.0);
        out.printf("latency p99.9: %.3f [us]%n", roundTrips.getValueAtPercentile(99.9) / 2000.0);
        out.printf("latency max: %.3f [us]%n", roundTrips.getMaxValue() / 2000.0);
        out.flush();
    }
}
