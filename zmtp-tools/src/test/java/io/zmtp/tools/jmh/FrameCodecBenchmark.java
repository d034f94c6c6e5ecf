package io.zmtp.tools.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.DefaultZmtpMessageReader;
import io.zmtp.codec.ZmtpFrameDecoder;
import io.zmtp.codec.ZmtpFrameEncoder;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageReader;
import io.zmtp.codec.ZmtpVersion;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Encoding and decoding of one message of {@code frames} frames of {@code size} bytes, through {@link ZmtpFrameEncoder}
 * and {@link ZmtpFrameDecoder} in an {@link EmbeddedChannel} with the pooled allocator. Run with {@code -prof gc} to
 * see {@code gc.alloc.rate.norm} (bytes allocated per operation). See docs/PERFORMANCE.md for the command.
 *
 * <ul>
 *   <li>{@code encode}: one reused message (retained each time, so the message itself isn't counted) is framed
 *       into a pooled buffer and taken off the channel.</li>
 *   <li>{@code decode}: the encoded bytes are read back into a {@link ZmtpMessage} of retained slices
 *       ({@link DefaultZmtpMessageReader}), which is released.</li>
 *   <li>{@code decodeSkipping}: the same bytes through a {@link ZmtpMessageReader} that consumes frames without
 *       building anything: the framing cost alone.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class FrameCodecBenchmark {
    @Param({"1", "100", "1024", "65536"})
    int size;

    @Param({"1", "3"})
    int frames;

    private EmbeddedChannel encoder;
    private EmbeddedChannel decoder;
    private EmbeddedChannel skipper;
    private ZmtpMessage message;
    private ByteBuf wire;

    @Setup(Level.Trial)
    public void setUp() {
        ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        encoder = new EmbeddedChannel(new ZmtpFrameEncoder(ZmtpVersion.ZMTP_31, null));
        encoder.config().setAllocator(alloc);
        decoder = new EmbeddedChannel(new ZmtpFrameDecoder(ZmtpVersion.ZMTP_31, Integer.MAX_VALUE - 16,
                new DefaultZmtpMessageReader()));
        decoder.config().setAllocator(alloc);
        skipper = new EmbeddedChannel(new ZmtpFrameDecoder(ZmtpVersion.ZMTP_31, Integer.MAX_VALUE - 16,
                new SkippingDecoder()));
        skipper.config().setAllocator(alloc);
        ByteBuf payload = Unpooled.directBuffer(size).writeZero(size);
        message = ZmtpMessage.create();
        for (int i = 0; i < frames; i++) {
            message.add(payload.retainedDuplicate());
        }
        payload.release();
        encoder.writeOutbound(message.retain());
        ByteBuf encoded = encoder.readOutbound();
        wire = Unpooled.directBuffer(encoded.readableBytes()).writeBytes(encoded);
        encoded.release();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        message.release();
        wire.release();
        encoder.finishAndReleaseAll();
        decoder.finishAndReleaseAll();
        skipper.finishAndReleaseAll();
    }

    @Benchmark
    public int encode() {
        encoder.write(message.retain(), encoder.voidPromise());
        encoder.flush();
        ByteBuf out = encoder.readOutbound();
        int n = out.readableBytes();
        out.release();
        return n;
    }

    @Benchmark
    public int decode() {
        decoder.pipeline().fireChannelRead(wire.retainedDuplicate());
        ZmtpMessage m = decoder.readInbound();
        int n = m.size();
        m.release();
        return n;
    }

    @Benchmark
    public int decodeSkipping() {
        skipper.pipeline().fireChannelRead(wire.retainedDuplicate());
        Object o = skipper.readInbound();
        ReferenceCountUtil.release(o);
        return o == null ? 0 : 1;
    }

    /** Consumes frames and emits one shared marker per message: no allocation of its own. */
    static final class SkippingDecoder implements ZmtpMessageReader {
        private static final Object DONE = new Object();

        @Override
        public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
            in.skipBytes(length);
            if (!more) {
                out.add(DONE);
            }
        }

        @Override
        public void discard() {
        }
    }
}
