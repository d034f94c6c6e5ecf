package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.zmtp.codec.ZmtpConstants;

import java.util.concurrent.ThreadLocalRandom;

/**
 * ZWS 2.0's framing for {@link WsHandler}: each binary WebSocket message is one ZMTP frame, a flags byte (MORE 0x01,
 * COMMAND 0x02, as libzmq's ws_protocol.hpp has them) then the body. Inbound, a message that Netty's frame decoder
 * made into an object (a client's first messages, in the read of the upgrade's response, before
 * {@link WsFrameDecoder} takes over) becomes ZMTP wire bytes for the codec's decoder; outbound, the bytes the codec's
 * encoder writes (several frames per buffer, or a frame over several) are cut back into frames, one binary message
 * each, after the greeting bytes ZWS does not send are dropped.
 *
 * <p>One per connection, confined to its event loop; {@link #release} frees what it holds.
 */
final class WsFrameAdapter {
    private static final int WS_MORE = 0x01;
    private static final int WS_COMMAND = 0x02;
    /** The largest body of a short ZMTP frame; inbound, such a message is copied into one buffer with its header. */
    private static final int SHORT_FRAME_MAX = 255;

    /**
     * A server's frames up to this size are copied into the batch; larger ones go as a message of their own, their
     * body not copied (Netty's encoder doesn't copy payloads over 1024 bytes either).
     */
    private static final int COPY_MAX = 1024;
    /** The most a batch buffer starts with; it grows as frames are appended. */
    private static final int BATCH_HINT = 64 * 1024;

    /** Whether what we send is masked: a client's messages are, a server's are not (rfc 6455 section 5.3). */
    private final boolean mask;
    /** Greeting bytes the codec will still write (ZWS has no greeting on the wire). */
    private int greetingToSwallow;
    /** What the encoder wrote that is not yet a whole frame. */
    private CompositeByteBuf pending;

    WsFrameAdapter(ByteBufAllocator alloc, int greetingToSwallow, boolean mask) {
        this.greetingToSwallow = greetingToSwallow;
        this.mask = mask;
        this.pending = alloc.compositeBuffer(Integer.MAX_VALUE);
    }

    /**
     * {@code [ws flags][body]}, a binary message's content with at least the flags byte, as ZMTP wire bytes: a short
     * frame copied whole, or a long frame's header before the body (not copied); takes over {@code content}'s
     * reference.
     */
    static ByteBuf toZmtpFrame(ByteBufAllocator alloc, ByteBuf content) {
        // The other six bits are ignored, as libzmq's ws decoder ignores them.
        int wsFlags = content.readUnsignedByte();
        int size = content.readableBytes();
        int flags = ((wsFlags & WS_MORE) != 0 ? ZmtpConstants.FLAG_MORE : 0)
                | ((wsFlags & WS_COMMAND) != 0 ? ZmtpConstants.FLAG_COMMAND : 0);
        if (size <= SHORT_FRAME_MAX) {
            // A short frame: one small buffer instead of a header, a composite and the content (a few bytes' copy).
            ByteBuf frame = alloc.buffer(2 + size).writeByte(flags).writeByte(size).writeBytes(content);
            content.release();
            return frame;
        }
        ByteBuf header = alloc.buffer(9).writeByte(flags | ZmtpConstants.FLAG_LONG).writeLong(size);
        return alloc.compositeBuffer(2).addComponents(true, header, content);
    }

