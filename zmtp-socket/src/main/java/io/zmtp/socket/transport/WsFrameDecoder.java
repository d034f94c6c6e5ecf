package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.zmtp.codec.ZmtpConstants;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The receiving half of ZWS 2.0 (rfc 45) after the upgrade: WebSocket frames (rfc 6455 section 5.2) in, ZMTP wire
 * bytes out for the unchanged codec behind {@link WsHandler}, in place of Netty's frame decoder, which made a
 * {@code WebSocketFrame} and a copy of the payload per message, and {@link WsFrameAdapter} a ZMTP header and often
 * a composite on top: about half of libzmq's rate into our receiver.
 *
 * <h2>In place</h2>
 * Each binary message is one ZMTP frame: a flags byte (MORE 0x01, COMMAND 0x02), then the body. Its WebSocket
 * header and flags byte take at least as many bytes as the ZMTP header that replaces them (2 bytes for a body up to
 * 255, else 9; a client's frames carry a 4-byte key besides), so the messages of one read are rewritten where they
 * lie in the cumulation, which is ours: each ZMTP header and body is moved back to where the previous one ended
 * (a client's masked body unmasked in the same pass), and all the messages of a read leave as one retained slice,
 * one {@code channelRead} for the codec instead of one per message. A body of {@link #OWN_SLICE_MIN} bytes or more
 * is not moved: its ZMTP header goes over its WebSocket header and it leaves as a slice of its own. Only a server's
 * (unmasked) frame of 256 bytes to 64 KiB whose 16-bit length leaves 5 bytes for the 9 of a long ZMTP header, with
 * no room behind it, gets a header buffer and a composite with the body. So per message nothing is allocated.
 *
 * <p>Why not hand the codec frames instead of bytes: its handshake, CURVE's cipher decoder and its frame decoder all
 * read bytes from the pipeline (the handshake's commands are frames as well); a frame interface would be a second
 * entry into each. Two header bytes per short message, written where the WebSocket header was, cost less: writing
 * and reading the ZMTP headers was under a tenth of the receiver's profile (docs/performance-notes.md, "ws receive
 * path, round 4").
 *
 * <h2>What is refused</h2>
 * As libzmq's ws decoder ({@code ws_decoder.cpp}) and Netty's: reserved bits (no extension is ever agreed), a
 * reserved opcode, a frame masked as the side must not (a server's masked, a client's unmasked), a control frame
 * that is fragmented or over 125 bytes, a close frame of one byte, with an invalid status code or a reason that is not
 * UTF-8. As libzmq: a text message, a fragment or a continuation (ZWS carries one frame per message; libzmq refuses
 * non-final frames), an empty binary message (no flags byte). And a binary message over {@code maxPayload}, refused
 * from its header, before any of it is awaited. Each is a {@link CorruptedWebSocketFrameException} with the close
 * status to send; {@link WsHandler} turns it into a close frame, the connection's close and a protocol error event.
 * Messages of the same read before the offending frame are delivered; nothing after it is read.
 *
 * <h2>Control frames</h2>
 * Pings go on as {@link PingWebSocketFrame}s to {@link WsPingHandler}, closes as {@link CloseWebSocketFrame}s to
 * Netty's protocol handler (which answers and closes), each after the messages before it; pongs are dropped. After a
 * close frame nothing more is read.
 *
 * <h2>Memory</h2>
 * The cumulation holds at most one incomplete frame, whose declared length was checked first, and the rest of the
 * read. Slices of it held by the codec (the frames of an incomplete multipart message, or messages not yet
 * received by the application) pin it, as read buffers are pinned over tcp (see {@code ZmtpFrameDecoder}).
 *
 * <p>One per connection, confined to its event loop.
 */
final class WsFrameDecoder extends ByteToMessageDecoder {
    /** The body size from which a message leaves as a slice of its own, not moved: below it a copy is cheaper. */
    static final int OWN_SLICE_MIN = 1024;

    private static final int OPCODE_CONTINUATION = 0x0;
    private static final int OPCODE_TEXT = 0x1;
    private static final int OPCODE_BINARY = 0x2;
    private static final int OPCODE_CLOSE = 0x8;
    private static final int OPCODE_PING = 0x9;
    private static final int OPCODE_PONG = 0xA;
    private static final int MAX_CONTROL_PAYLOAD = 125;
    private static final int WS_MORE = 0x01;
    private static final int WS_COMMAND = 0x02;
    private static final int SHORT_FRAME_MAX = 255;

    /** A server receives masked frames, a client unmasked ones (rfc 6455 section 5.1). */
    private final boolean expectMasked;
    private final int maxPayload;
    /** A close frame was read, or a protocol error found: what follows is skipped. */
    private boolean done;
    /** The ZMTP bytes written so far in this call to decode, not yet handed on: [runStart, runEnd) of the input. */
    private int runStart;
    private int runEnd;
    /**
     * This call's input as a {@link ByteBuffer} over the same memory, from its reader index ({@link #base}): every
     * header byte and body is read and written through it. A {@code ByteBuf}'s get and set check the buffer's
     * reference count each time, which was a sixth of the decoder's samples (JFR, 2026-11-28); one view per read.
     */
    private ByteBuffer view;
    private int base;

    /**
     * @param expectMasked whether the peer is a client, whose frames must be masked (and a server's must not)
     * @param maxPayload   the largest binary message's payload (flags byte included) taken
     */
    WsFrameDecoder(boolean expectMasked, int maxPayload) {
        if (maxPayload < 1) {
            throw new IllegalArgumentException("maxPayload: " + maxPayload + " (expected: >= 1)");
        }
        this.expectMasked = expectMasked;
        this.maxPayload = maxPayload;
        setCumulator(WRITABLE_CUMULATOR);
    }

    /**
     * Netty's merge cumulator, which takes a read buffer as the cumulation when nothing is left over, except that a
     * read-only one, or one that is not a single run of memory, is copied first: messages are rewritten in the
     * cumulation, through one {@link ByteBuffer} view of it. (The merge cumulator's own buffers are always one.)
     */
    private static final Cumulator WRITABLE_CUMULATOR = (alloc, cumulation, in) -> {
        if (!in.isReadOnly() && in.nioBufferCount() == 1) {
            return MERGE_CUMULATOR.cumulate(alloc, cumulation, in);
        }
        ByteBuf copy;
        try {
            copy = alloc.buffer(in.readableBytes()).writeBytes(in);
        } finally {
            in.release();
        }
        return MERGE_CUMULATOR.cumulate(alloc, cumulation, copy);
    };

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        runStart = in.readerIndex();
        runEnd = runStart;
        base = runStart;
        // Shares the memory: a single one (see WRITABLE_CUMULATOR), so no copy.
        view = in.nioBuffer(base, in.readableBytes()).order(ByteOrder.BIG_ENDIAN);
        try {
            while (!done && decodeFrame(ctx, in, out)) {
                // Each frame rewritten or handed on; stops at an incomplete one.
            }
        } catch (CorruptedWebSocketFrameException e) {
            done = true;
            endRun(in, out);
            in.skipBytes(in.readableBytes());
            throw e;
        } finally {
            view = null;
        }
        endRun(in, out);
        if (done) {
            // After a close frame.
            in.skipBytes(in.readableBytes());
        }
    }

    /** One whole frame at the reader index, consumed; false if it is not all there yet. */
    private boolean decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 2) {
            return false;
        }
        int b0 = view.get(start - base) & 0xFF;
        int b1 = view.get(start + 1 - base) & 0xFF;
        int opcode = b0 & 0x0F;
        boolean fin = (b0 & 0x80) != 0;
        boolean masked = (b1 & 0x80) != 0;
        int lengthField = b1 & 0x7F;
        checkHeader(b0 & 0x70, opcode, fin, masked, lengthField);
        int headerLength = 2 + (lengthField == 126 ? 2 : lengthField == 127 ? 8 : 0) + (masked ? 4 : 0);
        if (readable < headerLength) {
            return false;
        }
        long length = lengthField < 126 ? lengthField
                : lengthField == 126 ? view.getShort(start + 2 - base) & 0xFFFF : view.getLong(start + 2 - base);
        if (opcode == OPCODE_BINARY) {
            // Negative: a 64-bit length with the top bit set, which rfc 6455 forbids and no maximum allows.
            if (length < 0 || length > maxPayload) {
                throw refused(WebSocketCloseStatus.MESSAGE_TOO_BIG, "WebSocket message of "
                        + Long.toUnsignedString(length) + " bytes (expected: <= " + maxPayload + ")");
            }
            if (length == 0) {
                throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "empty WebSocket message (no flags byte)");
            }
        }
        if (readable - headerLength < length) {
            return false;
        }
        int payload = start + headerLength;
        int n = (int) length;
        int key = masked ? view.getInt(payload - 4 - base) : 0;
        in.readerIndex(payload + n);
        if (opcode == OPCODE_BINARY) {
            message(ctx, in, out, start, payload, n, masked, key);
        } else {
            control(in, out, opcode, payload, n, masked, key);
        }
        return true;
    }

    /** What can be refused from a frame's first two bytes. */
    private void checkHeader(int reservedBits, int opcode, boolean fin, boolean masked, int lengthField) {
        if (reservedBits != 0) {
            throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "WebSocket frame with reserved bits 0x"
                    + Integer.toHexString(reservedBits) + " set (no extension was agreed)");
        }
        if (masked != expectMasked) {
            throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, expectMasked
                    ? "unmasked WebSocket frame from a client" : "masked WebSocket frame from a server");
        }
        switch (opcode) {
            case OPCODE_BINARY:
                if (!fin) {
                    throw fragmented();
                }
                return;
            case OPCODE_CONTINUATION:
                throw fragmented();
            case OPCODE_TEXT:
                throw refused(WebSocketCloseStatus.INVALID_MESSAGE_TYPE,
                        "text WebSocket message (ZWS 2.0 carries binary messages only)");
            case OPCODE_CLOSE:
            case OPCODE_PING:
            case OPCODE_PONG:
                if (!fin) {
                    throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "fragmented WebSocket control frame");
                }
                if (lengthField > MAX_CONTROL_PAYLOAD) {
                    throw refused(WebSocketCloseStatus.PROTOCOL_ERROR,
                            "WebSocket control frame over " + MAX_CONTROL_PAYLOAD + " bytes");
                }
                return;
            default:
                throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "reserved WebSocket opcode 0x"
                        + Integer.toHexString(opcode));
        }
    }

    /**
     * A binary message, {@code n} bytes (flags byte, body) from {@code payload} of a frame from {@code start}, as a
     * ZMTP frame: added to the run if its header fits behind it, else handed on where it lies.
     */
    private void message(ChannelHandlerContext ctx, ByteBuf in, List<Object> out, int start, int payload, int n,
                         boolean masked, int key) {
        // The other six bits are ignored, as libzmq's ws decoder ignores them.
        int wsFlags = (view.get(payload - base) ^ (key >>> 24)) & 0xFF;
        int flags = ((wsFlags & WS_MORE) != 0 ? ZmtpConstants.FLAG_MORE : 0)
                | ((wsFlags & WS_COMMAND) != 0 ? ZmtpConstants.FLAG_COMMAND : 0);
        int bodyIndex = payload + 1;
        int body = n - 1;
        // The body's bytes start at the key's second byte.
        int bodyKey = Integer.rotateLeft(key, 8);
        int headerLength = body <= SHORT_FRAME_MAX ? 2 : 9;
        boolean fitsInRun = runEnd + headerLength <= bodyIndex;
        if (fitsInRun && body < OWN_SLICE_MIN) {
            appendToRun(in, flags, bodyIndex, body, masked, bodyKey);
        } else if (bodyIndex - headerLength >= start) {
            endRun(in, out);
            int at = bodyIndex - headerLength;
            writeHeader(view, at - base, flags, body);
            if (masked) {
                moveBody(view, bodyIndex - base, bodyIndex - base, body, true, bodyKey);
            }
            out.add(in.retainedSlice(at, headerLength + body));
            restartRun(in);
        } else if (fitsInRun) {
            appendToRun(in, flags, bodyIndex, body, masked, bodyKey);
        } else {
            // A server's 16-bit length frame of 256 bytes or more first in its run: 5 header bytes for 9.
            endRun(in, out);
            if (masked) {
                moveBody(view, bodyIndex - base, bodyIndex - base, body, true, bodyKey);
            }
            ByteBuf header = ctx.alloc().buffer(9).writeByte(flags | ZmtpConstants.FLAG_LONG).writeLong(body);
            out.add(ctx.alloc().compositeBuffer(2).addComponents(true, header, in.retainedSlice(bodyIndex, body)));
            restartRun(in);
        }
    }

    private void appendToRun(ByteBuf in, int flags, int bodyIndex, int body, boolean masked, int bodyKey) {
        int to = writeHeader(view, runEnd - base, flags, body) + base;
        moveBody(view, bodyIndex - base, to - base, body, masked, bodyKey);
        runEnd = to + body;
    }

    /** A control frame: the run so far goes first, then the ping or close; a pong is dropped. */
    private void control(ByteBuf in, List<Object> out, int opcode, int payload, int n, boolean masked, int key) {
        endRun(in, out);
        if (masked) {
            moveBody(view, payload - base, payload - base, n, true, key);
        }
        if (opcode == OPCODE_PING) {
            out.add(new PingWebSocketFrame(in.retainedSlice(payload, n)));
        } else if (opcode == OPCODE_CLOSE) {
            checkClose(in, payload, n);
            done = true;
            out.add(new CloseWebSocketFrame(true, 0, in.retainedSlice(payload, n)));
        }
        restartRun(in);
    }

    /** A close frame's body: nothing, or a valid status code and a UTF-8 reason (rfc 6455 section 5.5.1). */
    private static void checkClose(ByteBuf in, int payload, int n) {
        if (n == 0) {
            return;
        }
        if (n == 1) {
            throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "WebSocket close frame of 1 byte");
        }
        int status = in.getUnsignedShort(payload);
        if (!WebSocketCloseStatus.isValidStatusCode(status)) {
            throw refused(WebSocketCloseStatus.PROTOCOL_ERROR, "WebSocket close status " + status + " (invalid)");
        }
        if (!ByteBufUtil.isText(in, payload + 2, n - 2, StandardCharsets.UTF_8)) {
            throw refused(WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "WebSocket close reason not UTF-8");
        }
    }

    /** Hands on the run's bytes, if any, as one slice; the run restarts at their end. */
    private void endRun(ByteBuf in, List<Object> out) {
        if (runEnd > runStart) {
            out.add(in.retainedSlice(runStart, runEnd - runStart));
        }
        runStart = runEnd;
    }

    /** After a frame handed on by itself: the next run starts behind it, never over what was handed on. */
    private void restartRun(ByteBuf in) {
        runStart = in.readerIndex();
        runEnd = runStart;
    }

    /** A ZMTP frame header at {@code at}: flags and a 1-byte size, or a long frame's 8-byte size; where it ends. */
    private static int writeHeader(ByteBuffer buf, int at, int flags, int body) {
        if (body <= SHORT_FRAME_MAX) {
            buf.put(at, (byte) flags);
            buf.put(at + 1, (byte) body);
            return at + 2;
        }
        buf.put(at, (byte) (flags | ZmtpConstants.FLAG_LONG));
        buf.putLong(at + 1, body);
        return at + 9;
    }

    /**
     * Moves {@code n} bytes from {@code from} back to {@code to} (never after it), unmasking them with {@code key}
     * (its bytes in the order they apply) if masked. Front to back, a long at a time: each long is read before the
     * write that could overlap it, and a later read is always beyond every earlier write.
     */
    static void moveBody(ByteBuffer buf, int from, int to, int n, boolean masked, int key) {
        if (!masked && (from == to || n == 0)) {
            return;
        }
        long mask = masked ? (key & 0xFFFFFFFFL) << 32 | (key & 0xFFFFFFFFL) : 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            buf.putLong(to + i, buf.getLong(from + i) ^ mask);
        }
        int byteKey = masked ? key : 0;
        for (; i < n; i++) {
            buf.put(to + i, (byte) (buf.get(from + i) ^ (byteKey >>> (24 - 8 * (i & 3)))));
        }
    }

    private static CorruptedWebSocketFrameException fragmented() {
        return refused(WebSocketCloseStatus.PROTOCOL_ERROR,
                "fragmented WebSocket message (ZWS 2.0 carries one frame per message)");
    }

    private static CorruptedWebSocketFrameException refused(WebSocketCloseStatus status, String reason) {
        return new CorruptedWebSocketFrameException(status, reason);
    }
}
