package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the model-checking tests (*LincheckTest) build their pipes from: a listener that counts one pipe's wake-ups,
 * messages that own no memory, and the inproc join. Nothing here loops: Lincheck runs a test's constructor for every
 * interleaving it explores, and reads a long loop as a livelock.
 */
final class LincheckPipes {
    static final String ENDPOINT = "inproc://lincheck";

    private LincheckPipes() {
    }

    /**
     * One pipe's socket, as far as the pipe can tell: accepts the connection and counts the pipe's signals. A thread
     * that finds nothing to do reads {@link #count} first, as {@code SocketBase} reads its {@code Signal}'s sequence
     * before it looks: a signal after that read is a wake-up it would not sleep through.
     */
    static final class Signals implements PipeListener {
        private final AtomicInteger count = new AtomicInteger();

        int count() {
            return count.get();
        }

        @Override
        public boolean pipeConnected(Pipe pipe) {
            return true;
        }

        @Override
        public void pipeDisconnected(Pipe pipe) {
        }

        @Override
        public void pipeActivity(Pipe pipe) {
            count.incrementAndGet();
        }
    }

    /** A message of one empty frame ({@code Unpooled.EMPTY_BUFFER}: no memory to leak), told apart by {@code id}. */
    static ZmtpMessage message(int id) {
        return ZmtpMessage.wrap(Unpooled.EMPTY_BUFFER).routingId(id);
    }

    /**
     * A handshake's result, for {@code onHandshake}. Tests make it in their constructor, never in an operation: made
     * inside one (metadata built, maps filled), it kept the model checker from ever switching threads inside the
     * handshake that followed, and a zombie pipe (a handshake's plain write of ACTIVE over a concurrent terminate) went
     * unseen in 3,000 interleavings; made beforehand, the first few hundred found it.
     */
    static ZmtpHandshakeSuccessEvent handshake(ZmtpSocketType peer) {
        return new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL",
                ZmtpMetadata.builder().socketType(peer).build(), null);
    }

    /**
     * Joins {@code writer} (a connecting pipe) and {@code reader} (an accepted one) as an inproc connection does
     * once both handshakes are done: returns the writer's link (writer to reader).
     */
    static InprocLink join(Pipe writer, StubChannel writerChannel, Pipe reader, StubChannel readerChannel) {
        InprocEnd w = new InprocEnd(writer, writerChannel);
        InprocEnd r = new InprocEnd(reader, readerChannel);
        writer.onHandshake(writerChannel, handshake(ZmtpSocketType.PULL), w, r);
        reader.onHandshake(readerChannel, handshake(ZmtpSocketType.PUSH), r, w);
        InprocLink link = writer.outbound().link();
        if (link == null || !link.isOpen()) {
            throw new IllegalStateException("not joined: " + writer + ", " + reader);
        }
        return link;
    }
}