    /**
     * Takes over {@code buf}, bytes the encoder wrote, and writes each frame it completes as a binary message;
     * {@code promise} goes with the last write (bytes of a frame not yet whole wait for the next write, which
     * completes them), or succeeds at once if no frame is complete.
     *
     * <p>The messages are framed here, into one buffer per write of the encoder (its batch), rather than one
     * {@link BinaryWebSocketFrame} each for Netty's frame encoder: per message that was a flags buffer, a composite,
     * a slice and Netty's header buffer, which it then copied a small payload into anyway, and cost ws:// five times
     * tcp's CPU per 64-byte message. A raw buffer passes Netty's encoder untouched. Large frames of a server still go
     * as their own message, their body not copied; a client's are masked, so copied wherever they go.
     */
    void write(ChannelHandlerContext ctx, ByteBuf buf, ChannelPromise promise) {
        if (pending == null) {
            // Released: the channel is closing.
            buf.release();
            promise.tryFailure(new java.nio.channels.ClosedChannelException());
            return;
        }
        if (greetingToSwallow > 0) {
            int n = Math.min(greetingToSwallow, buf.readableBytes());
            buf.skipBytes(n);
            greetingToSwallow -= n;
        }
        if (!buf.isReadable()) {
            buf.release();
            promise.trySuccess();
            return;
        }
        pending.addComponent(true, buf);
        // What is ready to be written, not yet written: the batch being filled, or a large frame's message.
        Object held = null;
        ByteBuf batch = null;
        for (;;) {
            int r = pending.readerIndex();
            int readable = pending.readableBytes();
            if (readable < 2) {
                break;
            }
            int flags = pending.getUnsignedByte(r);
            boolean isLong = (flags & ZmtpConstants.FLAG_LONG) != 0;
            int headerLength = isLong ? 9 : 2;
            if (readable < headerLength) {
                break;
            }
            // Our encoder never writes a frame past an int (nor would Netty's aggregate take one).
            long size = isLong ? pending.getLong(r + 1) : pending.getUnsignedByte(r + 1);
            if (readable - headerLength < size) {
                break;
            }
            int body = (int) size;
            pending.skipBytes(headerLength);
            int wsFlags = ((flags & ZmtpConstants.FLAG_MORE) != 0 ? WS_MORE : 0)
                    | ((flags & ZmtpConstants.FLAG_COMMAND) != 0 ? WS_COMMAND : 0);
            if (mask || body <= COPY_MAX) {
                if (batch == null) {
                    if (held != null && !writeHeld(ctx, held, promise)) {
                        return;
                    }
                    batch = ctx.alloc().buffer(Math.min(readable, BATCH_HINT) + 64);
                    held = batch;
                }
                appendMessage(batch, wsFlags, body);
            } else {
                if (held != null && !writeHeld(ctx, held, promise)) {
                    return;
                }
                batch = null;
                ByteBuf flagsByte = ctx.alloc().buffer(1).writeByte(wsFlags);
                held = new BinaryWebSocketFrame(
                        ctx.alloc().compositeBuffer(2).addComponents(true, flagsByte, pending.readRetainedSlice(body)));
            }
        }
        if (held == null) {
            promise.trySuccess();
        } else {
            ctx.write(held, promise);
        }
        if (pending != null) {
            // Not if the last write closed the channel and released us.
            pending.discardReadComponents();
        }
    }

    /**
     * Writes {@code held} ahead of what follows it; false (the promise failed) if that write closed the channel,
     * whose handler's removal released {@link #pending}.
     */
    private boolean writeHeld(ChannelHandlerContext ctx, Object held, ChannelPromise promise) {
        ctx.write(held, ctx.voidPromise());
        if (pending == null) {
            promise.tryFailure(new java.nio.channels.ClosedChannelException());
            return false;
        }
        return true;
    }

    /**
     * Appends one binary WebSocket message (rfc 6455 section 5.2: FIN, opcode 2, the length in 7, 16 or 64 bits, a
     * client's masking key) holding {@code wsFlags} and the next {@code body} bytes of {@link #pending}.
     */
    private void appendMessage(ByteBuf out, int wsFlags, int body) {
        int length = body + 1;
        int maskBit = mask ? 0x80 : 0;
        out.writeByte(0x80 | 0x02);
        if (length <= 125) {
            out.writeByte(maskBit | length);
        } else if (length <= 0xFFFF) {
            out.writeByte(maskBit | 126).writeShort(length);
        } else {
            out.writeByte(maskBit | 127).writeLong(length);
        }
        if (!mask) {
            out.writeByte(wsFlags);
            out.writeBytes(pending, body);
            return;
        }
        // A new key per message, as rfc 6455 asks of a client (Netty's encoder takes it from the same source).
        int key = ThreadLocalRandom.current().nextInt();
        out.writeInt(key);
        int start = out.writerIndex();
        out.writeByte(wsFlags);
        out.writeBytes(pending, body);
        // The key's bytes in the order written (big-endian), over the payload four bytes at a time.
        int i = 0;
        for (; i + 4 <= length; i += 4) {
            out.setInt(start + i, out.getInt(start + i) ^ key);
        }
        for (; i < length; i++) {
            out.setByte(start + i, out.getByte(start + i) ^ (key >>> (24 - 8 * (i & 3))));
        }
    }

    /** Frees what is pending; later writes fail. */
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
