package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanismFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs one fuzz input through the real codec handlers in an {@link EmbeddedChannel} and checks what must hold for
 * any input a peer can send:
 * <ul>
 *   <li>nothing reaches the end of the pipeline as an exception, and a connection the codec closes says why with an
 *       event whose cause (and its causes) is a {@link ZmtpCodecException} or a
 *       {@link ZmtpMessageTooLargeException}: the codec's declared failures. Any
 *       other exception, thrown or wrapped, is a finding;</li>
 *   <li>at most one handshake outcome, and after a success the installed handlers are there;</li>
 *   <li>no buffer leaks: every buffer the run allocated (the input, the cumulation, what the codec writes) is
 *       counted by the run's own allocator, which must be back to zero bytes once the channel is closed. This is
 *       exact for every input, where Netty's leak detector (at PARANOID in every test JVM as well) samples
 *       garbage-collected buffers;</li>
 *   <li>bounded memory: after each read, the bytes the codec still holds stay within the documented bound for the
 *       configured {@code maxMessageSize} (see {@link ZmtpFrameDecoder}), plus the read being processed; and the
 *       frames held for one message, which cost objects rather than buffer bytes (empty frames share one empty
 *       buffer), stay within {@code maxMessageSize / FRAME_OVERHEAD} (counted by the message reader, the default one
 *       wrapped).</li>
 * </ul>
 *
 * <p>Input layout: byte 0 selects the configuration (each target reads it its own way); byte 1 picks
 * {@code maxMessageSize} (bits 6-7: 64, 200, 1024 or 4096 bytes, small so that a hostile size is reachable by an input
 * of a few KiB) and how the stream is cut into reads (bits 0-5: 0 for one read, n for reads of 1 to n bytes from a
 * generator seeded by the input); the rest is what the peer sends. The targets are {@link NullHandshakeFuzzTest},
 * {@link PlainHandshakeFuzzTest}, {@link CurveHandshakeFuzzTest} and {@link FrameFuzzTest}; a new mechanism gets its
 * handshake target by calling {@link #handshake(byte[], ZmtpMechanismFactory...)} with its factories.
 */
final class CodecFuzzing {
    private static final long[] MAX_MESSAGE_SIZES = {64, 200, 1024, 4096};
    private static final ZmtpSocketType[] TYPES = ZmtpSocketType.values();
    /** Whatever the codec does per read beyond the message limit: a frame header, a short command. */
    private static final int SLACK = 1024;

    private CodecFuzzing() {
    }

    /**
     * The handshake from its first byte, with the configuration from byte 0: bits 0-1 the versions accepted (all,
     * 3.x only, 2.0 only, 1.0 only) for the NULL mechanism, or which of {@code roles} we play (client or server) for
     * another mechanism, which needs 3.x; bits 2-5 our socket type, bit 6 an identity, bit 7 heartbeats. Whatever the
     * peer sends, including a whole handshake and frames after it.
     */
    static void handshake(byte[] data, ZmtpMechanismFactory... roles) {
        if (data.length < 2) {
            return;
        }
        int selector = data[0] & 0xFF;
        ZmtpMechanismFactory mechanism = roles[(selector & 0x03) % roles.length];
        ZmtpConfig.Builder config = ZmtpConfig.builder(TYPES[((selector >> 2) & 0x0F) % TYPES.length])
                .mechanism(mechanism);
        boolean nullMechanism = NullMechanism.NAME.equals(mechanism.name());
        switch (nullMechanism ? selector & 0x03 : 1) {
            case 1:
                config.onlyVersion(ZmtpVersion.ZMTP_31);
                break;
            case 2:
                config.onlyVersion(ZmtpVersion.ZMTP_20);
                break;
            case 3:
                config.onlyVersion(ZmtpVersion.ZMTP_10);
                break;
            default:
                config.acceptedVersions(EnumSet.allOf(ZmtpVersion.class));
                break;
        }
        if ((selector & 0x40) != 0) {
            config.identity(new byte[] {'i', 'd'});
        }
        if ((selector & 0x80) != 0) {
            config.heartbeatIntervalMillis(100).heartbeatTimeoutMillis(300).heartbeatTtlMillis(1000);
        }
        run(config, new byte[0], data);
    }

    /**
     * Frames after a completed handshake. The caller has picked the version and the matching handshake bytes;
     * byte 0 turns heartbeats on (bit 0).
     */
    static void frames(ZmtpConfig.Builder config, byte[] handshake, byte[] data) {
        if (data.length < 2) {
            return;
        }
        if ((data[0] & 0x01) != 0) {
            config.heartbeatIntervalMillis(100).heartbeatTimeoutMillis(300).heartbeatTtlMillis(1000);
        }
        run(config, handshake, data);
    }

    private static void run(ZmtpConfig.Builder builder, byte[] handshake, byte[] data) {
        long maxMessageSize = MAX_MESSAGE_SIZES[(data[1] & 0xFF) >> 6];
        ZmtpConfig config = builder.maxMessageSize(maxMessageSize)
                .messageReader(() -> new FrameCountingReader(maxMessageSize / ZmtpConstants.FRAME_OVERHEAD + 1))
                .build();
        // Heap buffers from an allocator of our own, so that its counter sees exactly this run's buffers.
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel = new EmbeddedChannel();
        Sink sink = new Sink();
        try {
            channel.config().setAllocator(alloc);
            channel.freezeTime();
            channel.pipeline().addLast("zmtp", new ZmtpHandshakeHandler(config));
            channel.pipeline().addLast("sink", sink);
            drainOutbound(channel);
            if (handshake.length > 0) {
                read(channel, alloc, handshake);
                drainOutbound(channel);
                if (sink.successes != 1) {
                    throw new AssertionError("the handshake prefix did not complete: " + sink.events);
                }
            }
            byte[] stream = Arrays.copyOfRange(data, 2, data.length);
            int largestRead = 0;
            for (byte[] chunk : chunks(stream, data[1] & 0x3F, Arrays.hashCode(data))) {
                if (!channel.isOpen()) {
                    break;
                }
                read(channel, alloc, chunk);
                drainOutbound(channel);
                sink.check(channel);
                largestRead = Math.max(largestRead, chunk.length);
                long held = alloc.metric().usedHeapMemory();
                long bound = boundFor(config, channel, largestRead);
                if (held > bound) {
                    throw new AssertionError("codec holds " + held + " bytes after a read (expected: <= " + bound
                            + " for maxMessageSize " + config.maxMessageSize() + "); events: " + sink.events);
                }
            }
            // Let timers fire: the handshake timeout, heartbeats and their expiry.
            for (int i = 0; i < 4 && channel.isOpen(); i++) {
                channel.advanceTimeBy(Math.max(config.handshakeTimeoutMillis(), 1000), TimeUnit.MILLISECONDS);
                channel.runPendingTasks();
                drainOutbound(channel);
                sink.check(channel);
            }
        } finally {
            channel.close();
            channel.finishAndReleaseAll();
        }
        sink.check(channel);
        if (alloc.metric().usedHeapMemory() != 0) {
            throw new AssertionError(alloc.metric().usedHeapMemory() + " bytes not released after the channel closed"
                    + " (a buffer leak); events: " + sink.events);
        }
    }

    /**
     * What the codec may hold after a read: one incomplete message within {@code maxMessageSize} (its frames may pin
     * the reads they came from, and the cumulation may round up its copy: at worst about twice), the read being
     * processed, and while the handshake runs a handshake command within its own limit.
     */
    private static long boundFor(ZmtpConfig config, EmbeddedChannel channel, int largestRead) {
        long bound = 2 * (config.maxMessageSize() + ZmtpConstants.FRAME_OVERHEAD) + 4L * largestRead + SLACK;
        if (channel.pipeline().get(ZmtpHandshakeHandler.class) != null) {
            bound += 2L * (ZmtpConstants.MAX_HANDSHAKE_COMMAND_SIZE + ZmtpConstants.GREETING_LENGTH);
        }
        return bound;
    }

    private static void read(EmbeddedChannel channel, UnpooledByteBufAllocator alloc, byte[] chunk) {
        ByteBuf buf = alloc.heapBuffer(chunk.length, chunk.length).writeBytes(chunk);
        channel.writeInbound(buf);
    }

    private static void drainOutbound(EmbeddedChannel channel) {
        for (Object o; (o = channel.readOutbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
    }

    static List<byte[]> chunks(byte[] stream, int maxChunk, long seed) {
        List<byte[]> chunks = new ArrayList<>();
        if (maxChunk == 0) {
            if (stream.length > 0) {
                chunks.add(stream);
            }
            return chunks;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < stream.length; ) {
            int n = Math.min(stream.length - i, 1 + random.nextInt(maxChunk));
            chunks.add(Arrays.copyOfRange(stream, i, i + n));
            i += n;
        }
        return chunks;
    }

    /** The default reader, counting the frames it holds for the message being read. */
    private static final class FrameCountingReader implements ZmtpMessageReader {
        private final ZmtpMessageReader reader = new DefaultZmtpMessageReader();
        private final long limit;
        private long held;

        FrameCountingReader(long limit) {
            this.limit = limit;
        }

        @Override
        public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
            reader.readFrame(ctx, in, length, more, out);
            held = more ? held + 1 : 0;
            if (held > limit) {
                throw new AssertionError(held + " frames held for one message (expected: <= " + limit
                        + ", maxMessageSize / FRAME_OVERHEAD)");
            }
        }

        @Override
        public void discard() {
            reader.discard();
            held = 0;
        }
    }

    /** The application: releases what it is given and records events and exceptions. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        final List<Object> events = new ArrayList<>();
        int successes;
        int failures;
        Throwable exception;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ZmtpMessage) && !(msg instanceof ZmtpCommand)) {
                exception = new AssertionError("unexpected object read: " + msg);
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                successes++;
                for (String name : List.of(ZmtpHandshakeHandler.ENCODER_NAME, ZmtpHandshakeHandler.DECODER_NAME,
                        ZmtpHandshakeHandler.HEARTBEAT_NAME)) {
                    if (ctx.pipeline().get(name) == null) {
                        exception = new AssertionError("handshake succeeded without " + name + " installed");
                    }
                }
            } else if (evt instanceof ZmtpHandshakeFailureEvent) {
                failures++;
                checkDeclared(((ZmtpHandshakeFailureEvent) evt).cause());
            } else if (evt instanceof ZmtpProtocolErrorEvent) {
                checkDeclared(((ZmtpProtocolErrorEvent) evt).cause());
            }
        }

        private void checkDeclared(Throwable cause) {
            for (Throwable t = cause; t != null; t = t.getCause()) {
                if (!(t instanceof ZmtpCodecException) && !(t instanceof ZmtpMessageTooLargeException)) {
                    exception = new AssertionError("the codec closed the connection on an undeclared exception", t);
                    return;
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exception = new AssertionError("an exception reached the end of the pipeline", cause);
        }

        void check(EmbeddedChannel channel) {
            channel.checkException();
            if (exception != null) {
                throw new AssertionError(exception.getMessage() + "; events: " + events, exception.getCause());
            }
            if (successes + failures > 1) {
                throw new AssertionError("more than one handshake outcome: " + events);
            }
        }
    }
}
