package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything about one peer: its connection, what it announced, and its two queues. A connecting socket's pipe lives
 * from {@code connect()} to {@code disconnect()} and outlives reconnections; a bound socket's pipe lives as long as
 * its accepted connection.
 *
 * <h2>Threads</h2>
 * The inbound queue ({@link InboundQueue}, which states its rules) is filled by the I/O thread ({@link #onInbound})
 * and emptied by user threads ({@link #poll}). The outbound queue ({@link OutboundQueue}, which states its rules)
 * the other way round: filled under the socket lock ({@link #offer}), emptied by a drain on the channel's event loop.
 * Both are lock-free. Fields marked "user side" are touched only under the owning socket's lock.
 *
 * <h2>Inproc</h2>
 * Over inproc the outbound queue is read by the peer's pipe itself, under the peer socket's lock: no drain, no
 * channel write ({@link InprocLink}, which states that path's invariants). Such a pipe's outbound queue has a link
 * (its current or last reader) and the pipe an {@code inLink} (the peer queue it reads); {@link #poll} takes from its
 * own inbound queue first (a connection's subscriptions, what a link left when it ended), then from the link.
 *
 * <h2>High-water marks</h2>
 * RCVHWM: when the inbound queue ({@link InboundQueue}) reaches it the channel stops reading ({@code autoRead=false})
 * and resumes once the application has taken the queue down to half of it. SNDHWM: {@link #offer} refuses beyond it,
 * and the drain moves messages to the channel only while it is writable (Netty's write-buffer water mark), so memory
 * per peer is bounded by SNDHWM messages plus the channel's high water mark in bytes.
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
    private final PipeCounters counters = new PipeCounters();
    private final OutboundQueue outbound;

    // inproc (see InprocLink; the link this pipe's outbound queue feeds is the queue's)
    /** The link whose queue this pipe reads: the current connection's, or the last one's. */
    private volatile InprocLink inLink;
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
        this.outbound = new OutboundQueue(this, listener, counters, sndHwm);
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
        return outbound.size();
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

    /** What this pipe queues for its peer: its drain, DROP_OLDEST, inproc hand-overs. */
    OutboundQueue outbound() {
        return outbound;
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
            l.writer.outbound().service();
        }
        return null;
    }

    /** Whether {@link #offer} would accept a message now. User side. */
    public boolean hasRoom() {
        return outbound.hasRoom();
    }

    /** Whether output is queued that a peer may still take (for close's linger). */
    boolean hasOutputPending() {
        return outbound.hasPending();
    }

    /**
     * Queues a message (or command) for the peer. Returns false, keeping the caller's ownership, when the pipe is
     * at SNDHWM or terminated; otherwise the pipe owns it.
     */
    public boolean offer(Object msg) {
        return outbound.offer(msg);
    }

    /** Queues a subscription change for the connection up now, and only for it (see the queue's method). */
    public void writeToConnection(Object msg) {
        outbound.writeToConnection(msg);
    }

    /** Counts a message dropped for this peer (PUB at HWM). */
    public void countDrop() {
        countDrops(1);
    }

    /** Releases both queues and closes the connection; the pipe is then dead. */
    public void terminate() {
        retireCounters();
        state = State.TERMINATED;
        InprocLink l = outbound.link();
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

    /** Discards queued output (linger 0, or a peer that is gone), from any thread. */
    public void discardOutput() {
        outbound.discard();
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
        outbound.drain(ch);
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
        InprocLink previous = outbound.link();
        outbound.link(link);
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
        InprocLink l = outbound.link();
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
            outbound.drain(ch);
        }
    }

    private void maybeResume(Channel ch) {
        if (readPaused && channel == ch && inbound.count() <= resumeAt) {
            readPaused = false;
            ch.config().setAutoRead(true);
        }
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
        return outbound.isHwmReached();
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

    @Override
    public String toString() {
        return "Pipe{" + id + ", " + state + ", " + (connecting ? "connect " : "accepted ") + endpoint
                + ", peer " + remoteAddress() + ", in " + inbound.count() + ", out " + outbound.size() + '}';
    }
}
