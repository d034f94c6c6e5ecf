package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.List;

/**
 * Reads frames after the handshake: message frames go to a {@link ZmtpMessageReader}, commands come out as
 * {@link ZmtpCommand}s (PING/PONG for {@link ZmtpHeartbeatHandler}, SUBSCRIBE/CANCEL for publishers). Sizes are
 * checked against the maximum message size before a frame is waited for, so a hostile size field never makes us
 * buffer it. A protocol violation closes the connection with a logged reason and a {@link ZmtpProtocolErrorEvent}.
 *
 * <h2>What one connection can make us hold</h2>
 * The decoder holds at most one incomplete message. Each frame of it that is held waiting for the rest counts its
 * body plus {@link ZmtpConstants#FRAME_OVERHEAD} (64) bytes toward {@code maxMessageSize}, and the next frame's size
 * is checked against what is left before its body is awaited, so the held frames, the per-frame objects that keep
 * them, and the frame being received together stay within {@code maxMessageSize}; a run of empty MORE frames is
 * closed after {@code maxMessageSize / 64} of them. On top of that: one frame header (9 bytes) and the current
 * socket read (at most one read buffer, 64 KiB with Netty's default adaptive allocator). Frames are slices of the
 * read buffers, so a read buffer stays alive while a frame in it does: a peer that sends one tiny frame per TCP
 * segment can make each held frame pin a small read buffer (64 bytes at the adaptive allocator's smallest), which at
 * worst about doubles the figure. Empty frames pin nothing. So the bound per connection is about
 * {@code maxMessageSize + 64 KiB}, and {@code 2 * maxMessageSize + 64 KiB} against a peer crafting reads.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Framing"</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
public final class ZmtpFrameDecoder extends ByteToMessageDecoder {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpFrameDecoder.class);
    /** A broken peer that reconnects and fails again would otherwise log a WARN per connection. */
    static final WarnLimiter WARNINGS = new WarnLimiter();

    private final ZmtpVersion version;
    private final long maxMessageSize;
    private final ZmtpMessageReader messageReader;
    private final FrameHeader header = new FrameHeader();

    /** Bytes of the message being read so far (its earlier frames); nonzero only inside a multipart message. */
    private long messageBytes;
    private boolean inMessage;
    private boolean failed;
    /** Bytes arrived, and a message or command was completed, since the last read completed. */
    private boolean readSinceComplete;
    private boolean producedSinceComplete;
    /** A command was decoded by this call to decode: it stops there. */
    private boolean commandDecoded;

    public ZmtpFrameDecoder(ZmtpVersion version, long maxMessageSize, ZmtpMessageReader messageReader) {
        if (maxMessageSize <= 0 || maxMessageSize > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("maxMessageSize: " + maxMessageSize + " (expected: 1.."
                    + (Integer.MAX_VALUE - 16) + ")");
        }
        this.version = version;
        this.maxMessageSize = maxMessageSize;
        this.messageReader = messageReader;
        setCumulator(SampleSheddingCumulator.INSTANCE);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            // A command goes down the pipeline before any frame after it is read: a message reader may deliver
            // messages as it reads them (the socket layer's does), and a SUBSCRIBE must keep its place among them.
            commandDecoded = false;
            boolean progress = true;
            while (progress && !commandDecoded && in.isReadable()) {
                progress = version == ZmtpVersion.ZMTP_10 ? decodeFrame10(ctx, in, out) : decodeFrame(ctx, in, out);
            }
        } catch (RuntimeException e) {
            fail(ctx, in, e);
        }
    }

    /** One ZMTP 2.0/3.x frame: flags, size (1 or 8 bytes), body. Returns false when more bytes are needed. */
    private boolean decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!header.readFlags(in, 0)) {
            return false;
        }
        int flags = header.flags();
        if ((flags & ZmtpConstants.FLAGS_RESERVED) != 0 || (header.isCommand() && !version.hasCommands())) {
            throw new ZmtpCodecException("invalid frame flags: 0x" + Integer.toHexString(flags) + " for " + version);
        }
        if (!header.readSize(in)) {
            return false;
        }
        return header.isCommand() ? decodeCommand(in, out) : decodeMessageFrame(ctx, in, out);
    }

    /** One ZMTP 1.0 frame: length (1 or 1+8 bytes, counting the flags byte), flags, body. */
    private boolean decodeFrame10(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!header.read10(in, 0)) {
            return false;
        }
        if (header.lengthField() < 1) {
            throw new ZmtpCodecException("ZMTP/1.0 frame length: " + header.lengthField() + " (expected: >= 1)");
        }
        int flags = header.flags();
        // libzmq's own 1.0 greeting puts 0x7F in this byte, but only in the identity frame the handshake consumes.
        if ((flags & ~ZmtpConstants.FLAG_MORE) != 0) {
            throw new ZmtpCodecException("invalid ZMTP/1.0 frame flags: 0x" + Integer.toHexString(flags));
        }
        return decodeMessageFrame(ctx, in, out);
    }

    private boolean decodeCommand(ByteBuf in, List<Object> out) {
        if (header.isMore()) {
            throw new ZmtpCodecException("command frame with MORE flag");
        }
        if (inMessage) {
            throw new ZmtpCodecException("command frame inside a multipart message");
        }
        long size = header.size();
        if (size < 0 || size > maxMessageSize) {
            throw new ZmtpMessageTooLargeException(size, maxMessageSize);
        }
        if (!header.isBodyReadable(in)) {
            return false;
        }
        header.skip(in);
        ZmtpCommand command = ZmtpWire.readCommand(in, (int) size);
        if (command.is(ZmtpCommand.ERROR)) {
            String reason = command.errorReason();
            command.release();
            throw new ZmtpCodecException("peer sent ERROR: " + reason);
        }
        out.add(command);
        commandDecoded = true;
        producedSinceComplete = true;
        return true;
    }

    private boolean decodeMessageFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        long size = header.size();
        boolean more = header.isMore();
        // size < 0 is a 64-bit length with the top bit set: larger than any maximum. Compare with what is left, never
        // a sum: messageBytes + a size near 2^63 wraps negative and would pass.
        if (size < 0 || size > maxMessageSize - messageBytes) {
            throw new ZmtpMessageTooLargeException(size < 0 || size > Long.MAX_VALUE - messageBytes
                    ? Long.MAX_VALUE : messageBytes + size, maxMessageSize);
        }
        if (!header.isBodyReadable(in)) {
            return false;
        }
        header.skip(in);
        int length = (int) size;
        int end = in.readerIndex() + length;
        messageReader.readFrame(ctx, in, length, more, out);
        if (in.readerIndex() != end) {
            // A custom reader that read too little or too much would desynchronise the stream.
            throw new ZmtpCodecException("message reader consumed " + (in.readerIndex() - (end - length))
                    + " of " + length + " frame bytes");
        }
        inMessage = more;
        if (!more) {
            producedSinceComplete = true;
        }
        // Within maxMessageSize (checked above) + FRAME_OVERHEAD: no overflow. The next frame's check sees the excess.
        messageBytes = more ? messageBytes + size + ZmtpConstants.FRAME_OVERHEAD : 0;
        return true;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            readSinceComplete = true;
        }
        super.channelRead(ctx, msg);
    }

    /**
     * As ByteToMessageDecoder's, except for when it asks for another read with auto-read off: it does when it fired
     * nothing down the pipeline (so that a partial frame completes), but a message reader may deliver messages
     * without firing anything (the socket layer's does), and a channel paused at its high-water mark would then keep
     * reading. So this asks only if nothing was completed at all: no message, no command.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        discardSomeReadBytes();
        if (readSinceComplete && !producedSinceComplete && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
        readSinceComplete = false;
        producedSinceComplete = false;
        ctx.fireChannelReadComplete();
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, Exception cause) {
        failed = true;
        in.skipBytes(in.readableBytes());
        messageReader.discard();
        WARNINGS.log(logger, "{} closing connection to {}: {}", version, ctx.channel().remoteAddress(),
                cause.getMessage());
        ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(), cause));
        ctx.close();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        messageReader.discard();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        messageReader.discard();
    }
}
