package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Frames one outbound message into a single pooled buffer, or, when a frame is large, a composite of header buffers
 * and the retained frame (a gathering write instead of a copy). Reused for every message of a connection.
 */
final class OutboundFrameWriter implements ZmtpFrameWriter {
    /** Frames above this size are sent from the caller's buffer; below it, copying is cheaper than a composite. */
    static final int ZERO_COPY_THRESHOLD = 8 * 1024;

    private final ZmtpVersion version;
    private ByteBufAllocator alloc;
    private ByteBuf out;
    private CompositeByteBuf composite;

    OutboundFrameWriter(ZmtpVersion version) {
        this.version = version;
    }

    void start(ByteBufAllocator alloc, int estimatedSize) {
        this.alloc = alloc;
        this.out = alloc.ioBuffer(estimatedSize);
    }

    /** The message's bytes; the writer is ready for the next {@link #start}. */
    ByteBuf finish() {
        ByteBuf result;
        if (composite == null) {
            result = out;
        } else {
            if (out.isReadable()) {
                composite.addComponent(true, out);
            } else {
                out.release();
            }
            result = composite;
        }
        out = null;
        composite = null;
        alloc = null;
        return result;
    }

    /** Releases what a failed encode left behind. */
    void abort() {
        if (out != null) {
            out.release();
            out = null;
        }
        if (composite != null) {
            composite.release();
            composite = null;
        }
        alloc = null;
    }

    @Override
    public void writeFrame(ByteBuf content, boolean more) {
        int length = content.readableBytes();
        int flags = more ? ZmtpConstants.FLAG_MORE : 0;
        ZmtpWire.writeHeader(out, version, length, flags);
        if (length < ZERO_COPY_THRESHOLD) {
            out.writeBytes(content, content.readerIndex(), length);
            return;
        }
        if (composite == null) {
            composite = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        composite.addComponent(true, out);
        composite.addComponent(true, content.retainedSlice());
        out = alloc.ioBuffer(64);
    }

    @Override
    public void writeFrame(byte[] content, boolean more) {
        ZmtpWire.writeHeader(out, version, content.length, more ? ZmtpConstants.FLAG_MORE : 0);
        out.writeBytes(content);
    }

    @Override
    public ByteBuf beginFrame(int length, boolean more) {
        if (length < 0) {
            throw new IllegalArgumentException("frame length: " + length + " (expected: >= 0)");
        }
        ZmtpWire.writeHeader(out, version, length, more ? ZmtpConstants.FLAG_MORE : 0);
        out.ensureWritable(length);
        return out;
    }

    /** Writes a command; to peers without commands, subscriptions become 0x01/0x00-prefixed messages. */
    void writeCommand(ZmtpCommand command) {
        if (version.hasSubscriptionCommands() || !isSubscription(command)) {
            if (!version.hasCommands()) {
                throw new ZmtpCodecException(version + " has no commands; can't send " + command.name());
            }
            ZmtpWire.writeCommand(out, command);
            return;
        }
        ByteBuf topic = command.content();
        int length = 1 + topic.readableBytes();
        ZmtpWire.writeHeader(out, version, length, 0);
        out.writeByte(command.is(ZmtpCommand.SUBSCRIBE) ? 1 : 0);
        out.writeBytes(topic, topic.readerIndex(), topic.readableBytes());
    }

    private static boolean isSubscription(ZmtpCommand command) {
        return command.is(ZmtpCommand.SUBSCRIBE) || command.is(ZmtpCommand.CANCEL);
    }

    /** Exact wire size of a message written frame by frame (copy path), used to size the buffer once. */
    int estimate(ZmtpMessage message) {
        int n = 0;
        for (int i = 0; i < message.size(); i++) {
            int length = message.frame(i).readableBytes();
            n += ZmtpWire.headerLength(version, length);
            if (length < ZERO_COPY_THRESHOLD) {
                n += length;
            }
        }
        return n;
    }

    int estimate(ZmtpCommand command) {
        return ZmtpWire.commandLength(command) + 10;
    }
}
