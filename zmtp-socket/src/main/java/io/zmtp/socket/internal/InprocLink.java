package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketEvent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One direction of one inproc connection: the writing pipe's outbound queue, read by the reading pipe (of the other
 * socket) as its inbound, as libzmq's pipe pairs share a ypipe per direction. No thread and no channel in between:
 * the writer offers under its socket's lock, the reader polls under its own, claiming the queue's consumer side once
 * per batch of up to 64 messages. The connection's {@code LocalChannel}s carry only the hello and the close.
 *
 * <h2>Life</h2>
 * The two ends of a connection meet on the inproc thread (all of a context's inproc channels are on that one
 * thread): the first whose hello exchange is done waits, the second {@link #join}s both. The join makes the pipes
 * active, each telling its socket (CONNECTED; a PAIR may refuse, and then nothing is joined), puts each side's
 * subscriptions (a SUB's set) straight into the other's inbound queue, and {@link #open}s the two links: each
 * reader's {@code inLink} points at the other's queue. Until the join neither pipe is active, so nothing is sent
 * on a connection before both sockets have it. The queue belongs to the writer throughout: it outlives the link, a
 * connecting pipe's queue carrying what it holds over to the next connection, as over tcp.
 *
 * <p>The link ends ({@link #detach}) when the writer's channel goes inactive or the writer's pipe terminates. What the
 * writer had queued by then (up to {@code end}, its count of messages queued) is the reader's, as what a tcp
 * connection has delivered is, and as libzmq's inproc pipes keep a writer's messages for its reader after the writer
 * closes: whoever next holds the queue's consumer side moves them into the reader's inbound queue
 * ({@link #transfer}), where the reader drains them like any other. A reader that terminated gets nothing: the
 * messages stay the writer's (the next connection's, or discarded when the writer terminates). So every message is
 * taken by one reader, or released by the writer's {@code discardOutput}, or by the reader's terminate, whichever
 * side goes first. Two rules keep what was sent from being dropped on the way: the writer's {@code discardOutput}
 * leaves a live link's messages alone (they are the reader's already), and a disconnected reader keeps draining
 * until its writer has seen the end and handed over ({@link #owesReader}), which the reader asks before it looks at
 * its inbound queue: the hand-over fills that queue first and marks the link done second.
 *
 * <p>Every socket type takes this path; no message travels over the {@code LocalChannel}s.
 *
 * <h2>Threads and wake-ups</h2>
 * <ul>
 *   <li>The queue's producer is the writer's lock holder; its consumer, one at a time through
 *       {@code tryClaim}/{@code unclaim}, is the reader's lock holder ({@link #take}), or a thread running a transfer
 *       or a discard ({@code OutboundQueue.service}). Each claim holder, after letting go, runs whatever transfer or
 *       discard was asked for while it held the queue (request, then try to claim; let go, then look for requests:
 *       volatile on both sides, so one of the two runs it).</li>
 *   <li>The reader is woken only when it may be waiting: a reader that finds the queue empty sets
 *       {@code readerIdle} and looks again; a writer that has queued a message reads {@code readerIdle} and, if set,
 *       clears it and signals the reader's socket. Both are volatile (the queue publishes with a volatile store and
 *       reads with a volatile load), so either the reader's second look sees the message or the writer sees the
 *       flag: no message without a wake-up, and no atomic read-modify-write per message.</li>
 *   <li>The writer is woken only when it found no room: it sets {@code writerBlocked}, fences, and checks for room
 *       again; the reader, after publishing what it took, fences and reads the flag. The room is the writer's SNDHWM
 *       plus the reader's RCVHWM (libzmq's rule; either at 0: no limit).</li>
 *   <li>A signal goes to a socket's {@link Signal}, whose listeners (poller, asynchronous calls) must not block or
 *       take locks, so signalling a peer socket while holding one's own lock is safe.</li>
 * </ul>
 */
final class InprocLink {
    private static final int LIVE = 0;
    /** Ended; what was sent before the end is still to be handed to the reader. */
    private static final int ENDED = 1;
    /** Ended and handed over (or nothing to hand over). */
    private static final int DONE = 2;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(InprocLink.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Pipe writer;
    final Pipe reader;
    final SpscChunkedQueue<Object> queue;
    /** The writer's channel: identifies the connection (subscription changes meant for it, its end). */
    final Channel writerChannel;
    /** Messages the queue may hold while the link is live; 0 for no limit. */
    final int limit;

    @SuppressWarnings("unused") // through STATE
    private volatile int state = LIVE;
    /** The writer's count of messages queued when the link ended: those before it are the reader's. */
    private volatile long end = Long.MAX_VALUE;
    /** Set when the reader may read (the join is complete). */
    private volatile boolean opened;
    volatile boolean readerIdle;
    volatile boolean writerBlocked;

    /** The reader, under its lock: what one take polls, before conversion. */
    private Object[] scratch;
    /** The inproc thread, until open(): subscriptions for the reader, ahead of anything queued. */
    private InboundBatch staged;

    /**
     * Tests only: run by {@link #join} after both pipes are active and before the links open, the moment a writer
     * may already send and close (InprocJoinRaceTest holds the inproc thread there). Null otherwise: one volatile
     * read per connection.
     */
    static volatile Runnable beforeOpenForTests;

    private InprocLink(Pipe writer, Pipe reader, Channel writerChannel) {
        this.writer = writer;
        this.reader = reader;
        this.queue = writer.outbound().queue();
        this.writerChannel = writerChannel;
        int sndHwm = writer.sndHwm();
        int rcvHwm = reader.inbound().rcvHwm();
        this.limit = sndHwm <= 0 || rcvHwm <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, (long) sndHwm + rcvHwm);
    }

    /**
     * Joins the two ends of a connection, both handshakes done (the inproc thread): makes both pipes active, each
     * writing into a queue the other reads. If either socket refuses the connection, or either end is gone, nothing is
     * joined and the connection is closed.
     */
    static void join(InprocEnd a, InprocEnd b) {
        Pipe pa = a.pipe;
        Pipe pb = b.pipe;
        if (!a.channel.isActive() || !b.channel.isActive() || pa.isTerminated() || pb.isTerminated()) {
            a.channel.close();
            b.channel.close();
            return;
        }
        InprocLink ab = new InprocLink(pa, pb, a.channel);
        InprocLink ba = new InprocLink(pb, pa, b.channel);
        // Each reader knows its link before either pipe is active: from activation on, a writer may send and close,
        // and its reader, disconnected, must then keep its pipe until the hand-over (owesReader), which open() makes.
        pb.inbound().link(ab);
        pa.inbound().link(ba);
        if (!pa.activateJoined(a.channel, a.arrived, ab)) {
            ab.abandon();
            ba.abandon();
            a.channel.close();
            return;
        }
        if (!pb.activateJoined(b.channel, b.arrived, ba)) {
            ab.abandon();
            ba.abandon();
            b.channel.close();
            return;
        }
        pa.writeSubscriptions();
        pb.writeSubscriptions();
        Runnable hook = beforeOpenForTests;
        if (hook != null) {
            hook.run();
        }
        ab.open();
        ba.open();
        a.joined = true;
        b.joined = true;
        pa.signalActivity();
        pb.signalActivity();
        pa.emit(ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED, a.channel, null);
        pb.emit(ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED, b.channel, null);
        // An end whose socket closed before the name was bound (Pipe.park): what it queued is the peer's now, handed
        // over as the link ends, and the connection closes.
        if (pa.isParked()) {
            pa.terminate();
        }
        if (pb.isParked()) {
            pb.terminate();
        }
    }

    boolean isLive() {
        return state == LIVE;
    }

    // ---------------------------------------------------------------- the inproc thread, while joining

    boolean isOpen() {
        return opened;
    }

    /** Before {@link #open}: hands {@code msg} (a subscription) to the reader ahead of anything in the queue. */
    void stage(Object msg) {
        ZmtpMessage m = reader.inbound().admit(this, msg);
        if (m == null) {
            return;
        }
        if (staged == null) {
            staged = new InboundBatch(SpscChunkedQueue.CHUNK_SIZE / 4);
        }
        staged.add(m);
        if (staged.isFull()) {
            reader.inbound().deliver(staged);
            staged = null;
        }
    }

    /** Makes the queue readable by the reader (linked to it since the join began), after the subscriptions staged. */
    private void open() {
        if (staged != null) {
            reader.inbound().deliver(staged);
            staged = null;
        }
        opened = true;
        // The pipes were active before this: a writer may have sent and ended the link already (a thread that sends
        // and closes at once, as soon as its socket is writable). Its transfer found the link not yet open and left
        // the hand-over to this (opened, then state: volatile both, against end() then transfer(), so one of the two
        // hands over; a second transfer finds the link done and does nothing).
        if (state == ENDED) {
            writer.outbound().requestTransfer(this);
        }
    }

    /** The connection was refused: nobody reads the link, the queue stays the writer's. */
    void abandon() {
        if (!STATE.compareAndSet(this, LIVE, DONE) && STATE.compareAndSet(this, ENDED, DONE)) {
            // The writer ended the link before the refusal, and its discard is waiting for a hand-over that won't come.
            writer.outbound().service();
        }
    }

    /**
     * The connection ended (any thread; once). What the writer has queued so far is the reader's: handed over by
     * whoever next holds the queue, at once if nobody does.
     */
    void detach() {
        if (end()) {
            writer.outbound().requestTransfer(this);
        }
    }

    /**
     * The first half of {@link #detach}: ends the link and fixes what is the reader's; false if it had ended. Until
     * the caller has requested the transfer, another thread may find the link ended and no transfer queued: a
     * discard then waits for it ({@link OutboundQueue#service}).
     */
    boolean end() {
        if (!STATE.compareAndSet(this, LIVE, ENDED)) {
            return false;
        }
        end = queue.producedCount();
        return true;
    }

    // ---------------------------------------------------------------- writer, under its lock

    /** After the writer queued a message: wakes the reader if it may be waiting. */
    void wakeReader() {
        if (readerIdle && isLive()) {
            readerIdle = false;
            reader.signalActivity();
        }
    }

    /** Whether the writer may queue a message; if not, asks the reader for a wake-up when it takes some. */
    boolean writerHasRoom(int sndHwm) {
        if (!isLive()) {
            // Between connections: the queue counts against SNDHWM alone, as a connecting pipe's does over tcp.
            return queue.producerBelow(sndHwm);
        }
        if (queue.producerBelow(limit)) {
            return true;
        }
        writerBlocked = true;
        VarHandle.fullFence();
        return queue.producerBelow(limit);
    }

    /** Whether the writer has messages the reader hasn't taken; if so, asks for a wake-up when it takes some. */
    boolean writerHasPending() {
        if (queue.isEmpty()) {
            return false;
        }
        if (isLive()) {
            writerBlocked = true;
            VarHandle.fullFence();
            return !queue.isEmpty();
        }
        return true;
    }

    // ---------------------------------------------------------------- reader, under its lock

    /** Whether {@link #take} would find something, or a hand-over is still to come; arms the reader's wake-up if not. */
    boolean readerHasInput() {
        if (!opened) {
            return false;
        }
        int s = state;
        if (s == LIVE) {
            if (!queue.isEmpty()) {
                return true;
            }
            readerIdle = true;
            return !queue.isEmpty();
        }
        return s == ENDED;
    }

    /**
     * Whether the reader may still get something: the link is not yet handed over nor refused. (A reader whose own
     * channel closed first drains until the writer sees the end: what the writer sent until then is the reader's.)
     * Open or not: between the pipes' activation and {@link #open} a writer may send and end the link, its reader be
     * disconnected, and the hand-over come only with open(); a reader that let its pipe go meanwhile lost the message
     * (InprocIT's send-and-close test, about once in four CI runs).
     */
    boolean owesReader() {
        return state != DONE;
    }

    /** Whether what was sent before the link ended is still to be handed to the reader. */
    boolean transferPending() {
        return state == ENDED;
    }

    /**
     * Moves up to a batch of messages from the queue into {@code into} (empty), converted for the reader's socket.
     * Returns false, with the reader's wake-up armed, if there was none.
     */
    boolean take(InboundBatch into) {
        SpscChunkedQueue<Object> q = queue;
        for (;;) {
            if (!opened || !isLive()) {
                // Not yet readable, or ended: then the rest comes through the reader's inbound queue.
                return false;
            }
            if (q.isEmpty()) {
                readerIdle = true;
                if (q.isEmpty()) {
                    return false;
                }
            }
            if (!q.tryClaim()) {
                // A transfer or a discard holds it for a moment; it looks at readerIdle after letting go.
                readerIdle = true;
                if (!q.tryClaim()) {
                    return false;
                }
            }
            int taken = 0;
            try {
                if (isLive()) {
                    Object[] polled = scratch;
                    if (polled == null) {
                        scratch = polled = new Object[into.capacity()];
                    }
                    taken = q.poll(polled, into.capacity());
                    InboundFlow in = reader.inbound();
                    for (int i = 0; i < taken; i++) {
                        ZmtpMessage admitted = in.admit(this, polled[i]);
                        polled[i] = null;
                        if (admitted != null) {
                            into.add(admitted);
                        }
                    }
                }
            } finally {
                q.unclaim();
            }
            afterConsuming(taken, into.size());
            if (into.size() > 0) {
                return true;
            }
            if (taken == 0) {
                return false;
            }
            // Everything taken was dropped (a subscription change for an earlier connection): look again.
        }
    }

    /** After a consumer let go of the queue: counts, wakes a blocked writer, runs what was asked meanwhile. */
    private void afterConsuming(int taken, int delivered) {
        if (taken > 0) {
            // The consumed position (published by unclaim) before the flag: Dekker with writerHasRoom.
            VarHandle.fullFence();
            if (writerBlocked) {
                writerBlocked = false;
                writer.signalActivity();
            }
            writer.countSent(taken);
            reader.countReceived(delivered);
        }
        writer.outbound().service();
    }

    // ---------------------------------------------------------------- whoever holds the queue's consumer side

    /** Hands the reader what was sent before the link ended (queue claimed; after {@link #detach}). */
    void transfer() {
        if (state != ENDED) {
            // Handed over already, or refused: open() and the writer's end may both ask.
            return;
        }
        if (!opened && !reader.isTerminated()) {
            // Ended while the join was between activating the pipes and opening the links: what was sent is the
            // reader's all the same; open() asks again, and a discard waits until then (transferPending).
            return;
        }
        int taken = 0;
        if (opened && !reader.isTerminated()) {
            InboundBatch batch = null;
            long last = end;
            Object m;
            while (queue.consumerPosition() < last && (m = queue.poll()) != null) {
                taken++;
                ZmtpMessage admitted = reader.inbound().admit(this, m);
                if (admitted == null) {
                    continue;
                }
                if (batch == null) {
                    batch = new InboundBatch(SpscChunkedQueue.CHUNK_SIZE / 4);
                }
                batch.add(admitted);
                if (batch.isFull()) {
                    reader.inbound().deliver(batch);
                    batch = null;
                }
            }
            if (batch != null) {
                reader.inbound().deliver(batch);
            }
        }
        state = DONE;
        if (taken > 0) {
            writer.countSent(taken);
            writer.signalActivity();
        }
        // Whether or not it got anything: a reader draining this link may now let the pipe go.
        reader.signalActivity();
    }

    /** After a discard or transfer let go of the queue: a reader that found it held is waiting for a look. */
    void afterServiced() {
        if (readerIdle && isLive() && !queue.isEmpty()) {
            readerIdle = false;
            reader.signalActivity();
        }
    }
}
