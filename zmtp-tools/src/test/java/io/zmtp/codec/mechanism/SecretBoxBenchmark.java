package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
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
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * CURVE MESSAGE boxes of {@code size} bytes of frame sealed, and opened, in sequence (each box the next nonce, as a
 * connection's are), between pooled direct buffers as the codec has them: {@code impl=new} is {@link MessageBoxer}
 * (round 4: key stream made ahead for the next nonces, {@link KeyStreamAhead}), {@code impl=round3} the code before
 * it ({@link Round3MessageBoxer}: each box's key stream made alone), {@code impl=bc} the code before round 3
 * ({@link LegacyMessageBoxer}: Bouncy Castle's Poly1305, a scratch copy, a pass each for the cipher and the MAC).
 * Opening walks a ring of boxes sealed beforehand with nonces 0, 1, 2, ..., so one box in the ring's length goes back
 * to nonce 0 (the skip). In this package (on the class path) to reach the package-private classes. See
 * docs/performance-notes.md, "CURVE round 3". {@code bench/jmh.sh SecretBoxBenchmark}
 *
 * <p>On a machine other jobs load, JMH's wall-clock times swing by 100%; {@link #main} measures the same boxes in
 * thread CPU time instead, which the load changes little (after {@code bench/jmh.sh} has built the class path):
 * {@code java -cp "zmtp-tools/target/test-classes:zmtp-tools/target/classes:$(cat
 * zmtp-tools/target/test-classpath.txt)" io.zmtp.codec.mechanism.SecretBoxBenchmark [size...]}, {@code round3}
 * against {@code new} (or {@code -Dimpls=bc,new}), and the bytes the thread allocated per box.
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

    @Param({"bc", "round3", "new"})
    String impl;

    private MessageBoxer boxer;
    private MessageBoxer opener;
    private Round3MessageBoxer round3;
    private LegacyMessageBoxer legacy;
    private ByteBuf content;
    /** The ring of sealed boxes, nonces 0 to {@code ring - 1}, each {@code boxLength} bytes. */
    private ByteBuf sealed;
    private int ring;
    private int boxLength;
    private ByteBuf out;
    private long nonce;
    private int openNext;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        boxer = new MessageBoxer(key, "CurveZMQMESSAGEC");
        opener = new MessageBoxer(key, "CurveZMQMESSAGEC");
        round3 = new Round3MessageBoxer(key, "CurveZMQMESSAGEC");
        legacy = new LegacyMessageBoxer(key, "CurveZMQMESSAGEC");
        byte[] bytes = new byte[size];
        new Random(2).nextBytes(bytes);
        content = switch (System.getProperty("content", "pooled")) {
            // As the perf tools send: duplicates of one unreleasable direct buffer.
            case "shared" -> Unpooled.unreleasableBuffer(Unpooled.directBuffer(size).writeBytes(bytes)).duplicate();
            case "heap" -> Unpooled.wrappedBuffer(bytes);
            default -> PooledByteBufAllocator.DEFAULT.directBuffer(size).writeBytes(bytes);
        };
        boxLength = CryptoBox.TAG_LENGTH + 1 + size;
        ring = Math.max(16, Math.min(1024, (1 << 20) / boxLength));
        sealed = PooledByteBufAllocator.DEFAULT.directBuffer(ring * boxLength);
        MessageBoxer sealer = new MessageBoxer(key, "CurveZMQMESSAGEC");
        for (int i = 0; i < ring; i++) {
            sealer.seal(i, 1, content, 0, size, sealed);
        }
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
        switch (impl) {
            case "new" -> boxer.seal(nonce++, 1, content, 0, size, out);
            case "round3" -> round3.seal(nonce++, 1, content, 0, size, out);
            default -> legacy.seal(nonce++, 1, content, 0, size, out);
        }
        return out.writerIndex();
    }

    @Benchmark
    public int open() {
        out.clear();
        int i = openNext;
        openNext = i + 1 == ring ? 0 : i + 1;
        sealed.readerIndex(i * boxLength);
        return switch (impl) {
            case "new" -> opener.open(i, sealed, boxLength, out);
            case "round3" -> round3.open(i, sealed, boxLength, out);
            default -> legacy.open(i, sealed, boxLength, out);
        };
    }

    /**
     * Thread CPU time per box, the implementations in turn ({@code -Dimpls}, default {@code round3,new}), seal and
     * open, for each size given (default 64, 1024, 65536): the median of 7 rounds of about 0.2 s each, after 3
     * untimed; and the bytes the thread allocated per box over the timed rounds.
     */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {64, 1024, 65536}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        String[] impls = System.getProperty("impls", "round3,new").split(",");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        for (int size : sizes) {
            SecretBoxBenchmark[] benches = new SecretBoxBenchmark[impls.length];
            for (int i = 0; i < impls.length; i++) {
                benches[i] = new SecretBoxBenchmark();
                benches[i].size = size;
                benches[i].impl = impls[i];
                benches[i].setUp();
            }
            int boxes = (int) Math.max(200, 100_000_000L / (size + 200));
            for (String op : new String[] {"seal", "open"}) {
                long[][] ns = new long[impls.length][7];
                long[] allocated = new long[impls.length];
                for (int round = -3; round < 7; round++) {
                    for (int i = 0; i < impls.length; i++) {
                        SecretBoxBenchmark b = benches[i];
                        long bytes = threads.getThreadAllocatedBytes(self);
                        long start = threads.getCurrentThreadCpuTime();
                        long sink = 0;
                        for (int n = 0; n < boxes; n++) {
                            sink += op.equals("seal") ? b.seal() : b.open();
                        }
                        long took = threads.getCurrentThreadCpuTime() - start;
                        if (round >= 0) {
                            ns[i][round] = took / boxes + (sink == 42 ? 1 : 0);
                            allocated[i] += threads.getThreadAllocatedBytes(self) - bytes;
                        }
                    }
                }
                StringBuilder line = new StringBuilder(String.format("%-4s %6d B:", op, size));
                for (int i = 0; i < impls.length; i++) {
                    Arrays.sort(ns[i]);
                    line.append(String.format(" %s %9d ns (%.1f B/box),", impls[i], ns[i][3],
                            (double) allocated[i] / (7L * boxes)));
                }
                line.append(String.format(" %s/%s %.2f", impls[impls.length - 1], impls[0],
                        (double) ns[impls.length - 1][3] / ns[0][3]));
                System.out.println(line);
            }
            for (SecretBoxBenchmark b : benches) {
                b.tearDown();
            }
        }
    }
}
