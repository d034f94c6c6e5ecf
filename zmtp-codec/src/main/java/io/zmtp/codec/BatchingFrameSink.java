package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.internal.PlatformDependent;
import io.zmtp.codec.mechanism.ZmtpFrameCipher;

import java.nio.charset.StandardCharsets;

/**
 * Frames outbound messages into a batch: consecutive small messages share one pooled buffer, so a burst of writes
 * becomes one buffer and one gathering write at flush, as libzmq's encoder batches into its output buffer. A large
 * frame is not copied: the batch becomes a composite of the header bytes and the retained frame. Reused for every
 * message of a connection; event-loop confined.
 *
 * <p>With a {@link ZmtpFrameCipher}, each frame is sealed into the batch as it is written (never a composite: sealing
 * writes new bytes anyway). A frame a writer fills through {@link #beginFrame} is sealed once it is whole, at the
 * sink's next call.
 */
final class BatchingFrameSink implements ZmtpFrameSink {
    /** Frames above this size are sent from the caller's buffer; below it, copying is cheaper than a composite. */
    static final int ZERO_COPY_THRESHOLD = 8 * 1024;
    /** A batch is handed on once it holds this much, so writability accounting sees it. */
    static final int BATCH_SIZE = 16 * 1024;
    /** On JDK 24+ Netty may expose native addresses without sun.misc.Unsafe, which then can't copy between them. */
    private static final boolean UNSAFE_COPY = PlatformDependent.hasUnsafe();

    private final ZmtpVersion version;
    private final ZmtpFrameCipher cipher;
    /** A frame begun with {@link #beginFrame} under a cipher, to seal once written: where it starts, or -1. */
    private int unsealedStart = -1;
    private int unsealedLength;
    private int unsealedFlags;
    private ByteBufAllocator alloc;
    private ByteBuf out;
    private CompositeByteBuf composite;
    /** Composite components holding whole earlier messages; those after them belong to the message being written. */
    private int committedComponents;
    private int messageStart;
    /**
     * Between {@link #begin} and {@link #end}: only then does {@link #rollback} have bytes of its own to drop.
     * Without it, a write failing before begin() rewound to the previous message's start and cut that one off.
     */
    private boolean inMessage;

    BatchingFrameSink(ZmtpVersion version, ZmtpFrameCipher cipher) {
        this.version = version;
        this.cipher = cipher;
    }

    /** Starts a message of about {@code estimatedSize} bytes, appending to the current batch. */
    void begin(ByteBufAllocator alloc, int estimatedSize) {
        this.alloc = alloc;
        if (composite != null) {
            // Earlier messages' trailing bytes go into the composite, so a rollback may release out whole.
            if (out != null && out.isReadable()) {
                composite.addComponent(true, out);
            } else if (out != null) {
                out.release();
            }
            out = null;
            committedComponents = composite.numComponents();
        }
        if (out == null) {
            out = alloc.ioBuffer(Math.max(estimatedSize, 256));
        }
        messageStart = out.writerIndex();
        inMessage = true;
        out.ensureWritable(estimatedSize);
    }

    /** The message begun last is whole: a later {@link #rollback} leaves it alone. */
    void end() {
        sealWrittenFrame();
        inMessage = false;
    }

    /**
     * Drops the bytes of the message being written, if {@link #begin} was reached for it; earlier messages of the
     * batch stay whole.
     */
    void rollback() {
        unsealedStart = -1;
        if (!inMessage) {
            return;
        }
        inMessage = false;
        if (composite != null) {
            // Components from committedComponents on belong to the failed message only.
            int n = composite.numComponents() - committedComponents;
            if (n > 0) {
                composite.removeComponents(committedComponents, n);
                // removeComponents leaves the writer index where it was; the batch ends where its components do.
                composite.writerIndex(composite.capacity());
            }
            if (out != null) {
                out.release();
                out = null;
            }
            return;
        }
        if (out != null) {
            out.writerIndex(messageStart);
        }
    }

    /** Whether the batch should be handed on now rather than at the next flush. */
    boolean isBatchFull() {
        return composite != null || (out != null && out.readableBytes() >= BATCH_SIZE);
    }

    /** Takes the batch's bytes (null if none); the writer starts a new batch on the next {@link #begin}. */
    ByteBuf takeBatch() {
        ByteBuf result;
        if (composite == null) {
            result = out;
        } else {
            if (out != null && out.isReadable()) {
                composite.addComponent(true, out);
            } else if (out != null) {
                out.release();
            }
            result = composite;
        }
        if (result != null && !result.isReadable()) {
            result.release();
            result = null;
        }
        out = null;
        composite = null;
        committedComponents = 0;
        inMessage = false;
        return result;
    }

    /** Releases the batch unsent. */
    void discard() {
        ByteBuf batch = takeBatch();
        if (batch != null) {
            batch.release();
        }
    }

    @Override
    public void writeFrame(ByteBuf content, boolean more) {
        int length = content.readableBytes();
        if (cipher != null) {
            sealWrittenFrame();
            cipher.seal(content, content.readerIndex(), length, more ? ZmtpFrameCipher.MORE : 0, out);
            return;
        }
        int flags = more ? ZmtpConstants.FLAG_MORE : 0;
        ZmtpWire.writeHeader(out, version, length, flags);
        if (length < ZERO_COPY_THRESHOLD) {
            copy(content, length);
            return;
        }
        if (composite == null) {
            composite = alloc.compositeBuffer(Integer.MAX_VALUE);
            if (messageStart > out.readerIndex()) {
                // Earlier messages get a component of their own, so a failure later in this one can cut it off.
                ByteBuf current = alloc.ioBuffer(out.writerIndex() - messageStart + 64);
                current.writeBytes(out, messageStart, out.writerIndex() - messageStart);
                out.writerIndex(messageStart);
                composite.addComponent(true, out);
                committedComponents = 1;
                out = current;
            }
        }
        composite.addComponent(true, out);
        composite.addComponent(true, content.retainedSlice());
        out = alloc.ioBuffer(64);
    }

