package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One CURVE MESSAGE box sealed, and one opened, of {@code size} bytes of frame, between pooled direct buffers as the
 * codec has them: {@code impl=new} is {@link MessageBoxer} (our Poly1305 and one pass over the buffers),
 * {@code impl=bc} the code before it ({@link LegacyMessageBoxer}: Bouncy Castle's Poly1305, a scratch copy, a pass
 * each for the cipher and the MAC). In this package (on the class path) to reach the package-private classes. See
 * docs/PERFORMANCE.md, "CURVE, round 3". {@code bench/jmh.sh SecretBoxBenchmark}
 *
 * <p>On a machine other jobs load, JMH's wall-clock times swing by 100%; {@link #main} measures the same boxes in
 * thread CPU time instead, which the load changes little (after {@code bench/jmh.sh} has built the class path):
 * {@code java -cp "zmtp-tools/target/test-classes:zmtp-tools/target/classes:$(cat
 * zmtp-tools/target/test-classpath.txt)" io.zmtp.codec.mechanism.SecretBoxBenchmark [size...]}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class SecretBoxBenchmark {
    @Param({"64", "1024", "65536"})
    int size;

    @Param({"bc", "new"})
    String impl;

    private MessageBoxer boxer;
    private LegacyMessageBoxer legacy;
    private ByteBuf content;
    private ByteBuf sealed;
    private ByteBuf out;
    private long nonce;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        boxer = new MessageBoxer(key, "CurveZMQMESSAGEC");
        legacy = new LegacyMessageBoxer(key, "CurveZMQMESSAGEC");
        byte[] bytes = new byte[size];
        new Random(2).nextBytes(bytes);
        content = PooledByteBufAllocator.DEFAULT.directBuffer(size).writeBytes(bytes);
        sealed = PooledByteBufAllocator.DEFAULT.directBuffer(size + 64);
        boxer.seal(5, 1, content, 0, size, sealed);
        out = PooledByteBufAllocator.DEFAULT.directBuffer(size + 64);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        content.release();
        sealed.release();
        out.release();
    }

    @Benchmark
    public int seal() {
        out.clear();
        if (impl.equals("new")) {
            boxer.seal(nonce++, 1, content, 0, size, out);
        } else {
            legacy.seal(nonce++, 1, content, 0, size, out);
        }
        return out.writerIndex();
    }

    @Benchmark
    public int open() {
        out.clear();
        sealed.readerIndex(0);
        if (impl.equals("new")) {
            return boxer.open(5, sealed, sealed.readableBytes(), out);
        }
        return legacy.open(5, sealed, sealed.readableBytes(), out);
    }

    /**
     * Thread CPU time per box, {@code bc} and {@code new} in turn, seal and open, for each size given (default 64,
     * 1024, 65536): the median of 7 rounds of about 0.2 s each, after 3 untimed.
     */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {64, 1024, 65536}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int size : sizes) {
            SecretBoxBenchmark[] benches = new SecretBoxBenchmark[2];
            for (int i = 0; i < 2; i++) {
                benches[i] = new SecretBoxBenchmark();
                benches[i].size = size;
                benches[i].impl = i == 0 ? "bc" : "new";
                benches[i].setUp();
            }
            int boxes = (int) Math.max(200, 100_000_000L / (size + 200));
            for (String op : new String[] {"seal", "open"}) {
                long[][] ns = new long[2][7];
                for (int round = -3; round < 7; round++) {
                    for (int i = 0; i < 2; i++) {
                        SecretBoxBenchmark b = benches[i];
                        long start = threads.getCurrentThreadCpuTime();
                        long sink = 0;
                        for (int n = 0; n < boxes; n++) {
                            sink += op.equals("seal") ? b.seal() : b.open();
                        }
                        long took = threads.getCurrentThreadCpuTime() - start;
                        if (round >= 0) {
                            ns[i][round] = took / boxes + (sink == 42 ? 1 : 0);
                        }
                    }
                }
                Arrays.sort(ns[0]);
                Arrays.sort(ns[1]);
                System.out.printf("%-4s %6d B: bc %9d ns, new %9d ns (CPU time per box, medians), new/bc %.2f%n", op,
                        size, ns[0][3], ns[1][3], (double) ns[1][3] / ns[0][3]);
            }
            for (SecretBoxBenchmark b : benches) {
                b.tearDown();
            }
        }
    }
}
