package io.zmtp.socket.transport;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeException;
import io.zmtp.codec.ZmtpHandshakeFailureEvent;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessageBatch;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An inproc connection's handler, where tcp has the ZMTP handshake and codec. Each side sends one {@link Hello}
 * (its metadata and its {@link Window}); on the peer's, the socket types are checked as the codec checks them and
 * the same {@link ZmtpHandshakeSuccessEvent} is fired (ZMTP 3.1, NULL), so the socket's handler can't tell inproc
 * from tcp. After that messages and commands pass through untouched.
 *
 * <p>It stays in the pipeline for flow control. A {@code LocalChannel} hands written messages to the peer's inbound
 * queue at once, whether or not the peer reads: with the peer's reading paused at its RCVHWM, nothing would ever
 * push back on the writer. So each direction has a window of {@link #WINDOW} messages written and not yet read by
 * the peer; a full window makes the writing channel unwritable (a user-defined writability bit), which stops the
 * pipe's drain just as a full socket buffer does over tcp, and the pipe then fills to SNDHWM.
 */
final class InprocHandler extends ChannelDuplexHandler {
    /** Messages in flight per direction; the part a socket buffer plays over tcp. */
    static final int WINDOW = 1024;
    private static final int WRITABILITY_BIT = 1;

    /** What one side tells the other instead of a greeting. */
    static final class Hello {
        final ZmtpMetadata metadata;
        final Window window;

        Hello(ZmtpMetadata metadata, Window window) {
            this.metadata = metadata;
            this.window = window;
        }
    }

    /**
     * Messages one side has written and the other hasn't read. The writer counts up on its loop; the reader counts
     * down after each read, on its loop. Blocking and unblocking run on the writer's loop; each side re-checks the
     * other's state after publishing its own (count, then flag; flag, then count), so an unblock is never lost.
     * Unblocking is always a task of its own: done inline it would fire writability inside the pipe's drain (a
     * nested drain would write out of order, or inside a flush, where Netty ignores the nested flush).
     */
    static final class Window {
        private final Channel writer;
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile boolean blocked;
        private final Runnable resume = this::maybeResume;

        Window(Channel writer) {
            this.writer = writer;
        }

        /** Writer's loop. */
        void written(int n) {
            if (inFlight.addAndGet(n) >= WINDOW && !blocked) {
                blocked = true;
                setWritable(false);
                if (inFlight.get() <= WINDOW / 2) {
                    writer.eventLoop().execute(resume);
                }
            }
        }

        /** Reader's loop. */
        void read(int n) {
            if (inFlight.addAndGet(-n) <= WINDOW / 2 && blocked) {
                writer.eventLoop().execute(resume);
            }
        }

        private void maybeResume() {
            if (blocked && inFlight.get() <= WINDOW / 2) {
                blocked = false;
                setWritable(true);
            }
        }

        private void setWritable(boolean writable) {
            ChannelOutboundBuffer out = writer.unsafe().outboundBuffer();
            if (out != null) {
                out.setUserDefinedWritability(WRITABILITY_BIT, writable);
            }
        }
    }

    private final ZmtpConfig config;
    private Window out;
    private Window peerWindow;
    private boolean helloSent;
    private boolean done;
    /** Messages read since the last credit to the peer. */
    private int unread;

    InprocHandler(ZmtpConfig config) {
        this.config = config;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        out = new Window(ctx.channel());
        if (ctx.channel().isActive()) {
            sendHello(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        sendHello(ctx);
        super.channelActive(ctx);
    }

    private void sendHello(ChannelHandlerContext ctx) {
        if (!helloSent) {
            helloSent = true;
            ctx.writeAndFlush(new Hello(config.localMetadata(), out), ctx.voidPromise());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (done) {
            unread++;
            ctx.fireChannelRead(msg);
            return;
        }
        if (!(msg instanceof Hello)) {
            // Nothing else can come first from an inproc peer.
            ReferenceCountUtil.release(msg);
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.PROTOCOL_ERROR,
                    "inproc peer sent " + msg.getClass().getSimpleName() + " before its hello"));
            return;
        }
        Hello hello = (Hello) msg;
        ZmtpSocketType peerType = hello.metadata.socketType();
        if (peerType == null || !config.socketType().isCompatibleWith(peerType)) {
            fail(ctx, new ZmtpHandshakeException(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE,
                    "peer socket type " + (peerType == null ? "missing" : peerType.name()) + " can't talk to "
                            + config.socketType()));
            return;
        }
        peerWindow = hello.window;
        done = true;
        ctx.fireUserEventTriggered(new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL", hello.metadata,
                ctx.channel().remoteAddress()));
    }

    private void fail(ChannelHandlerContext ctx, ZmtpHandshakeException cause) {
        ctx.fireUserEventTriggered(new ZmtpHandshakeFailureEvent(cause, ctx.channel().remoteAddress()));
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (unread > 0) {
            // Credited once per read, not per message: with both ends on one loop this is every flush of the peer.
            peerWindow.read(unread);
            unread = 0;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ZmtpMessageBatch) {
            // Sent apart: a LocalChannel reads inline when its reading resumes, so the peer, resuming in the middle
            // of a batch, would read what came after it before the batch's rest.
            ZmtpMessageBatch batch = (ZmtpMessageBatch) msg;
            int n = batch.size();
            for (int i = 0; i < n; i++) {
                ctx.write(batch.take(i), ctx.voidPromise());
            }
            batch.release();
            out.written(n);
            promise.trySuccess();
            return;
        }
        ctx.write(msg, promise);
        if (!(msg instanceof Hello)) {
            out.written(1);
        }
    }
}
