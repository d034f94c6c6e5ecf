package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageReader;

import java.util.List;

/**
 * A connection's message reader on a socket: builds each message as {@code DefaultZmtpMessageReader} does (frames are
 * retained slices of the read buffer) and hands it to the {@link Pipe} from inside the decoder, instead of sending it
 * down the pipeline. A message then costs no pipeline hop (heartbeat handler, {@link PipeHandler}) and no entry in the
 * decoder's output list. Commands still travel the pipeline, and the decoder passes each on before it reads further,
 * so a SUBSCRIBE keeps its place among the messages around it. A socket that reads no messages (PUB) skips their
 * bytes without building anything.
 */
final class PipeMessageReader implements ZmtpMessageReader {
    private final Pipe pipe;
    private final boolean readsMessages;
    private ZmtpMessage message;

    PipeMessageReader(Pipe pipe, boolean readsMessages) {
        this.pipe = pipe;
        this.readsMessages = readsMessages;
    }

    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
        if (!readsMessages) {
            in.skipBytes(length);
            return;
        }
        // An empty slice would still pin the whole read buffer, and empty frames are a flooding peer's cheapest.
        ByteBuf frame = length == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(length);
        ZmtpMessage m = message;
        if (m == null) {
            if (!more) {
                pipe.onInbound(ZmtpMessage.wrap(frame));
                return;
            }
            message = m = ZmtpMessage.create();
        }
        m.add(frame);
        if (!more) {
            message = null;
            pipe.onInbound(m);
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
