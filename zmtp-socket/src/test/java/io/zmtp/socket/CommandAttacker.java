package io.zmtp.socket;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.mechanism.CurveMechanism;
import io.zmtp.codec.security.CurveKeyPair;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;

/**
 * The hostile peer of {@link HostileCommandsIT}: a connection made with our own codec (so that it speaks NULL and
 * CURVE alike) that, once its handshake is done, stops reading (autoRead off, no read() ever) and writes what it is
 * told to, as fast as its own outbound buffer lets it. Under NULL the attack's bytes are framed here and written past
 * the encoder, 64 KiB at a time, which is much faster than one object per command; under CURVE every frame has to be
 * sealed, so the commands go through the encoder, a batch per event-loop task.
 */
final class CommandAttacker implements AutoCloseable {
    /** Something the attacker writes: a command (name and body) or a message (frames). */
    sealed interface Item permits Cmd, Msg {
        /** Bytes on the wire under NULL: what the flood counts. */
        long wireSize();
    }

    record Cmd(String name, byte[] data) implements Item {
        @Override
        public long wireSize() {
            long body = 1 + name.length() + data.length;
            return (body <= 255 ? 2 : 9) + body;
        }
    }

    record Msg(byte[]... frames) implements Item {
        @Override
        public long wireSize() {
            long n = 0;
            for (byte[] f : frames) {
                n += (f.length <= 255 ? 2 : 9) + f.length;
            }
            return n;
        }
    }

    /** How a flood ended: the bytes written, and whether the victim closed the connection or stopped reading it. */
    record Flood(long bytes, boolean closed, boolean stalled) {
    }

    private static final int CHUNK = 64 * 1024;
    /** A victim that leaves us unwritable this long has stopped reading this connection: the flood ends there. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(3);

    final Channel channel;
    private final boolean curve;
    private final ReadGate gate;

    private CommandAttacker(Channel channel, boolean curve, ReadGate gate) {
        this.channel = channel;
        this.curve = curve;
        this.gate = gate;
    }

    /**
     * Connects to {@code endpoint} as a {@code type} peer (CURVE with {@code serverKey} unless it is null), completes
     * the handshake and stops reading.
     */
    static CommandAttacker connect(EventLoopGroup group, String endpoint, ZmtpSocketType type, String serverKey)
            throws InterruptedException {
        Channel ch = open(group, endpoint, config(type, serverKey), false);
        ch.config().setAutoRead(false);
        // autoRead off is not enough: the frame decoder asks for a read itself after a read that ended in the middle
        // of a frame. This gate, next to the transport, lets no read through until closedWithin opens it.
        ReadGate gate = new ReadGate();
        ch.eventLoop().submit(() -> ch.pipeline().addFirst(gate)).sync();
        return new CommandAttacker(ch, serverKey != null, gate);
    }

    /** Swallows every read request while closed, so that the connection is never read. */
    private static final class ReadGate extends ChannelOutboundHandlerAdapter {
        private volatile boolean open;

        @Override
        public void read(ChannelHandlerContext ctx) {
            if (open) {
                ctx.read();
            }
        }
    }

    static ZmtpConfig config(ZmtpSocketType type, String serverKey) {
        ZmtpConfig.Builder b = ZmtpConfig.builder(type).handshakeTimeoutMillis(10_000);
        if (serverKey != null) {
            b.mechanism(CurveMechanism.client(CurveKeyPair.generate(), serverKey));
        }
        return b.build();
    }

    /** A connection being made: its connect and its handshake. */
    private record Pending(ChannelFuture connect, ZmtpHandshakeHandler handshake) {
        /** The connection once its handshake completed. */
        Channel await() throws InterruptedException {
            Channel ch = connect.sync().channel();
            try {
                handshake.handshakeFuture().toCompletableFuture().get(scaledSeconds(15), TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                ch.close();
                throw new AssertionError("handshake with the victim failed: " + e, e);
            }
            return ch;
        }
    }

    private static Channel open(EventLoopGroup group, String endpoint, ZmtpConfig config, boolean reset)
            throws InterruptedException {
        return start(group, endpoint, config, reset).await();
    }

