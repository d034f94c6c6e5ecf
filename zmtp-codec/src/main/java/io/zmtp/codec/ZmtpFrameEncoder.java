package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ReferenceCounted;
import io.netty.util.concurrent.PromiseNotifier;
import io.zmtp.codec.mechanism.ZmtpFrameCipher;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link ZmtpMessage}s, {@link ZmtpCommand}s and, with a configured {@link ZmtpMessageWriter}, the
 * application's own objects as frames of the negotiated version. Messages written between two flushes are framed
 * into one batch buffer (handed on early once it reaches 16 KiB), so a burst of small messages costs one buffer and
 * one write; each write's promise completes when its batch is written. Other objects pass through untouched, after
 * the batch, so order is kept. A {@link ZmtpMessageBatch} is framed message by message, as if each had been written
 * alone, for a writer that would otherwise cross the pipeline once per message. Installed by
 * {@link ZmtpHandshakeHandler} once the handshake is done.
 *
 * <p>A write whose encoding fails (a released {@link ZmtpMessage}, which fails with an
 * {@link IllegalReferenceCountException}, or a {@link ZmtpMessageWriter} that throws) fails its own
 * promise only and leaves nothing of itself in the batch; the messages before and after it go out whole. A message
 * with no frames is written as one empty frame.
 *
 * <p>With a {@link ZmtpFrameCipher} (CURVE), every frame and command is sealed into a frame of its own as it is
 * written into the batch; large frames are then copied too, since encryption writes new bytes anyway.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Framing"</a>
 * @see <a href="https://rfc.zeromq.org/spec/15/">15/ZMTP (ZMTP 2.0)</a>
 * @see <a href="https://rfc.zeromq.org/spec/13/">13/ZMTP (ZMTP 1.0)</a>
 */
public final class ZmtpFrameEncoder extends ChannelOutboundHandlerAdapter {
    private final BatchingFrameSink frames;
    private final ZmtpMessageWriter<Object> messageWriter;
    /** Promises of the messages in the current batch; void promises are not kept. */
    private ChannelPromise batchPromise;
    private List<ChannelPromise> morePromises;

    /**
     * @param version       the negotiated version, whose framing to write
     * @param messageWriter writes the application's own objects, or null
     */
    public ZmtpFrameEncoder(ZmtpVersion version, ZmtpMessageWriter<?> messageWriter) {
        this(version, messageWriter, null);
    }

    /**
     * @param version       the negotiated version, whose framing to write
     * @param messageWriter writes the application's own objects, or null
     * @param cipher        seals every frame (CURVE), or null for clear text; this connection's own
     */
    @SuppressWarnings("unchecked")
    public ZmtpFrameEncoder(ZmtpVersion version, ZmtpMessageWriter<?> messageWriter, ZmtpFrameCipher cipher) {
        this.frames = new BatchingFrameSink(version, cipher);
        this.messageWriter = (ZmtpMessageWriter<Object>) messageWriter;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ZmtpMessageBatch) {
            writeMessages(ctx, (ZmtpMessageBatch) msg, promise);
            return;
        }
        try {
            if (msg instanceof ZmtpMessage) {
                encodeMessage(ctx, (ZmtpMessage) msg);
            } else if (messageWriter != null && messageWriter.messageType().isInstance(msg)) {
                frames.begin(ctx.alloc(), messageWriter.estimateSize(msg));
                messageWriter.writeMessage(msg, frames);
            } else if (msg instanceof ZmtpCommand) {
                ZmtpCommand command = (ZmtpCommand) msg;
                frames.begin(ctx.alloc(), frames.estimate(command));
                frames.writeCommand(command);
            } else {
                writeBatch(ctx);
                ctx.write(msg, promise);
                return;
            }
            frames.end();
        } catch (Throwable t) {
            frames.rollback();
            // A message released before it got here has nothing left to release; releasing again would throw.
            if (!(msg instanceof ReferenceCounted) || ((ReferenceCounted) msg).refCnt() > 0) {
                ReferenceCountUtil.release(msg);
            }
            promise.tryFailure(t);
            return;
        }
        ReferenceCountUtil.release(msg);
        addPromise(promise);
        if (frames.isBatchFull()) {
            writeBatch(ctx);
        }
    }

    /**
     * Frames every message of a batch, in order, as if each had been written alone; one that fails is dropped alone
     * and fails the batch's promise once the rest is framed.
     */
    private void writeMessages(ChannelHandlerContext ctx, ZmtpMessageBatch batch, ChannelPromise promise) {
        Throwable failure = null;
        for (int i = 0, n = batch.size(); i < n; i++) {
            ZmtpMessage message = batch.take(i);
            if (message == null) {
                continue;
            }
            try {
                encodeMessage(ctx, message);
                frames.end();
            } catch (Throwable t) {
                frames.rollback();
                if (failure == null) {
                    failure = t;
                }
                if (message.refCnt() > 0) {
                    message.release();
                }
                continue;
            }
            message.release();
            if (frames.isBatchFull()) {
                writeBatch(ctx);
            }
        }
        batch.release();
        if (failure != null) {
            promise.tryFailure(failure);
        } else {
            addPromise(promise);
        }
    }

    private void encodeMessage(ChannelHandlerContext ctx, ZmtpMessage message) {
        if (!message.isAccessible()) {
            // A released message reports no frames; it must not go out as an empty one.
            throw new IllegalReferenceCountException("ZmtpMessage written after it was released");
        }
        int count = message.size();
        if (count == 0) {
            // As libzmq sends an empty zmq_msg_t: one empty frame (see ZmtpMessage#create).
            frames.begin(ctx.alloc(), 2);
            frames.writeFrame(Unpooled.EMPTY_BUFFER, false);
            return;
        }
        frames.begin(ctx.alloc(), frames.estimate(message));
        int last = count - 1;
        for (int i = 0; i < last; i++) {
            frames.writeFrame(message.frame(i), true);
        }
        frames.writeFrame(message.frame(last), false);
    }

    private void addPromise(ChannelPromise promise) {
        if (promise.isVoid()) {
            return;
        }
        if (batchPromise == null) {
            batchPromise = promise;
        } else {
            if (morePromises == null) {
                morePromises = new ArrayList<>();
            }
            morePromises.add(promise);
        }
    }

    /** Hands the current batch on (without flushing), completing its messages' promises when it is written. */
    private void writeBatch(ChannelHandlerContext ctx) {
        ByteBuf batch = frames.takeBatch();
        if (batch == null) {
            return;
        }
        ChannelPromise promise;
        if (batchPromise == null) {
            promise = ctx.voidPromise();
        } else if (morePromises == null || morePromises.isEmpty()) {
            promise = batchPromise;
        } else {
            promise = ctx.newPromise();
            morePromises.add(batchPromise);
            promise.addListener(new PromiseNotifier<>(morePromises.toArray(new ChannelPromise[0])));
            morePromises.clear();
        }
        batchPromise = null;
        ctx.write(batch, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeBatch(ctx);
        ctx.flush();
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        // Written but never flushed: like Netty's own outbound buffer, closing fails such writes.
        writeBatch(ctx);
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        frames.discard();
        ZmtpCodecException removed = new ZmtpCodecException("ZmtpFrameEncoder removed before flush");
        if (batchPromise != null) {
            batchPromise.tryFailure(removed);
            batchPromise = null;
        }
        if (morePromises != null) {
            for (ChannelPromise p : morePromises) {
                p.tryFailure(removed);
            }
            morePromises.clear();
        }
    }
}
