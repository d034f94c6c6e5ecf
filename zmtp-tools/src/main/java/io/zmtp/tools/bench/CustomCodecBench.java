package io.zmtp.tools.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpFrameSink;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageReader;
import io.zmtp.codec.ZmtpMessageWriter;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;

/**
 * The codec's custom encoder/decoder API at work, and what it saves: a codec-only DEALER pipeline keeps
 * {@code --inflight} requests outstanding against a pipeline that completes a ROUTER handshake and then just echoes
 * each message to the connection it came from (one peer, so there is nothing to route; for request/reply between real
 * DEALER and ROUTER sockets see {@code zmtp bench reqrep}). A request is an empty delimiter, a 16-byte header
 * (sequence number, send time) and {@code --frames} frames of {@code --size} bytes.
 *
 * <p>By default the client writes its own {@code Request} objects through a {@link ZmtpMessageWriter} and reads
 * {@code Reply} objects through a {@link ZmtpMessageReader}, never building a {@link ZmtpMessage} (the shape of
 * Spotify netty-zmtp's CustomReqRepBenchmark). {@code --zmtp-message} runs the same exchange with
 * {@link ZmtpMessage}s, to see the difference.
 */
@Command(name = "custom-codec", mixinStandardHelpOptions = true,
        description = {"The codec's custom encoder/decoder API (ZmtpMessageWriter/ZmtpMessageReader): a codec-only "
                + "DEALER client writes and reads its own objects against an echoing codec pipeline over "
                + "tcp://127.0.0.1, a line per second with the average latency.",
                "Codec only, no routing: request/reply between sockets is 'zmtp bench reqrep'."})
public final class CustomCodecBench implements Callable<Integer> {
    @Mixin
    BenchOptions options;

    @Option(names = "--inflight", defaultValue = "1000",
            description = "Requests outstanding at any time (default: ${DEFAULT-VALUE}).")
    int inflight;

    @Option(names = "--zmtp-message",
            description = "Client sends and receives ZmtpMessages instead of its own objects.")
    boolean zmtpMessage;

    @Option(names = "--same-request",
            description = "Client writes one request again and again (retained, or the same object with the custom "
                    + "codec) and reads no time from replies, as Spotify netty-zmtp's ReqRepBenchmark does: no "
                    + "allocation or clock read per request in the client; no latency is measured.")
    boolean sameRequest;

