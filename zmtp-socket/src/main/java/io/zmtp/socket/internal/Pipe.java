package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageBatch;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.net.SocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything about one peer: its connection, what it announced, and its two queues. A connecting socket's pipe lives
 * from {@code connect()} to {@code disconnect()} and outlives reconnections; a bound socket's pipe lives as long as
 * its accepted connection.
 *
 * <h2>Threads</h2>
 * The inbound queue ({@link InboundQueue}, which states its rules) is filled by the I/O thread ({@link #onInbound})
 * and emptied by user threads ({@link #poll}).
 * The outbound queue ({@link SpscChunkedQueue}) the other way round: its producer is whoever holds the socket lock
 * ({@link #offer}, {@link #writeToConnection}), its consumer the drain task on the channel's event loop, a thread
 * discarding output, or the producer itself evicting the oldest message (DROP_OLDEST, {@link #offerReplacingOldest}),
 * each claiming the consumer side for a whole run. Both are lock-free; the drain is scheduled at
 * most once at a time ({@code drainScheduled}), which the drain clears before it looks at the queue and a producer
 * reads after its message is published, so a message is never left without a drain to come. Fields marked "user
 * side" are touched only under the owning socket's lock.
 *
 * <h2>Inproc</h2>
 * Over inproc the outbound queue is read by the peer's pipe itself, under the peer socket's lock: no drain, no
 * channel write ({@link InprocLink}, which states that path's invariants). Such a pipe has an {@code outLink} (its
 * queue's current or last reader) and an {@code inLink} (the peer queue it reads); {@link #poll} takes from its own
 * inbound queue first (a connection's subscriptions, what a link left when it ended), then from the link.
 *
 * <h2>High-water marks</h2>
 * RCVHWM: when the inbound queue ({@link InboundQueue}) reaches it the channel stops reading ({@code autoRead=false})
 * and resumes once the application has taken the queue down to half of it. SNDHWM: {@link #offer} refuses beyond it;
 * the drain task moves messages to the channel only while the channel is writable (Netty's write-buffer water mark),
 * so memory per peer is bounded by SNDHWM messages plus the channel's high water mark in bytes.
 */
public final class Pipe {
    /** Lifecycle. */
    public enum State {
        /** Connecting side, no live connection (never connected, or between reconnections). */
        CONNECTING,
        /** Handshake done, connection up. */
        ACTIVE,
        /** Connection gone; a bound pipe stays here until the socket drops it. */
        DISCONNECTED,
        /** Dropped by the socket; queues released. */
        TERMINATED
    }

    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final PipeListener listener;
    private final boolean connecting;
    private final String endpoint;
    private final int sndHwm;
    private final int rcvHwm;
    /**
     * Reading resumes once the application has taken the inbound queue down to here: half the HWM, so a consumer
     * slightly slower than the connection doesn't flip auto-read (an epoll_ctl each time) on every message.
     */
    private final int resumeAt;

    private volatile State state;
    private volatile Channel channel;
    private volatile ZmtpHandshakeSuccessEvent handshake;

    private final InboundQueue inbound = new InboundQueue();
    private volatile boolean readPaused;
    /** I/O thread only: messages were queued since readers were last signalled. */
    private boolean inboundUnsignaled;
    /** Produced under the socket lock; consumed by the drain on the channel's loop, or by whoever discards. */
    private final SpscChunkedQueue<Object> out = new SpscChunkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Set by {@link #discardOutput} when the drain held the queue: the drain discards on its way out. */
    private volatile boolean discardRequested;
    /** Set by a drain that found the queue held by another thread: whoever lets go schedules a drain. */
    private volatile boolean drainMissed;
    private final Runnable drainTask = this::runScheduledDrain;
    /** How many drained messages are given back to SNDHWM at once. */
    private static final int DRAIN_COUNT_BATCH = 32;
    /** Messages a drain hands the channel in one write (one pipeline crossing instead of one each). */
    private static final int WRITE_BATCH = 64;
    private final PipeCounters counters = new PipeCounters();

    // inproc (see InprocLink)
    /** The link this pipe's outbound queue feeds: the current connection's, or the last one's; null over tcp. */
    private volatile InprocLink outLink;
    /** The link whose queue this pipe reads: the current connection's, or the last one's. */
    private volatile InprocLink inLink;
    /** Links that ended with messages still to hand to their readers (by whoever holds the outbound queue). */
    private final ConcurrentLinkedQueue<InprocLink> endedLinks = new ConcurrentLinkedQueue<>();
    /** What this pipe's socket takes from an inproc peer; set before the connection's hello goes out. */
    private volatile boolean readsMessages = true;
    private volatile boolean acceptsSubscriptions;
    /** User side: the batch reads from an inproc peer's queue fill, reused. */
    private InboundBatch linkBatch;

    // user side
    private volatile byte[] routingId;
    private boolean routable;

    Pipe(PipeListener listener, boolean connecting, String endpoint, int sndHwm, int rcvHwm) {
        this.listener = listener;
        this.connecting = connecting;
        this.endpoint = endpoint;
        this.sndHwm = sndHwm;
        this.rcvHwm = rcvHwm;
        this.resumeAt = rcvHwm / 2;
        this.state = connecting ? State.CONNECTING : State.DISCONNECTED;
    }

    public long id() {
        return id;
    }

    public boolean isConnecting() {
        return connecting;
    }

    public String endpoint() {
        return endpoint;
    }

    public State state() {
        return state;
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }

    public boolean isTerminated() {
        return state == State.TERMINATED;
    }

    public ZmtpVersion version() {
        ZmtpHandshakeSuccessEvent h = handshake;
        return h == null ? null : h.version();
    }

    public ZmtpMetadata peerMetadata() {
        ZmtpHandshakeSuccessEvent h = handshake;
        return h == null ? ZmtpMetadata.EMPTY : h.peerMetadata();
    }

    public ZmtpSocketType peerSocketType() {
        return peerMetadata().socketType();
    }

    public byte[] peerIdentity() {
        return peerMetadata().identity();
    }

    public SocketAddress remoteAddress() {
        ZmtpHandshakeSuccessEvent h = handshake;
        return h == null ? null : h.remoteAddress();
    }

    public Channel channel() {
        return channel;
    }

    /** Messages received and not yet taken by the application (approximate while messages flow). */
    public int inDepth() {
        InprocLink l = inLink;
        long linked = l != null && l.isLive() ? l.queue.size() : 0;
        return (int) Math.min(Integer.MAX_VALUE, inbound.depth() + linked);
    }

    public int outDepth() {
        return (int) Math.min(Integer.MAX_VALUE, out.size());
    }

    public long droppedCount() {
        return counters.dropped();
    }

    public long receivedCount() {
        return counters.received();
    }

    public long sentCount() {
        return counters.sent();
    }

    // ---- user side (under the socket lock)

    public byte[] routingId() {
        return routingId;
    }

    public void routingId(byte[] routingId) {
        this.routingId = routingId;
    }

    public boolean isRoutable() {
        return routable;
    }

    public void routable(boolean routable) {
        this.routable = routable;
    }

    public boolean hasInput() {
        if (inbound.hasNext()) {
            return true;
        }
        InprocLink l = inLink;
        return l != null && l.readerHasInput();
    }

    /**
     * Whether a disconnected pipe has input still to come to the application: queued, or (inproc) on a peer queue
     * whose writer has not yet seen the end of the connection and will hand over what it sent until then. Lock held.
     */
    boolean hasInputToDrain() {
        if (hasInput()) {
            return true;
        }
        InprocLink l = inLink;
        return l != null && l.owesReader();
    }

    /** Takes the next inbound message (ownership passes to the caller), or null. */
    public ZmtpMessage poll() {
        for (;;) {
            ZmtpMessage m = inbound.next();
            if (m != null) {
                return m;
            }
            int left = inbound.takeBatch();
            if (left >= 0) {
                if (readPaused && left <= resumeAt) {
                    Channel ch = channel;
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
            inbound.take(b);
        }
    }

    /** Inproc: the next batch from the peer's queue, or null (the reader's wake-up armed). User side. */
    private InboundBatch takeFromLink() {
        InprocLink l = inLink;
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
            l.writer.serviceOutput();
        }
        return null;
    }

    /** Whether {@link #offer} would accept a message now. User side. */
    public boolean hasRoom() {
        if (state == State.TERMINATED) {
            return false;
        }
        InprocLink l = outLink;
        return l == null ? out.producerBelow(sndHwm) : l.writerHasRoom(sndHwm);
    }

    /**
     * Whether output is queued that a peer may still take (for close's linger); an inproc pipe then asks its reader
     * for a wake-up when it takes some.
     */
    boolean hasOutputPending() {
        InprocLink l = outLink;
        return l == null ? !out.isEmpty() : l.writerHasPending();
    }

    /**
     * Queues a message (or command) for the peer. Returns false, keeping the caller's ownership, when the pipe is
     * at SNDHWM or terminated; otherwise the pipe owns it.
     */
    public boolean offer(Object msg) {
        if (!hasRoom()) {
            return false;
        }
        msg = trackIfAsked(msg);
        // Counted before it is published: once queued, the drain may take it and the encoder consume it.
        counters.queuedOut(msg);
        out.offer(msg);
        scheduleDrain();
        return true;
    }

    /**
     * Queues {@code msg} (a subscription change) regardless of SNDHWM for the connection that is up now, and only
     * for it: if that connection is gone before the message is written, it is dropped, not replayed on the next
     * one, since a reconnection sends the whole subscription set first ({@link PipeListener#writeSubscriptions}).
     * Dropped at once when no connection is up. The pipe owns {@code msg}.
     *
     * <p>The caller updates the set that reconnections send <em>before</em> calling this, and {@link #onHandshake}
     * makes the pipe active before reading that set (both volatile), so a change is never missed by a connection
     * coming up at the same moment: either the change sees the pipe active, or the handshake sees the changed set
     * (or both, and the peer gets a harmless duplicate).
     */
    public void writeToConnection(Object msg) {
        Channel ch = channel;
        if (state != State.ACTIVE || ch == null) {
            ReferenceCountUtil.release(msg);
            return;
        }
        out.offer(new ForConnection(ch, msg));
        scheduleDrain();
    }

    /** An outbound object meant for one connection only. */
    private static final class ForConnection {
        final Channel channel;
        final Object msg;

        ForConnection(Channel channel, Object msg) {
            this.channel = channel;
            this.msg = msg;
        }
    }

    private static void release(Object queued) {
        ReferenceCountUtil.release(queued instanceof ForConnection ? ((ForConnection) queued).msg : queued);
    }

    /** Counts a message dropped for this peer (PUB at HWM). */
    public void countDrop() {
        countDrops(1);
    }

    /** Releases both queues and closes the connection; the pipe is then dead. */
    public void terminate() {
        retireCounters();
        state = State.TERMINATED;
        InprocLink l = outLink;
        if (l != null) {
            // What was sent over inproc stays the peer's to read, as with libzmq's pipes: handed over, not dropped.
            l.detach();
        }
        releaseAll();
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /**
     * Discards queued output (linger 0, or a peer that is gone), from any thread. If the drain holds the queue, it
     * discards what is left when it lets go (the request and the release are both volatile, Dekker style, so one of
     * the two always sees the other).
     */
    public void discardOutput() {
        InprocLink l = outLink;
        if (l != null && l.isLive()) {
            // Over inproc, what a live link holds is its reader's already (handed over when the link ends).
            return;
        }
        discardRequested = true;
        serviceOutput();
    }

    /**
     * Runs what was asked of the outbound queue's consumer side, from any thread, unless another thread holds it
     * (which runs it when it lets go): hand-overs of ended inproc links first, then a requested discard.
     */
    void serviceOutput() {
        int discarded = 0;
        while ((discardRequested || !endedLinks.isEmpty()) && out.tryClaim()) {
            boolean discard = discardRequested;
            discardRequested = false;
            try {
                InprocLink ended;
                while ((ended = endedLinks.poll()) != null) {
                    ended.transfer();
                }
                if (discard) {
                    Object m;
                    while ((m = pollOut()) != null) {
                        release(m);
                        discarded++;
                    }
                }
            } finally {
                releaseOutput();
            }
            InprocLink l = outLink;
            if (l != null) {
                l.afterServiced();
            }
        }
        if (discarded > 0) {
            countDrops(discarded);
        }
    }

    /** User side (terminate): everything queued, including the batch being taken from. */
    private void releaseAll() {
        discardOutput();
        inbound.releaseAll();
    }

    /** Either side: the queues (thread-safe), not the batch a reader is taking from. */
    private void releaseQueued() {
        discardOutput();
        inbound.releaseQueued();
    }

    // ---- inproc (see InprocLink)

    int rcvHwm() {
        return rcvHwm;
    }

    SpscChunkedQueue<Object> outQueue() {
        return out;
    }

    /** What this pipe's socket takes from an inproc peer; set before a connection's hello goes out. */
    void readRules(boolean readsMessages, boolean acceptsSubscriptions) {
        this.readsMessages = readsMessages;
        this.acceptsSubscriptions = acceptsSubscriptions;
    }

    void inLink(InprocLink link) {
        inLink = link;
    }


    // ---- the reading socket's fair queue (see FairQueue: which pipes it visits, and how an idle one is woken)

    /** The fair queue reading this pipe, or null; written under the socket lock, read by whoever signals. */
    private volatile FairQueue fairQueue;
    /** The pipe's position in its fair queue. Lock held. */
    private int fairQueueIndex = -1;
    /** Set by the fair queue when it found the pipe empty; cleared once, by a signal or by the queue. */
    private final AtomicBoolean readIdle = new AtomicBoolean();
    /** The next pipe on the fair queue's stack of woken pipes (see FairQueue): written before the push, read after. */
    Pipe nextWoken;

    FairQueue fairQueue() {
        return fairQueue;
    }

    void fairQueue(FairQueue queue, int index) {
        fairQueue = queue;
        fairQueueIndex = index;
    }

    int fairQueueIndex() {
        return fairQueueIndex;
    }

    void fairQueueIndex(int index) {
        fairQueueIndex = index;
    }

    void markReadIdle() {
        readIdle.set(true);
    }

    void clearReadIdle() {
        readIdle.set(false);
    }

    /**
     * Tells the socket something changed (input arrived, room was made, the connection came or went), after the
     * change is visible; an idle pipe is handed back to its fair queue first.
     */
    void signalActivity() {
        if (readIdle.get() && readIdle.compareAndSet(true, false)) {
            FairQueue q = fairQueue;
            if (q != null) {
                q.wake(this);
            }
        }
        listener.pipeActivity(this);
    }

    void countSent(int n) {
        counters.addSent(n);
    }

    void countReceived(int n) {
        counters.addReceived(n);
    }

    /** A link of this pipe's queue ended: hands its reader what it is owed, now or when the queue is let go. */
    void requestTransfer(InprocLink link) {
        endedLinks.add(link);
        serviceOutput();
    }

    /**
     * Any thread: what this pipe's socket takes of an object from an inproc peer's queue, converted as
     * {@link PipeHandler} converts what a connection reads; null when it takes nothing (the object is released).
     */
    ZmtpMessage admit(InprocLink link, Object m) {
        if (m instanceof ForConnection) {
            ForConnection f = (ForConnection) m;
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
            return PipeHandler.subscriptionMessage((ZmtpCommand) m, acceptsSubscriptions);
        }
        ReferenceCountUtil.release(m);
        return null;
    }

    /** Any thread: messages from an inproc peer (a connection's subscriptions, what a link left when it ended). */
    void deliver(InboundBatch batch) {
        int n = batch.size();
        inbound.addBatch(batch);
        countReceived(n);
        if (state == State.TERMINATED) {
            inbound.releaseQueued();
        }
    }

    /**
     * Writes {@code msg} (a subscription) to the connection coming up, ahead of anything queued: from
     * {@link PipeListener#writeSubscriptions}, on the I/O thread. The caller flushes the channel.
     */
    public void writeOnConnect(Object msg) {
        InprocLink l = outLink;
        if (l != null && !l.isOpen()) {
            l.stage(msg);
            return;
        }
        Channel ch = channel;
        ch.write(msg, ch.voidPromise());
    }

    // ---- I/O side

    void onHandshake(Channel ch, ZmtpHandshakeSuccessEvent success) {
        if (state == State.TERMINATED) {
            ch.close();
            return;
        }
        this.handshake = success;
        this.channel = ch;
        this.readPaused = false;
        this.state = State.ACTIVE;
        if (!listener.pipeConnected(this)) {
            state = connecting ? State.CONNECTING : State.DISCONNECTED;
            ch.close();
            return;
        }
        listener.writeSubscriptions(this);
        drain(ch);
        signalActivity();
    }

    /**
     * Over inproc ({@code own} and {@code peer} are the connection's two ends), on the inproc thread: the pipe turns
     * active only once both ends' handshakes are done, when the second joins them ({@link InprocLink#join}).
     */
    void onHandshake(Channel ch, ZmtpHandshakeSuccessEvent success, InprocEnd own, InprocEnd peer) {
        if (own == null || peer == null) {
            onHandshake(ch, success);
            return;
        }
        if (state == State.TERMINATED) {
            ch.close();
            return;
        }
        // Known now for monitor events; the pipe stays as it is (connecting, or not yet the socket's) until the join.
        this.handshake = success;
        this.channel = ch;
        own.arrived = success;
        if (peer.arrived != null) {
            InprocLink.join(peer, own);
        }
    }

    /**
     * The inproc join: this pipe's side of the connection, its queue read through {@code link}. Returns false if the
     * socket refused the connection.
     */
    boolean activateJoined(Channel ch, ZmtpHandshakeSuccessEvent success, InprocLink link) {
        InprocLink previous = outLink;
        // Before the pipe turns active: a sender that sees it active queues for the peer, never for the channel.
        outLink = link;
        if (previous != null) {
            previous.detach();
        }
        this.handshake = success;
        this.channel = ch;
        this.readPaused = false;
        this.state = State.ACTIVE;
        if (!listener.pipeConnected(this)) {
            state = connecting ? State.CONNECTING : State.DISCONNECTED;
            return false;
        }
        return true;
    }

    /** The inproc join: this pipe's subscriptions, staged for the peer ahead of anything queued. */
    void writeSubscriptions() {
        listener.writeSubscriptions(this);
    }

    void onInbound(ZmtpMessage msg) {
        if (state == State.TERMINATED) {
            msg.release();
            return;
        }
        if (inbound.add(msg)) {
            publishInbound();
        }
        if (rcvHwm > 0 && !readPaused && inbound.depthWithFilling() >= rcvHwm) {
            Channel ch = channel;
            if (ch != null) {
                readPaused = true;
                ch.config().setAutoRead(false);
                // The application may have emptied the queue before it could see readPaused.
                if (inbound.count() <= resumeAt) {
                    maybeResume(ch);
                }
            }
        }
        // Readers are woken once per read from the socket, not once per message (see onReadComplete).
        inboundUnsignaled = true;
    }

    /** Hands the batch being filled to readers (I/O thread). */
    private void publishInbound() {
        int n = inbound.publish();
        if (n > 0) {
            countReceived(n);
            if (state == State.TERMINATED) {
                releaseQueued();
            }
        }
    }

    /** The end of a read from the connection: publish what arrived and wake readers. */
    void onReadComplete() {
        publishInbound();
        if (inboundUnsignaled) {
            inboundUnsignaled = false;
            signalActivity();
        }
    }

    void onInactive(Channel ch) {
        if (channel != ch) {
            return;
        }
        InprocLink l = outLink;
        if (l != null && l.writerChannel == ch) {
            l.detach();
        }
        publishInbound();
        if (state == State.TERMINATED) {
            releaseQueued();
            return;
        }
        boolean wasActive = state == State.ACTIVE;
        state = connecting ? State.CONNECTING : State.DISCONNECTED;
        if (!connecting) {
            discardOutput();
        }
        if (wasActive) {
            listener.pipeDisconnected(this);
        }
        signalActivity();
    }

    void onWritable(Channel ch) {
        if (ch.isWritable()) {
            drain(ch);
        }
    }

    private void maybeResume(Channel ch) {
        if (readPaused && channel == ch && inbound.count() <= resumeAt) {
            readPaused = false;
            ch.config().setAutoRead(true);
        }
    }

    private void scheduleDrain() {
        InprocLink l = outLink;
        if (l != null) {
            // Inproc: the peer reads the queue itself; it needs a signal only if it may be waiting.
            l.wakeReader();
            return;
        }
        Channel ch = channel;
        if (ch == null || state != State.ACTIVE) {
            return;
        }
        // The queue's volatile store of the message came before this read, and the drain clears the flag before it
        // looks at the queue (both volatile), so either this sees the flag clear or the drain sees the message.
        // Read before the CAS: a failed CAS still takes the cache line from the I/O thread, once per message.
        if (!drainScheduled.get() && drainScheduled.compareAndSet(false, true)) {
            ch.eventLoop().execute(drainTask);
        }
    }

    /** The scheduled drain, allocated once: it drains whichever connection is current when it runs. */
    private void runScheduledDrain() {
        drainScheduled.set(false);
        Channel ch = channel;
        if (ch != null && ch.eventLoop().inEventLoop()) {
            drain(ch);
        }
    }

    /** Gives up the queue's consumer side, scheduling the drain another thread missed meanwhile. */
    private void releaseOutput() {
        out.unclaim();
        if (drainMissed) {
            drainMissed = false;
            scheduleDrain();
        }
    }

    private void drain(Channel ch) {
        if (channel != ch || state != State.ACTIVE || !ch.isActive() || outLink != null) {
            return;
        }
        if (!out.tryClaim()) {
            // Another thread holds the queue: a discarder, an evicting sender, or a drain for the connection before
            // this one, on another loop, that stopped at its dead channel. Ask it for a drain when it lets go (flag,
            // then claim; its release, then flag: both volatile, so one of the two sees the other).
            drainMissed = true;
            if (!out.tryClaim()) {
                return;
            }
        }
        drainMissed = false;
        int taken = 0;
        int written = 0;
        ZmtpMessageBatch batch = null;
        try {
            Object m;
            while (ch.isWritable() && (m = pollOut()) != null) {
                // The count senders check for room is published every few messages, not once per message (an
                // ordered store each) nor only at the end (a sender at SNDHWM would wait for the whole drain).
                if (++taken % DRAIN_COUNT_BATCH == 0) {
                    out.publishConsumed();
                }
                if (m instanceof ZmtpMessage) {
                    if (batch == null) {
                        if (!out.consumerHasNext()) {
                            // The only message: no batch to allocate.
                            ch.write(m, ch.voidPromise());
                            written++;
                            continue;
                        }
                        batch = new ZmtpMessageBatch(WRITE_BATCH);
                    }
                    batch.add((ZmtpMessage) m);
                    if (batch.isFull()) {
                        written += writeBatch(ch, batch);
                        batch = null;
                    }
                    continue;
                }
                if (batch != null) {
                    written += writeBatch(ch, batch);
                    batch = null;
                }
                if (m instanceof TrackedMessage) {
                    ((TrackedMessage) m).writeTo(ch);
                    written++;
                    continue;
                }
                if (m instanceof ForConnection) {
                    ForConnection f = (ForConnection) m;
                    if (f.channel != ch) {
                        // Meant for an earlier connection; this one started with the current subscription set.
                        ReferenceCountUtil.release(f.msg);
                        continue;
                    }
                    m = f.msg;
                }
                ch.write(m, ch.voidPromise());
                written++;
            }
            if (batch != null) {
                written += writeBatch(ch, batch);
            }
        } finally {
            releaseOutput();
        }
        if (discardRequested) {
            discardOutput();
        }
        if (written > 0) {
            counters.addSent(written);
            ch.flush();
        }
        if (taken > 0) {
            signalActivity();
        }
    }

    private static int writeBatch(Channel ch, ZmtpMessageBatch batch) {
        int n = batch.size();
        ch.write(batch, ch.voidPromise());
        return n;
    }

    /** Tells the socket's monitors about this pipe's connection (I/O thread). */
    void emit(ZmtpSocketEvent.Type type, Channel ch, String detail) {
        emit(type, ch, detail, null);
    }

    void emit(ZmtpSocketEvent.Type type, Channel ch, String detail, ZmtpHandshakeFailureReason reason) {
        ZmtpHandshakeSuccessEvent h = handshake;
        boolean current = h != null && channel == ch;
        listener.pipeEvent(new ConnectionEvent(type, endpoint, ch.remoteAddress(), current ? h.version() : null,
                current ? h.peerMetadata().socketType() : null, current ? h.peerMetadata().identity() : null, detail,
                this, reason, null, 0));
    }

    // ---- peers, queue sizes in bytes, drops (what ZmtpPeer and the socket's totals read)

    /**
     * Once, as the pipe is terminated: hands its sent and received counts to the socket's totals, which keep
     * counting what pipes that are gone did (Micrometer counters must never go down).
     */
    private void retireCounters() {
        if (listener instanceof SocketBase && counters.retire()) {
            ((SocketBase) listener).retire(counters.sent(), counters.received());
        }
    }

    /**
     * The user id the security mechanism's authenticator gave the peer on its last handshake (PLAIN's user name,
     * a CURVE key), or null if none did.
     */
    String userId() {
        ZmtpHandshakeSuccessEvent h = handshake;
        String id = h == null ? null : h.userId();
        return id == null || id.isEmpty() ? null : id;
    }

    /** Whether a connection of this pipe ever completed its handshake (for STREAM: came up). */
    boolean hasHandshaken() {
        return handshake != null;
    }

    /** The application's handle on this pipe: one per pipe. */
    private final Peer peerHandle = new Peer(this);

    Peer peer() {
        return peerHandle;
    }

    /** The socket this pipe belongs to. */
    SocketBase socket() {
        return (SocketBase) listener;
    }

    /** Bytes of the messages queued for the peer (frames' content). */
    public long outBytes() {
        return counters.outBytes();
    }

    /** Bytes of the received messages not yet taken by the application. */
    public long inBytes() {
        return inbound.bytes();
    }

    public boolean isOutHwmReached() {
        return sndHwm > 0 && out.size() >= sndHwm;
    }

    public boolean isInHwmReached() {
        return readPaused;
    }

    public int sndHwm() {
        return sndHwm;
    }

    /** Counts {@code n} messages dropped for this peer, and tells the socket (its total and its monitors). */
    void countDrops(int n) {
        counters.addDropped(n);
        if (listener instanceof SocketBase) {
            ((SocketBase) listener).messagesDropped(n);
        }
    }

    /** The claimed consumer's poll, counting the bytes it takes. */
    private Object pollOut() {
        Object m = out.poll();
        if (m != null) {
            counters.tookOut(m);
        }
        return m;
    }

    /**
     * {@code msg} as it is queued: wrapped for a promise if the socket is in a tracked send (under its lock, as the
     * caller is), as it is. One field read on every offer; only tracked sends allocate.
     */
    private Object trackIfAsked(Object msg) {
        if (listener instanceof SocketBase && msg instanceof ZmtpMessage) {
            DeliveryTracker t = ((SocketBase) listener).tracker;
            if (t != null) {
                return t.wrap((ZmtpMessage) msg);
            }
        }
        return msg;
    }

    // ---- overflow: DROP_OLDEST

    /**
     * Queues {@code msg} in place of the oldest queued message when the pipe is at SNDHWM (DROP_OLDEST). User side,
     * under the socket lock (the producer). The producer takes the consumer role for one poll, waiting for it if a
     * drain or a discard holds it: they never block while they hold it, and a drain that finds the channel full lets
     * go at once. Giving up instead would drop the newest message whenever a drain happened to be looking, which is
     * DROP_NEWEST. Only an application message is evicted, never a subscription or other command; if the head of the
     * queue is a command, the caller drops {@code msg} (false). Returns true if the pipe took {@code msg}.
     */
    boolean offerReplacingOldest(Object msg) {
        if (state == State.TERMINATED) {
            return false;
        }
        if (!out.producerBelow(sndHwm)) {
            for (int spins = 0; !out.tryClaim(); spins++) {
                if (spins < 64) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            Object oldest = null;
            try {
                // Looked at again: a drain that held the queue may have made room meanwhile.
                Object head = out.producerBelow(sndHwm) ? null : out.peek();
                if (head instanceof ZmtpMessage || head instanceof TrackedMessage) {
                    oldest = pollOut();
                }
            } finally {
                releaseOutput();
            }
            if (discardRequested) {
                discardOutput();
            }
            if (oldest != null) {
                if (oldest instanceof TrackedMessage) {
                    ((TrackedMessage) oldest).discardReason("dropped for a newer message (DROP_OLDEST)");
                }
                release(oldest);
                countDrop();
            }
        }
        if (!out.producerBelow(sndHwm)) {
            return false;
        }
        msg = trackIfAsked(msg);
        counters.queuedOut(msg);
        out.offer(msg);
        // A drain that found the queue claimed by this has left: schedule one for what is queued.
        scheduleDrain();
        return true;
    }

    @Override
    public String toString() {
        return "Pipe{" + id + ", " + state + ", " + (connecting ? "connect " : "accepted ") + endpoint
                + ", peer " + remoteAddress() + ", in " + inbound.count() + ", out " + out.size() + '}';
    }
}