    /**
     * Copies a small frame into the batch. Netty 4.2's adaptive buffers copy from another buffer through a temporary
     * NIO view (an allocation per frame), so copy from the array or the native address directly where there is one.
     */
    private void copy(ByteBuf content, int length) {
        int from = content.readerIndex();
        if (content.hasArray()) {
            out.writeBytes(content.array(), content.arrayOffset() + from, length);
        } else if (UNSAFE_COPY && content.hasMemoryAddress() && out.hasMemoryAddress()) {
            out.ensureWritable(length);
            int to = out.writerIndex();
            PlatformDependent.copyMemory(content.memoryAddress() + from, out.memoryAddress() + to, length);
            out.writerIndex(to + length);
        } else {
            out.writeBytes(content, from, length);
        }
    }

    @Override
    public void writeFrame(byte[] content, boolean more) {
        if (cipher != null) {
            writeFrame(Unpooled.wrappedBuffer(content), more);
            return;
        }
        ZmtpWire.writeHeader(out, version, content.length, more ? ZmtpConstants.FLAG_MORE : 0);
        out.writeBytes(content);
    }

    @Override
    public ByteBuf beginFrame(int length, boolean more) {
        if (length < 0) {
            throw new IllegalArgumentException("frame length: " + length + " (expected: >= 0)");
        }
        if (cipher != null) {
            sealWrittenFrame();
            // The writer fills it in clear; sealWrittenFrame() replaces it with its sealed form.
            out.ensureWritable(length);
            unsealedStart = out.writerIndex();
            unsealedLength = length;
            unsealedFlags = more ? ZmtpFrameCipher.MORE : 0;
            return out;
        }
        ZmtpWire.writeHeader(out, version, length, more ? ZmtpConstants.FLAG_MORE : 0);
        out.ensureWritable(length);
        return out;
    }

    /** Seals the frame a writer filled after {@link #beginFrame}, if there is one. */
    private void sealWrittenFrame() {
        if (unsealedStart < 0) {
            return;
        }
        int start = unsealedStart;
        unsealedStart = -1;
        if (out.writerIndex() - start != unsealedLength) {
            throw new ZmtpCodecException("message writer wrote " + (out.writerIndex() - start) + " bytes into a frame of "
                    + unsealedLength);
        }
        ByteBuf clear = alloc.buffer(unsealedLength);
        try {
            clear.writeBytes(out, start, unsealedLength);
            out.writerIndex(start);
            cipher.seal(clear, clear.readerIndex(), unsealedLength, unsealedFlags, out);
        } finally {
            clear.release();
        }
    }

    /** Seals a command (libzmq sends PING, SUBSCRIBE... inside MESSAGE with its COMMAND flag). */
    private void sealCommand(ZmtpCommand command) {
        sealWrittenFrame();
        ByteBuf content = command.content();
        ByteBuf body = alloc.buffer(1 + command.name().length() + content.readableBytes());
        try {
            body.writeByte(command.name().length());
            body.writeCharSequence(command.name(), StandardCharsets.US_ASCII);
            body.writeBytes(content, content.readerIndex(), content.readableBytes());
            cipher.seal(body, body.readerIndex(), body.readableBytes(), ZmtpFrameCipher.COMMAND, out);
        } finally {
            body.release();
        }
    }

    /** Seals a 3.0-style subscription message ({@code 01}/{@code 00} and the topic). */
    private void sealSubscription(ZmtpCommand command) {
        sealWrittenFrame();
        ByteBuf topic = command.content();
        ByteBuf body = alloc.buffer(1 + topic.readableBytes());
        try {
            body.writeByte(command.is(ZmtpCommand.SUBSCRIBE) ? 1 : 0);
            body.writeBytes(topic, topic.readerIndex(), topic.readableBytes());
            cipher.seal(body, body.readerIndex(), body.readableBytes(), 0, out);
        } finally {
            body.release();
        }
    }

    /** Writes a command; to peers without commands, subscriptions become 0x01/0x00-prefixed messages. */
    void writeCommand(ZmtpCommand command) {
        if (version.hasSubscriptionCommands() || !isSubscription(command)) {
            if (!version.hasCommands()) {
                throw new ZmtpCodecException(version + " has no commands; can't send " + command.name());
            }
            if (cipher != null) {
                sealCommand(command);
                return;
            }
            ZmtpWire.writeCommand(out, command);
            return;
        }
        if (cipher != null) {
            sealSubscription(command);
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

    /** Wire size of a message on the copy path (large frames count only their header), to size the batch once. */
    int estimate(ZmtpMessage message) {
        int n = 0;
        for (int i = 0, size = message.size(); i < size; i++) {
            int length = message.frame(i).readableBytes();
            if (cipher != null) {
                n += cipher.sealedLength(length);
                continue;
            }
            n += ZmtpWire.headerLength(version, length);
            if (length < ZERO_COPY_THRESHOLD) {
                n += length;
            }
        }
        return n;
    }

    int estimate(ZmtpCommand command) {
        int length = ZmtpWire.commandLength(command) + 10;
        return cipher != null ? cipher.sealedLength(length) : length;
    }
}
