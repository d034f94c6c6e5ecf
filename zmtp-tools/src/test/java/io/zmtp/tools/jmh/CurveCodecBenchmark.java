package io.zmtp.tools.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.security.CurveKeyPair;
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

import java.util.concurrent.TimeUnit;

/**
 * One single-frame message of {@code size} bytes through a whole connection's codec, NULL or CURVE, in
 * {@link EmbeddedChannel}s with the pooled allocator, after a real handshake between the two:
 * <ul>
 *   <li>{@code send}: written and flushed by the client (framed, and sealed under CURVE), the wire bytes taken off
 *       and released;</li>
 *   <li>{@code sendAndReceive}: the same bytes fed to the server (opened under CURVE, then decoded) and the message it
 *       reads released.</li>
 * </ul>
 * The difference between NULL and CURVE is what encryption costs per message; {@code -prof gc} shows what it
 * allocates ({@code gc.alloc.rate.norm}). See docs/PERFORMANCE.md, "CURVE".
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dio.netty.leakDetection.level=disabled"})
public class CurveCodecBenchmark {
    @Param({"64", "1024"})
    int size;

    @Param({"NULL", "CURVE"})
    String mechanism;

    private EmbeddedChannel client;
    private EmbeddedChannel server;
    private ZmtpMessage message;

    @Setup(Level.Trial)
    public void setUp() {
        ZmtpConfig.Builder serverConfig = ZmtpConfig.builder(ZmtpSocketType.PULL);
        ZmtpConfig.Builder clientConfig = ZmtpConfig.builder(ZmtpSocketType.PUSH);
        if (mechanism.equals("CURVE")) {
            CurveKeyPair serverKeys = CurveKeyPair.generate();
            serverConfig.mechanism(CurveMechanism.server(serverKeys));
            clientConfig.mechanism(CurveMechanism.client(CurveKeyPair.generate(), serverKeys.publicKey()));
        }
        server = new EmbeddedChannel();
        server.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        server.pipeline().addLast(new ZmtpHandshakeHandler(serverConfig.build()));
        client = new EmbeddedChannel();
        client.config().setAllocator(PooledByteBufAllocator.DEFAULT);
        client.pipeline().addLast(new ZmtpHandshakeHandler(clientConfig.build()));
        for (int i = 0; i < 10; i++) {
            shuttle(client, server);
            shuttle(server, client);
        }
        for (Object o; (o = server.readInbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        ByteBuf payload = Unpooled.directBuffer(size).writeZero(size);
        message = ZmtpMessage.wrap(payload);
    }

    private static void shuttle(EmbeddedChannel from, EmbeddedChannel to) {
        for (Object o; (o = from.readOutbound()) != null; ) {
            to.writeInbound(o);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        message.release();
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Benchmark
    public void send() {
        client.writeAndFlush(message.retain());
        for (Object o; (o = client.readOutbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
    }

    @Benchmark
    public Object sendAndReceive() {
        client.writeAndFlush(message.retain());
        shuttle(client, server);
        Object received = server.readInbound();
        ReferenceCountUtil.release(received);
        return received;
    }
}