    @Option(names = "--batching", defaultValue = "on", arity = "1", description = "on: flush once per read batch; "
            + "off: flush every message (default: ${DEFAULT-VALUE}).")
    String batching;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            BenchOptions.batching(batching);
            if (inflight < 1) {
                throw new IllegalArgumentException("--inflight: " + inflight + " (expected: >= 1)");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench custom-codec: " + e.getMessage());
            return 2;
        }
        boolean customCodec = !zmtpMessage;
        CodecBootstrap t = new CodecBootstrap(options.context);
        boolean batching = BenchOptions.batching(this.batching);
        EventLoopGroup serverGroup = t.newGroup(options.context.ioThreads());
        ChannelGroup accepted = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        EventLoopGroup clientGroup = t.newGroup(options.context.ioThreads());
        LongAdder replies = new LongAdder();
        LongAdder latencyNanos = new LongAdder();
        ByteBuf payload = Payload.shared(options.size);
        try {
            Channel server = new ServerBootstrap().group(serverGroup).channel(t.serverChannel())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            accepted.add(ch);
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(ZmtpConfig.builder(ZmtpSocketType.ROUTER).build()));
                            ch.pipeline().addLast(new Echo(batching));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            ZmtpConfig.Builder clientConfig = ZmtpConfig.builder(ZmtpSocketType.DEALER);
            if (customCodec) {
                clientConfig.messageWriter(new RequestWriter(payload, options.frames))
                        .messageReader(ReplyReader::new);
            }
            ZmtpConfig config = clientConfig.build();
            Channel client = new Bootstrap().group(clientGroup).channel(t.socketChannel())
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(config));
                            ch.pipeline().addLast(new Client(payload, options.frames, inflight, batching,
                                    customCodec, sameRequest, replies, latencyNanos));
                        }
                    })
                    .connect(server.localAddress()).sync().channel();
            System.out.printf("zmtp bench custom-codec: DEALER -> echo over tcp %s, 16 B header + %d x %d B frames, "
                            + "%d in flight, %s, batching %s, %s%s, codec only, %d s%n", server.localAddress(),
                    options.frames, options.size, inflight, t.transportName(), batching ? "on" : "off",
                    customCodec ? "custom codec (application objects)" : "ZmtpMessage",
                    sameRequest ? ", the same request each time (no latency measured)" : "", options.durationSeconds);
            ProgressPrinter.printRequestRates(System.out, options.durationSeconds, replies, latencyNanos);
            client.close().sync();
            server.close().sync();
            return 0;
        } finally {
            CodecBootstrap.shutdown(accepted, clientGroup, serverGroup);
        }
    }

    /** The server: echoes every message to the connection it came from, which is all a ROUTER with one peer does. */
    private static final class Echo extends ChannelInboundHandlerAdapter {
        private final boolean batching;

        Echo(boolean batching) {
            this.batching = batching;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ZmtpMessage)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (batching) {
                ctx.write(msg, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(msg, ctx.voidPromise());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (batching) {
                ctx.flush();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Writes queued or a reset when the benchmark closes the connection are expected.
            if (!(cause instanceof java.io.IOException)) {
                ctx.fireExceptionCaught(cause);
            }
            ctx.close();
        }
    }

    /** An application request, written by {@link RequestWriter}. */
    static final class Request {
        final long sequence;
        final long sentNanos;

        Request(long sequence, long sentNanos) {
            this.sequence = sequence;
            this.sentNanos = sentNanos;
        }
    }

    /** An application reply, read by {@link ReplyReader}: the header only, payload frames skipped. */
    static final class Reply {
        final long sequence;
        final long sentNanos;

        Reply(long sequence, long sentNanos) {
            this.sequence = sequence;
            this.sentNanos = sentNanos;
        }
    }

    /** Writes a {@link Request} as delimiter, header and payload frames, straight into the output buffer. */
    static final class RequestWriter implements ZmtpMessageWriter<Request> {
        private final ByteBuf payload;
        private final int frames;

        RequestWriter(ByteBuf payload, int frames) {
            this.payload = payload;
            this.frames = frames;
        }

        @Override
        public Class<Request> messageType() {
            return Request.class;
        }

        @Override
        public void writeMessage(Request message, ZmtpFrameSink writer) {
            writer.beginFrame(0, true);
            writer.beginFrame(16, true).writeLong(message.sequence).writeLong(message.sentNanos);
            for (int i = 0; i < frames; i++) {
                writer.writeFrame(payload, i < frames - 1);
            }
        }

        @Override
        public int estimateSize(Request message) {
            return 2 + 18 + frames * (9 + payload.readableBytes());
        }
    }

    /** Reads replies frame by frame into {@link Reply} objects: no ZmtpMessage, no retained slices. */
    static final class ReplyReader implements ZmtpMessageReader {
        private int frame;
        private long sequence;
        private long sentNanos;

        @Override
        public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
            if (frame == 1 && length == 16) {
                sequence = in.readLong();
                sentNanos = in.readLong();
            } else {
                in.skipBytes(length);
            }
            frame++;
            if (!more) {
                out.add(new Reply(sequence, sentNanos));
                frame = 0;
            }
        }

        @Override
        public void discard() {
            frame = 0;
        }
    }

    /** Keeps {@code inflight} requests outstanding; each reply records its latency and sends the next request. */
    private static final class Client extends ChannelInboundHandlerAdapter {
        private final ByteBuf payload;
        private final int frames;
        private final int inflight;
        private final boolean batching;
        private final boolean customCodec;
        private final boolean sameRequest;
        private final LongAdder replies;
        private final LongAdder latencyNanos;
        private long sequence;
        /** With {@code --same-request}: what every send writes, a {@link Request} or a {@link ZmtpMessage}. */
        private Object request;

        Client(ByteBuf payload, int frames, int inflight, boolean batching, boolean customCodec, boolean sameRequest,
               LongAdder replies, LongAdder latencyNanos) {
            this.payload = payload;
            this.frames = frames;
            this.inflight = inflight;
            this.batching = batching;
            this.customCodec = customCodec;
            this.sameRequest = sameRequest;
            this.replies = replies;
            this.latencyNanos = latencyNanos;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                if (sameRequest) {
                    request = customCodec ? new Request(0, 0) : newMessage(ctx, 0);
                }
                for (int i = 0; i < inflight; i++) {
                    send(ctx);
                }
                ctx.flush();
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (sameRequest) {
                // Every reply is the same request echoed: nothing in it to read.
                ReferenceCountUtil.release(msg);
            } else {
                long sent;
                if (msg instanceof Reply) {
                    sent = ((Reply) msg).sentNanos;
                } else if (msg instanceof ZmtpMessage) {
                    ZmtpMessage m = (ZmtpMessage) msg;
                    ByteBuf header = m.frame(1);
                    sent = header.getLong(header.readerIndex() + 8);
                    m.release();
                } else {
                    ReferenceCountUtil.release(msg);
                    return;
                }
                latencyNanos.add(System.nanoTime() - sent);
            }
            replies.increment();
            send(ctx);
            if (!batching) {
                ctx.flush();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (batching) {
                ctx.flush();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Writes queued or a reset when the benchmark closes the connection are expected.
            if (!(cause instanceof java.io.IOException)) {
                ctx.fireExceptionCaught(cause);
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ReferenceCountUtil.release(request);
            request = null;
            ctx.fireChannelInactive();
        }

        private void send(ChannelHandlerContext ctx) {
            if (request != null) {
                ctx.write(request instanceof ZmtpMessage ? ((ZmtpMessage) request).retain() : request,
                        ctx.voidPromise());
                return;
            }
            long now = System.nanoTime();
            if (customCodec) {
                ctx.write(new Request(sequence++, now), ctx.voidPromise());
                return;
            }
            ctx.write(newMessage(ctx, now), ctx.voidPromise());
        }

        private ZmtpMessage newMessage(ChannelHandlerContext ctx, long now) {
            ByteBuf header = ctx.alloc().buffer(16).writeLong(sequence++).writeLong(now);
            ZmtpMessage m = ZmtpMessage.create().add(Unpooled.EMPTY_BUFFER).add(header);
            for (int i = 0; i < frames; i++) {
                m.add(payload.duplicate());
            }
            return m;
        }
    }
}
