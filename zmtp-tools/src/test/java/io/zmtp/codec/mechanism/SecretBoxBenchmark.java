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

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One CURVE MESSAGE box sealed, and one opened, of {@code size} bytes of frame, between pooled direct buffers as the
 * codec has them: {@code impl=new} is {@link MessageBoxer} (our Poly1305 and one pass over the buffers),
 * {@code impl=bc} the code before it ({@link LegacyMessageBoxer}: Bouncy Castle's Poly1305, a scratch copy, a pass
 * each for the cipher and the MAC). In this package (on the class path) to reach the package-private classes. See
 * docs/PERFORMANCE.md, "CURVE, round 3". {@code bench/jmh.sh SecretBoxBenchmark}
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
}
