package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMessage;

/**
 * What a pipe received, on its way to the application: the inbound queue ({@link InboundQueue}, which states its
 * rules), the RCVHWM flow control on the connection, and over inproc the peer's queue read through {@code link}
 * ({@link InprocLink}, which states that path's invariants). {@link #poll} takes from the inbound queue first (a
 * connection's subscriptions, what a link left when it ended), then from the link.
 *
 * <h2>Threads</h2>
 * The I/O thread adds ({@link #onInbound}), publishing a batch when it fills and at the end of each read
 * ({@link #onReadComplete}, which then wakes readers once); over inproc, whole batches come from any thread
 * ({@link #deliver}); user threads take under the socket lock ({@link #poll}).
 *
 * <p>RCVHWM: when the queue reaches it the I/O thread stops the channel reading ({@code autoRead=false},
 * {@code readPaused}); a reader that has taken the queue down to half of it asks the channel's loop to resume, which
 * looks at the queue again there. {@code readPaused} is volatile, and the I/O thread looks at the queue once more
 * after setting it, for an application that took the queue down before it could see the flag.
 */
final class InboundFlow {
    private final Pipe pipe;
    private final PipeCounters counters;
    private final int rcvHwm;
    /**
     * Reading resumes once the application has taken the inbound queue down to here: half the HWM, so a consumer
     * slightly slower than the connection doesn't flip auto-read (an epoll_ctl each time) on every message.
     */
    private final int resumeAt;
    private final InboundQueue queue = new InboundQueue();
    private volatile boolean readPaused;
    /** I/O thread only: messages were queued since readers were last signalled. */
    private boolean unsignaled;

    // inproc (see InprocLink)
    /** The link whose queue this pipe reads: the current connection's, or the last one's. */
    private volatile InprocLink link;
    /** What this pipe's socket takes from an inproc peer; set before the connection's hello goes out. */
    private volatile boolean readsMessages = true;
    private volatile InboundCommands commands = InboundCommands.NONE;
    /** User side: the batch reads from an inproc peer's queue fill, reused. */
    private InboundBatch linkBatch;

    InboundFlow(Pipe pipe, PipeCounters counters, int rcvHwm) {
        this.pipe = pipe;
        this.counters = counters;
        this.rcvHwm = rcvHwm;
        this.resumeAt = rcvHwm / 2;
    }

    int rcvHwm() {
        return rcvHwm;
    }

    /** Messages received and not yet taken by the application (approximate while messages flow). */
    int depth() {
        InprocLink l = link;
        long linked = l != null && l.isLive() ? l.queue.size() : 0;
        return (int) Math.min(Integer.MAX_VALUE, queue.depth() + linked);
    }

    /** Messages in the queue (for toString). */
    int count() {
        return queue.count();
    }

    /** Bytes of the received messages not yet taken by the application. */
    long bytes() {
        return queue.bytes();
    }

    boolean isReadPaused() {
        return readPaused;
    }

    /** A connection came up: it reads from the start. */
    void resetReadPaused() {
        readPaused = false;
    }

    boolean hasInput() {
        if (queue.hasNext()) {
            return true;
        }
        InprocLink l = link;
        return l != null && l.readerHasInput();
    }

    /** See {@link Pipe#hasInputToDrain}. Lock held. */
    boolean hasInputToDrain() {
        // The link first, the queue second: a hand-over (another thread) fills the queue, then marks the link done.
        // Looked at the other way round, a hand-over between the two looks left both empty-handed (the queue not
        // yet filled, the link already done), and the socket dropped the pipe with the messages just handed to it.
        InprocLink l = link;
        if (l != null && l.owesReader()) {
            return true;
        }
        return hasInput();
    }

    /** Takes the next inbound message (ownership passes to the caller), or null. */
    ZmtpMessage poll() {
        for (;;) {
            ZmtpMessage m = queue.next();
            if (m != null) {
                return m;
            }
            int left = queue.takeBatch();
            if (left >= 0) {
                if (readPaused && left <= resumeAt) {
                    Channel ch = pipe.channel();
                    if (ch != null) {
                        ch.eventLoop().execute(() -> maybeResume(ch));
                    }
                }
                continue;
            }
            InboundBatch b = takeFromLink();
            if (b == null) {
                return null;
            }
            queue.take(b);
        }
    }

