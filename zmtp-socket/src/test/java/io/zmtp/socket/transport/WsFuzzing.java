package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpConstants;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageTooLargeException;
import io.zmtp.codec.ZmtpProtocolErrorEvent;
import io.zmtp.codec.ZmtpSocketType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one fuzz input through a ws:// connection's whole chain, Netty's HTTP and WebSocket handlers, {@link WsHandler}
 * and the ZMTP codec behind it, in an {@link EmbeddedChannel} after a good upgrade, and checks what must hold for
 * anything a peer can send (as zmtp-codec's {@code CodecFuzzing} does for tcp):
 * <ul>
 *   <li>no exception reaches the end of the pipeline, and a connection closed for a protocol error says why with
 *       an event whose cause is one of the codec's declared exceptions;</li>
 *   <li>no buffer leaks: the run's own allocator counts every buffer it made, and is back to zero once the
 *       channel is closed;</li>
 *   <li>bounded memory: after each read the buffers held stay within what the size limit allows
 *       ({@link WsFrameDecoder} refuses a declared length over {@code maxMessageSize} plus the ws slack before it
 *       reads it, the codec's decoder checks the exact size), plus the read being processed and the upgrade's HTTP
 *       limits.</li>
 * </ul>
 *
 * <p>Input layout: byte 0 picks the side and the configuration: bit 0 we are the server (the peer's frames must
 * be masked) or the client (they must not); bits 1-2 our socket type and the peer's (DEALER/ROUTER, SUB/PUB,
 * PUB/SUB, REQ/REP); bit 3 a good READY from the peer first, so the rest meets the codec after its handshake;
 * bit 4 heartbeats. Byte 1 as in CodecFuzzing: {@code maxMessageSize} (bits 6-7: 64, 200, 1024, 4096) and how the
 * stream is cut into reads (bits 0-5). The rest is a list of WebSocket frames, built by {@link #frames}, so that
 * fragmented, oversized, text, control and reserved frames are a byte away, not a checksum away.
 */
final class WsFuzzing {
    private static final long[] MAX_MESSAGE_SIZES = {64, 200, 1024, 4096};
    private static final ZmtpSocketType[][] TYPES = {
        {ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER}, {ZmtpSocketType.SUB, ZmtpSocketType.PUB},
        {ZmtpSocketType.PUB, ZmtpSocketType.SUB}, {ZmtpSocketType.REQ, ZmtpSocketType.REP}};
    /**
     * Opcodes by bits 0-2 of a frame's first byte: continuation, text, binary (twice: the second with its payload
     * {@link #LONG_REPEAT} times over), close, ping, pong, reserved.
     */
    private static final int[] OPCODES = {0x0, 0x1, 0x2, 0x2, 0x8, 0x9, 0xA, 0x3};
    /** The opcode index whose payload is repeated, to reach bodies the length byte can't: 256 B to 4 KiB. */
    private static final int LONG_BINARY = 3;
    private static final int LONG_REPEAT = 16;
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final Pattern KEY = Pattern.compile("(?i)sec-websocket-key: *([^\\r\\n]+)");
    /** The upgrade's HTTP limits (HttpObjectAggregator's 16 KiB, twice while it copies) and a margin. */
    private static final int SLACK = 2 * 16 * 1024 + 4096;

    private WsFuzzing() {
    }

    /** What a run saw, for the tests that check the harness reaches what it means to fuzz. */
    record Outcome(int handshakes, int messages, List<Object> events) {
    }

    static Outcome run(byte[] data) {
        if (data.length < 2) {
            return new Outcome(0, 0, List.of());
        }
        int selector = data[0] & 0xFF;
        boolean server = (selector & 0x01) != 0;
        ZmtpSocketType[] types = TYPES[(selector >> 1) & 0x03];
        long maxMessageSize = MAX_MESSAGE_SIZES[(data[1] & 0xFF) >> 6];
        ZmtpConfig.Builder builder = ZmtpConfig.builder(types[0]).maxMessageSize(maxMessageSize);
        if ((selector & 0x10) != 0) {
            builder.heartbeatIntervalMillis(100).heartbeatTimeoutMillis(300).heartbeatTtlMillis(1000);
        }
        ZmtpConfig config = builder.build();
        ByteArrayOutputStream peer = new ByteArrayOutputStream();
        if ((selector & 0x08) != 0) {
            writeFrame(peer, 0x82, server, ready(types[1]));
        }
        byte[] framed = frames(Arrays.copyOfRange(data, 2, data.length), server);
        peer.writeBytes(framed);

        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel parent = new EmbeddedChannel();
        // A server's channel has a parent (WsHandler tells the sides apart so); registered once set up.
        EmbeddedChannel channel = new EmbeddedChannel(server ? parent : null, DefaultChannelId.newInstance(), false,
                false);
        Sink sink = new Sink();
        try {
            channel.config().setAllocator(alloc);
            channel.attr(WsTransport.ADDRESS).set(WsTransport.parse("127.0.0.1:5555/zmq"));
            channel.pipeline().addLast("zmtp-ws", new WsHandler(config));
            channel.pipeline().addLast("sink", sink);
            register(channel);
            // Frozen once registered (it needs the event loop): the timers then move only with advanceTimeBy.
            channel.freezeTime();
            channel.runPendingTasks();
            String upgrade = server ? upgradeRequest() : upgradeResponse(drainOutbound(channel));
            read(channel, alloc, upgrade.getBytes(StandardCharsets.US_ASCII));
            drainOutbound(channel);
            sink.check(channel);
            byte[] stream = peer.toByteArray();
            int largestRead = 0;
            for (byte[] chunk : chunks(stream, data[1] & 0x3F, Arrays.hashCode(data))) {
                if (!channel.isOpen()) {
                    break;
                }
                read(channel, alloc, chunk);
                drainOutbound(channel);
                sink.check(channel);
                largestRead = Math.max(largestRead, chunk.length);
                long held = alloc.metric().usedHeapMemory() + alloc.metric().usedDirectMemory();
                long bound = 2 * (maxMessageSize + 64 + 14 + ZmtpConstants.FRAME_OVERHEAD) + 4L * largestRead
                        + SLACK;
                if (held > bound) {
                    throw new AssertionError("ws chain holds " + held + " bytes after a read (expected: <= " + bound
                            + " for maxMessageSize " + maxMessageSize + "); events: " + sink.events);
                }
            }
            for (int i = 0; i < 4 && channel.isOpen(); i++) {
                channel.advanceTimeBy(Math.max(config.handshakeTimeoutMillis(), 1000), TimeUnit.MILLISECONDS);
                channel.runPendingTasks();
                drainOutbound(channel);
                sink.check(channel);
            }
        } finally {
            channel.close();
            channel.finishAndReleaseAll();
            parent.finishAndReleaseAll();
        }
        sink.check(channel);
        long left = alloc.metric().usedHeapMemory() + alloc.metric().usedDirectMemory();
        if (left != 0) {
            throw new AssertionError(left + " bytes not released after the channel closed (a buffer leak); events: "
                    + sink.events);
        }
        return new Outcome(sink.successes, sink.messages, sink.events);
    }

    /**
     * The peer's frames from the fuzz bytes, each from a header byte and a length byte: header bits 0-2 the opcode
     * ({@link #OPCODES}), bit 3 clears FIN (a fragment), bit 4 sets RSV1 (no extension was agreed: refused), bit 5
     * flips the mask bit from what the side must send, bits 6-7 the length's encoding: 7-bit if it fits, 16-bit,
     * 64-bit, or a declared 64-bit length taken from the next 8 bytes with only what the input has left behind it
     * (a huge declared frame). The length byte is the payload's size, taken from what follows; for the second binary
     * opcode those bytes are sent {@link #LONG_REPEAT} times over (bodies past a short ZMTP frame and past the size
     * from which {@code WsFrameDecoder} hands a message on in place, with few input bytes).
     */
    static byte[] frames(byte[] ops, boolean peerIsClient) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i + 1 < ops.length) {
            int header = ops[i++] & 0xFF;
            int length = ops[i++] & 0xFF;
            int first = ((header & 0x08) == 0 ? 0x80 : 0) | ((header & 0x10) != 0 ? 0x40 : 0)
                    | OPCODES[header & 0x07];
            boolean mask = peerIsClient ^ ((header & 0x20) != 0);
            int encoding = header >> 6;
            int repeat = (header & 0x07) == LONG_BINARY ? LONG_REPEAT : 1;
            out.write(first);
            int maskBit = mask ? 0x80 : 0;
            if (encoding == 3) {
                out.write(maskBit | 127);
                for (int b = 0; b < 8; b++) {
                    out.write(i < ops.length ? ops[i++] : 0x7F);
                }
                length = Math.min(length, ops.length - i);
                repeat = 1;
            } else {
                length = Math.min(length, ops.length - i) * repeat;
                if (encoding == 0 && length <= 125) {
                    out.write(maskBit | length);
                } else if (encoding <= 1) {
                    out.write(maskBit | 126);
                    out.write(length >> 8);
                    out.write(length);
                } else {
                    out.write(maskBit | 127);
                    out.writeBytes(new byte[] {0, 0, 0, 0, 0, 0, (byte) (length >> 8), (byte) length});
                }
            }
            byte[] payload = new byte[length];
            for (int r = 0, from = length / repeat; r < repeat; r++) {
                System.arraycopy(ops, i, payload, r * from, from);
            }
            i += length / repeat;
            if (mask) {
                // A fixed key: the masking is checked, not its randomness.
                byte[] key = {0x12, 0x34, 0x56, 0x78};
                out.writeBytes(key);
                for (int p = 0; p < payload.length; p++) {
                    payload[p] ^= key[p & 3];
                }
            }
            out.writeBytes(payload);
        }
        return out.toByteArray();
    }

    /** A final frame with this first byte, masked if the peer is a client. */
    static void writeFrame(ByteArrayOutputStream out, int first, boolean peerIsClient, byte[] payload) {
        out.write(first);
        int maskBit = peerIsClient ? 0x80 : 0;
        if (payload.length <= 125) {
            out.write(maskBit | payload.length);
        } else {
            out.write(maskBit | 126);
            out.write(payload.length >> 8);
            out.write(payload.length);
        }
        if (peerIsClient) {
            out.writeBytes(new byte[4]);
        }
        out.writeBytes(payload);
    }

    /** A ZWS READY: the command flag, then the command with the peer's Socket-Type. */
    static byte[] ready(ZmtpSocketType peerType) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x02);
        b.write(5);
        b.writeBytes("READY".getBytes(StandardCharsets.US_ASCII));
        byte[] name = "Socket-Type".getBytes(StandardCharsets.US_ASCII);
        byte[] value = peerType.name().getBytes(StandardCharsets.US_ASCII);
        b.write(name.length);
        b.writeBytes(name);
        b.writeBytes(new byte[] {0, 0, 0, (byte) value.length});
        b.writeBytes(value);
        return b.toByteArray();
    }

    static String upgradeRequest() {
        return "GET /zmq HTTP/1.1\r\nHost: 127.0.0.1:5555\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: ZWS2.0/NULL\r\n\r\n";
    }

    /** The 101 a server gives to the upgrade request our client wrote. */
    static String upgradeResponse(String request) {
        Matcher m = KEY.matcher(request);
        if (!m.find()) {
            throw new AssertionError("no Sec-WebSocket-Key in the client's request: " + request);
        }
        String accept;
        try {
            accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                    .digest((m.group(1).trim() + GUID).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + accept + "\r\nSec-WebSocket-Protocol: ZWS2.0/NULL\r\n\r\n";
    }

    private static void register(EmbeddedChannel channel) {
        try {
            channel.register();
        } catch (Exception e) {
            throw new AssertionError("registering the embedded channel", e);
        }
    }

    private static void read(EmbeddedChannel channel, UnpooledByteBufAllocator alloc, byte[] chunk) {
        ByteBuf buf = alloc.heapBuffer(chunk.length, chunk.length).writeBytes(chunk);
        channel.writeInbound(buf);
        channel.runPendingTasks();
    }

    /** Releases what the chain wrote; returns it as text (the client's upgrade request). */
    private static String drainOutbound(EmbeddedChannel channel) {
        StringBuilder text = new StringBuilder();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            if (o instanceof ByteBuf) {
                text.append(((ByteBuf) o).toString(StandardCharsets.ISO_8859_1));
            }
            ReferenceCountUtil.release(o);
        }
        return text.toString();
    }

    private static List<byte[]> chunks(byte[] stream, int maxChunk, long seed) {
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

    /** The application: releases what it is given, records events, and fails on an undeclared failure. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        final List<Object> events = new ArrayList<>();
        int successes;
        int failures;
        int messages;
        Throwable exception;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZmtpMessage) {
                messages++;
            } else if (!(msg instanceof ZmtpCommand)) {
                exception = new AssertionError("unexpected object read: " + msg);
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                successes++;
            } else if (evt instanceof ZmtpHandshakeFailureEvent) {
                failures++;
            } else if (evt instanceof ZmtpProtocolErrorEvent) {
                Throwable cause = ((ZmtpProtocolErrorEvent) evt).cause();
                // The codec's declared failures; WsHandler wraps the WebSocket frame decoder's errors in one.
                if (!(cause instanceof ZmtpCodecException) && !(cause instanceof ZmtpMessageTooLargeException)) {
                    exception = new AssertionError("closed on an undeclared exception", cause);
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
