package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.zmtp.codec.ZmtpConstants;

/**
 * ZWS 2.0's framing for {@link WsHandler}: each binary WebSocket message is one ZMTP frame, a flags byte (MORE 0x01,
 * COMMAND 0x02, as libzmq's ws_protocol.hpp has them) then the body. Inbound, a message becomes ZMTP wire bytes
 * (a frame header plus the body, without a copy) for the codec's decoder; outbound, the bytes the codec's encoder
 * writes (several frames per buffer, or a frame over several) are cut back into frames, one binary message each,
 * after the greeting bytes ZWS does not send are dropped.
 *
 * <p>One per connection, confined to its event loop; {@link #release} frees what it holds.
 */
final class WsFrameAdapter {
    private static final int WS_MORE = 0x01;
    private static final int WS_COMMAND = 0x02;

    /** Greeting bytes the codec will still write (ZWS has no greeting on the wire). */
    private int greetingToSwallow;
    /** What the encoder wrote that is not yet a whole frame. */
    private CompositeByteBuf pending;

    WsFrameAdapter(ByteBufAllocator alloc, int greetingToSwallow) {
        this.greetingToSwallow = greetingToSwallow;
        this.pending = alloc.compositeBuffer(Integer.MAX_VALUE);
    }

    /**
     * {@code [ws flags][body]}, a binary message's content with at least the flags byte, as ZMTP wire bytes: a short
     * or long frame header, then the body (not copied; the result takes over {@code content}'s reference).
     */
    static ByteBuf toZmtpFrame(ByteBufAllocator alloc, ByteBuf content) {
        // The other six bits are ignored, as libzmq's ws decoder ignores them.
        int wsFlags = content.readUnsignedByte();
        int size = content.readableBytes();
        int flags = ((wsFlags & WS_MORE) != 0 ? ZmtpConstants.FLAG_MORE : 0)
                | ((wsFlags & WS_COMMAND) != 0 ? ZmtpConstants.FLAG_COMMAND : 0);
        ByteBuf header;
        if (size <= 255) {
            header = alloc.buffer(2).writeByte(flags).writeByte(size);
        } else {
            header = alloc.buffer(9).writeByte(flags | ZmtpConstants.FLAG_LONG).writeLong(size);
        }
        return alloc.compositeBuffer(2).addComponents(true, header, content);
    }

    /**
     * Takes over {@code buf}, bytes the encoder wrote, and writes each frame it completes as a binary message;
     * {@code promise} goes with the last of them (bytes of a frame not yet whole wait for the next write, which
     * completes them), or succeeds at once if none is complete.
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
        ByteBuf frame = nextFrame(ctx.alloc());
        if (frame == null) {
            promise.trySuccess();
            return;
        }
        while (true) {
            ByteBuf next = nextFrame(ctx.alloc());
            if (next == null) {
                ctx.write(new BinaryWebSocketFrame(frame), promise);
                break;
            }
            ctx.write(new BinaryWebSocketFrame(frame), ctx.voidPromise());
            frame = next;
            if (pending == null) {
                // That write failed and closed the channel, whose handler's removal released us.
                frame.release();
                promise.tryFailure(new java.nio.channels.ClosedChannelException());
                return;
            }
        }
        if (pending != null) {
            // Not if the last write closed the channel and released us.
            pending.discardReadComponents();
        }
    }

    /** The next whole ZMTP frame of {@link #pending} as a ZWS payload, or null until one has arrived. */
    private ByteBuf nextFrame(ByteBufAllocator alloc) {
        int r = pending.readerIndex();
        if (pending.readableBytes() < 2) {
            return null;
        }
        int flags = pending.getUnsignedByte(r);
        boolean isLong = (flags & ZmtpConstants.FLAG_LONG) != 0;
        int headerLength = isLong ? 9 : 2;
        if (pending.readableBytes() < headerLength) {
            return null;
        }
        // Our encoder never writes a frame past an int (nor would Netty's aggregate take one).
        int size = isLong ? (int) pending.getLong(r + 1) : pending.getUnsignedByte(r + 1);
        if (pending.readableBytes() < headerLength + size) {
            return null;
        }
        pending.skipBytes(headerLength);
        int wsFlags = ((flags & ZmtpConstants.FLAG_MORE) != 0 ? WS_MORE : 0)
                | ((flags & ZmtpConstants.FLAG_COMMAND) != 0 ? WS_COMMAND : 0);
        ByteBuf flagsByte = alloc.buffer(1).writeByte(wsFlags);
        return alloc.compositeBuffer(2).addComponents(true, flagsByte, pending.readRetainedSlice(size));
    }

    /** Frees what is pending; later writes fail. */
    void release() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
