package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The default {@link ZmtpMessageReader}: builds a {@link ZmtpMessage} whose frames are retained slices of the read
 * buffer (no payload copy), and sends it down the pipeline, or hands it to a consumer of the application's from inside
 * the decoder (no pipeline hop per message; commands still go down the pipeline, each before the frames after it).
 */
public final class DefaultZmtpMessageReader implements ZmtpMessageReader {
    /** Where finished messages go; null: down the pipeline. */
    private final Consumer<? super ZmtpMessage> consumer;
    private ZmtpMessage message;

    /** Messages go down the pipeline. */
    public DefaultZmtpMessageReader() {
        this.consumer = null;
    }

    /**
     * Messages go to {@code consumer}, on the connection's event loop, which takes ownership of each (it must release
     * them).
     */
    public DefaultZmtpMessageReader(Consumer<? super ZmtpMessage> consumer) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
    }

    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
        // An empty slice would still pin the whole read buffer, and empty frames are a flooding peer's cheapest.
        ByteBuf frame = length == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(length);
        ZmtpMessage m = message;
        if (m == null) {
            if (!more) {
                deliver(ZmtpMessage.wrap(frame), out);
                return;
            }
            message = m = ZmtpMessage.create();
        }
        m.add(frame);
        if (!more) {
            message = null;
            deliver(m, out);
        }
    }

    private void deliver(ZmtpMessage m, List<Object> out) {
        if (consumer == null) {
            out.add(m);
        } else {
            consumer.accept(m);
        }
    }

    @Override
    public void discard() {
        ZmtpMessage m = message;
        if (m != null) {
            message = null;
            m.release();
        }
    }
}