    /** Starts a connection; {@code reset}: close it later with a TCP reset (SO_LINGER 0). */
    private static Pending start(EventLoopGroup group, String endpoint, ZmtpConfig config, boolean reset) {
        boolean ipc = endpoint.startsWith("ipc://");
        SocketAddress address = ipc ? UnixDomainSocketAddress.of(endpoint.substring("ipc://".length()))
                : new InetSocketAddress("127.0.0.1", Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1)));
        ZmtpHandshakeHandler handshake = new ZmtpHandshakeHandler(config);
        Bootstrap b = new Bootstrap().group(group)
                .channel(ipc ? NioDomainSocketChannel.class : NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(handshake, new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ReferenceCountUtil.release(msg); // whatever arrived before autoRead went off
                            }
                        });
                    }
                });
        if (reset && !ipc) {
            b.option(ChannelOption.SO_LINGER, 0);
        }
        return new Pending(b.connect(address), handshake);
    }

    /**
     * Writes {@code item.apply(0)}, {@code item.apply(1)}, ... until {@code bytes} wire bytes are written, the victim
     * closes the connection, stops reading it for {@link #STALL_NANOS}, or {@code maxSeconds} pass.
     */
    Flood flood(LongFunction<Item> item, long bytes, int maxSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
        long written = 0;
        long i = 0;
        while (written < bytes && channel.isActive() && System.nanoTime() < deadline) {
            List<Item> batch = new ArrayList<>();
            long batchBytes = 0;
            do {
                Item it = item.apply(i++);
                batch.add(it);
                batchBytes += it.wireSize();
            } while (batchBytes < CHUNK && written + batchBytes < bytes);
            write(batch, batchBytes);
            written += batchBytes;
            long stalledSince = System.nanoTime();
            while (!channel.isWritable() && channel.isActive()) {
                if (System.nanoTime() - stalledSince > STALL_NANOS || System.nanoTime() > deadline) {
                    return new Flood(written, false, true);
                }
                Thread.sleep(1);
            }
        }
        return new Flood(written, !channel.isActive(), false);
    }

    /** Writes {@code items} once. */
    Flood send(Item... items) throws InterruptedException {
        long n = 0;
        for (Item it : items) {
            n += it.wireSize();
        }
        write(List.of(items), n);
        return new Flood(n, !channel.isActive(), false);
    }

    /** Writes a batch in one event-loop task and waits for it to be handed to the transport. */
    private void write(List<Item> batch, long bytes) throws InterruptedException {
        if (!channel.isActive()) {
            return;
        }
        channel.eventLoop().submit(() -> {
            if (curve) {
                for (Item it : batch) {
                    channel.write(toObject(it));
                }
                channel.flush();
            } else {
                ByteBuf out = Unpooled.buffer((int) Math.min(Integer.MAX_VALUE - 8, bytes));
                for (Item it : batch) {
                    frame(it, out);
                }
                // Past the encoder: the bytes are already frames.
                channel.pipeline().firstContext().writeAndFlush(out);
            }
        }).await(scaledSeconds(30), TimeUnit.SECONDS);
    }

    private static Object toObject(Item it) {
        if (it instanceof Cmd c) {
            return new ZmtpCommand(c.name(), Unpooled.wrappedBuffer(c.data()));
        }
        return ZmtpMessage.ofBytes(((Msg) it).frames());
    }

    /** ZMTP 3 framing (rfc 23): flags (04 command, 01 more, 02 long), size, body. */
    private static void frame(Item it, ByteBuf out) {
        if (it instanceof Cmd c) {
            int body = 1 + c.name().length() + c.data().length;
            header(out, 0x04, body);
            out.writeByte(c.name().length()).writeBytes(c.name().getBytes(StandardCharsets.US_ASCII))
                    .writeBytes(c.data());
        } else {
            byte[][] frames = ((Msg) it).frames();
            for (int f = 0; f < frames.length; f++) {
                header(out, f < frames.length - 1 ? 0x01 : 0x00, frames[f].length);
                out.writeBytes(frames[f]);
            }
        }
    }

    private static void header(ByteBuf out, int flags, int size) {
        if (size <= 255) {
            out.writeByte(flags).writeByte(size);
        } else {
            out.writeByte(flags | 0x02).writeLong(size);
        }
    }

    /**
     * Whether the victim closed this connection within {@code millis}. Reads from now on: a peer that never reads
     * never sees the end of the stream either.
     */
    boolean closedWithin(long millis) throws InterruptedException {
        gate.open = true;
        channel.config().setAutoRead(true);
        return channel.closeFuture().await(millis);
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().await(scaledSeconds(10), TimeUnit.SECONDS);
    }

    /**
     * Repeated connect/fail: {@code count} connections, {@code parallel} at a time, each completing its handshake and
     * then dropped (every other one with a reset over tcp), or sending ERROR first if {@code error}. Returns how many
     * the victim closed itself (within 10 s of the ERROR).
     */
    static int connectAndDrop(EventLoopGroup group, String endpoint, ZmtpSocketType type, String serverKey,
                               int count, int parallel, boolean error) throws InterruptedException {
        ZmtpConfig config = config(type, serverKey);
        int closedByVictim = 0;
        for (int done = 0; done < count; ) {
            List<Pending> pending = new ArrayList<>();
            for (int k = 0; k < parallel && done < count; k++, done++) {
                pending.add(start(group, endpoint, config, done % 2 == 0));
            }
            List<Channel> wave = new ArrayList<>();
            for (Pending p : pending) {
                wave.add(p.await());
            }
            for (Channel ch : wave) {
                if (error) {
                    ch.writeAndFlush(ZmtpCommand.error("hostile"));
                }
            }
            for (Channel ch : wave) {
                if (error) {
                    ch.config().setAutoRead(true); // to see the end of the stream
                    if (ch.closeFuture().await(scaledSeconds(10), TimeUnit.SECONDS)) {
                        closedByVictim++;
                    }
                }
                ch.close().await(scaledSeconds(10), TimeUnit.SECONDS);
            }
        }
        return closedByVictim;
    }
}
