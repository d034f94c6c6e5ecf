package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.zmtp.codec.DefaultZmtpMessageReader;
import io.zmtp.codec.ZmtpMessageReader;

import java.util.List;

/**
 * A connection's message reader on a socket: the codec's {@link DefaultZmtpMessageReader} handing each message to the
 * {@link Pipe} from inside the decoder, instead of sending it down the pipeline. A message then costs no pipeline hop
 * (heartbeat handler, {@link PipeHandler}) and no entry in the decoder's output list. Commands still travel the
 * pipeline, and the decoder passes each on before it reads further, so a SUBSCRIBE keeps its place among the messages
 * around it. A socket that reads no messages (PUB) skips their bytes without building anything.
 */
final class PipeMessageReader implements ZmtpMessageReader {
    /** Null if the socket reads no messages. */
    private final DefaultZmtpMessageReader messages;

    PipeMessageReader(Pipe pipe, boolean readsMessages) {
        this.messages = readsMessages ? new DefaultZmtpMessageReader(pipe.inbound()::onInbound) : null;
    }

    @Override
    public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
        if (messages == null) {
            in.skipBytes(length);
        } else {
            messages.readFrame(ctx, in, length, more, out);
        }
    }

    @Override
    public void discard() {
        if (messages != null) {
            messages.discard();
        }
    }
}