    /** Inproc: the next batch from the peer's queue, or null (the reader's wake-up armed). User side. */
    private InboundBatch takeFromLink() {
        InprocLink l = link;
        if (l == null) {
            return null;
        }
        InboundBatch b = linkBatch;
        if (b == null) {
            linkBatch = b = new InboundBatch(InboundQueue.BATCH);
        } else {
            b.clear();
        }
        if (l.take(b)) {
            return b;
        }
        if (l.transferPending()) {
            // Whoever holds the writer's queue hands it over when it lets go; it signals this socket.
            l.writer.outbound().service();
        }
        return null;
    }

    /** I/O thread: a message read from the connection. */
    void onInbound(ZmtpMessage msg) {
        if (pipe.isTerminated()) {
            msg.release();
            return;
        }
        if (queue.add(msg)) {
            publish();
        }
        if (rcvHwm > 0 && !readPaused && queue.depthWithFilling() >= rcvHwm) {
            Channel ch = pipe.channel();
            if (ch != null) {
                readPaused = true;
                ch.config().setAutoRead(false);
                // The application may have emptied the queue before it could see readPaused.
                if (queue.count() <= resumeAt) {
                    maybeResume(ch);
                }
            }
        }
        // Readers are woken once per read from the socket, not once per message (see onReadComplete).
        unsignaled = true;
    }

    /** Hands the batch being filled to readers (I/O thread). */
    void publish() {
        int n = queue.publish();
        if (n > 0) {
            counters.addReceived(n);
            if (pipe.isTerminated()) {
                pipe.releaseQueued();
            }
        }
    }

    /** The end of a read from the connection: publish what arrived and wake readers. */
    void onReadComplete() {
        publish();
        if (unsignaled) {
            unsignaled = false;
            pipe.signalActivity();
        }
    }

    private void maybeResume(Channel ch) {
        if (readPaused && pipe.channel() == ch && queue.count() <= resumeAt) {
            readPaused = false;
            ch.config().setAutoRead(true);
        }
    }

    /** User side (terminate): everything queued, including the batch being taken from. */
    void releaseAll() {
        queue.releaseAll();
    }

    /** Either side: the queue (thread-safe), not the batch a reader is taking from. */
    void releaseQueued() {
        queue.releaseQueued();
    }

    // ---- inproc (see InprocLink)

    /** What this pipe's socket takes from an inproc peer; set before a connection's hello goes out. */
    void readRules(boolean readsMessages, InboundCommands commands) {
        this.readsMessages = readsMessages;
        this.commands = commands;
    }

    void link(InprocLink link) {
        this.link = link;
    }

    /**
     * Any thread: what this pipe's socket takes of an object from an inproc peer's queue, converted as
     * {@link PipeHandler} converts what a connection reads; null when it takes nothing (the object is released).
     */
    ZmtpMessage admit(InprocLink link, Object m) {
        if (m instanceof OutboundQueue.ForConnection) {
            OutboundQueue.ForConnection f = (OutboundQueue.ForConnection) m;
            if (f.channel != link.writerChannel) {
                // Meant for an earlier connection; this one started with the current subscription set.
                ReferenceCountUtil.release(f.msg);
                return null;
            }
            m = f.msg;
        }
        if (m instanceof TrackedMessage) {
            // Over inproc, taken by the reader is delivered.
            m = ((TrackedMessage) m).deliverInproc();
        }
        if (m instanceof ZmtpMessage) {
            if (readsMessages) {
                return (ZmtpMessage) m;
            }
            ((ZmtpMessage) m).release();
            return null;
        }
        if (m instanceof ZmtpCommand) {
            return commands.toMessage((ZmtpCommand) m);
        }
        ReferenceCountUtil.release(m);
        return null;
    }

    /** Any thread: messages from an inproc peer (a connection's subscriptions, what a link left when it ended). */
    void deliver(InboundBatch batch) {
        int n = batch.size();
        queue.addBatch(batch);
        counters.addReceived(n);
        if (pipe.isTerminated()) {
            queue.releaseQueued();
        }
    }
}
