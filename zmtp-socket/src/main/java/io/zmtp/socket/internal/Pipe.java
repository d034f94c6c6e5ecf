package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpHandshakeFailureReason;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketEvent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything about one peer: its connection, what it announced, its life across connections, and its two sides. A
 * connecting socket's pipe lives from {@code connect()} to {@code disconnect()} and outlives reconnections; a bound
 * socket's pipe lives as long as its accepted connection.
 *
 * <h2>Parts</h2>
 * What it received, on its way to the application, with RCVHWM: {@link InboundFlow}. What it queued for the peer,
 * with SNDHWM, DROP_OLDEST and the drain to the connection: {@link OutboundQueue}. Each states its threads and
 * invariants. Over inproc neither side touches the channel: the peer's pipe reads the outbound queue itself
 * ({@link InprocLink}). The pipe keeps the lifecycle ({@link State}, written by the I/O thread on handshake and
 * close, and by {@link #terminate}), the counts, and its place in the reading socket's {@link FairQueue}.
 *
 * <h2>Threads</h2>
 * {@code state}, {@code channel} and {@code handshake} are volatile: written by the connection's I/O thread (or the
 * inproc thread at a join) and by {@link #terminate}, read by both sides of both queues. Fields marked "user side"
 * are touched only under the owning socket's lock.
 *
 * <h2>High-water marks</h2>
 * RCVHWM: when the inbound queue reaches it the channel stops reading, and resumes once the application has taken the
 * queue down to half of it ({@link InboundFlow}). SNDHWM: {@link #offer} refuses beyond it, and the drain moves
 * messages to the channel only while it is writable (Netty's write-buffer water mark), so the output held per peer is
 * bounded by SNDHWM messages plus the channel's high water mark in bytes ({@link OutboundQueue}).
 *
 * <h2>Parked: an inproc connect that outlives its socket</h2>
 * libzmq's inproc connect-before-bind makes the pipe pair at connect time, so what the socket sends goes into a pipe
 * the binder will read, and stays there whatever the sender does next (the ZeroMQ Guide's mtrelay connects, sends
 * and closes before the next step binds). Ours joins only once the name is bound. So {@link #park} lets close leave
 * such a pipe alive instead of terminating it: its connection attempt goes on without the socket and without
 * retries, and when the bind comes the join hands what the pipe queued to the binder and ends the connection
 * ({@link InprocLink#join}); close neither waits for that nor drops the messages. A pipe whose channel closes without
 * a join (the name never bound before the context closed, or the binder refused the peer) is terminated then,
 * releasing what it held ({@code Connector}). Park and join decide against each other with one CAS
 * ({@code joinState}): a join that came first made the pipe the socket's, and close ends it as any other.
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
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Pipe.class, "state", State.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id = IDS.incrementAndGet();
    private final PipeListener listener;
    private final boolean connecting;
    private final String endpoint;
    private final int sndHwm;
    private volatile State state;
    private volatile Channel channel;
    private volatile ZmtpHandshakeSuccessEvent handshake;
    /** Set when a connection of this pipe ended, made or not: an inproc connect waits for the first (SocketBase). */
    private volatile boolean aConnectionEnded;
    /** The socket ended the connection (set before it closes the channel): its DISCONNECTED says so. */
    private volatile boolean endedBySocket;
    /** A connecting pipe over inproc: set by connect before the pipe is started. */
    private boolean inproc;
    /** Inproc connecting pipes: {@link #UNJOINED} until the first join or a park, whichever comes first. */
    private final AtomicInteger joinState = new AtomicInteger();
    private static final int UNJOINED = 0;
    private static final int PARKED = 1;
    private static final int JOINED = 2;

    private final PipeCounters counters = new PipeCounters();
    private final ConnectionBudget budget = new ConnectionBudget();
    private final InboundFlow inbound;
    private final OutboundQueue outbound;

    // user side
    /** SERVER and PEER: the non-zero id the socket gave this peer; 0 for the other types. */
    private int serverRoutingId;
    private volatile byte[] routingId;
    private boolean routable;

    Pipe(PipeListener listener, boolean connecting, String endpoint, int sndHwm, int rcvHwm) {
        this.listener = listener;
        this.connecting = connecting;
        this.endpoint = endpoint;
        this.sndHwm = sndHwm;
        this.state = connecting ? State.CONNECTING : State.DISCONNECTED;
        this.inbound = new InboundFlow(this, counters, rcvHwm);
        this.outbound = new OutboundQueue(this, listener, counters, sndHwm);
    }

    /** SERVER and PEER: the id the socket gave this peer (user side); 0 if none yet. */
    int serverRoutingId() {
        return serverRoutingId;
    }

    void serverRoutingId(int id) {
        this.serverRoutingId = id;
    }

    /** What the peer can make the socket hold, and what it holds now ({@link ConnectionBudget}). */
    public ConnectionBudget budget() {
        return budget;
    }

    public long id() {
        return id;
    }

    public boolean isConnecting() {
        return connecting;
    }

    /** Marks a connecting pipe as inproc's, which close may {@link #park}; before the connection is started. */
    void inproc() {
        this.inproc = true;
    }

    /**
     * At close: parks this pipe if it is an inproc connect not yet joined (its name not bound yet) with output queued
     * (see the class comment); true if it did. A parked pipe is the connector's and the join's from then on: close
     * must neither wait for it nor terminate it.
     */
    boolean park() {
        return inproc && state == State.CONNECTING && hasOutputPending()
                && joinState.compareAndSet(UNJOINED, PARKED);
    }

    /** Whether close parked this pipe ({@link #park}). */
    boolean isParked() {
        return joinState.get() == PARKED;
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

    /**
     * Over inproc: whether a join has opened this pipe's links, so both sockets have the connection. Active alone is
     * not that: the join makes a pipe active before its socket has taken the connection, and a socket closed in
     * between refuses it, with what was sent on it.
     */
    boolean isInprocJoined() {
        InprocLink l = outbound.link();
        return l != null && l.isOpen();
    }

    /** Whether a connection of this pipe has ended, whether or not it was made (refused, failed its handshake). */
    boolean hasEndedAConnection() {
        return aConnectionEnded;
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
        return inbound.depth();
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

    /** What this pipe received, on its way to the application: RCVHWM, inproc reading. */
    InboundFlow inbound() {
        return inbound;
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
        return inbound.hasInput();
    }

    /**
     * Whether a disconnected pipe has input still to come to the application: queued, or (inproc) on a peer queue
     * whose writer has not yet seen the end of the connection and will hand over what it sent until then. Lock held.
     */
    boolean hasInputToDrain() {
        return inbound.hasInputToDrain();
    }

    /** Takes the next inbound message (ownership passes to the caller), or null. */
    public ZmtpMessage poll() {
        return inbound.poll();
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
     * Whether this pipe's output goes over inproc to a socket already closed to its application, which will never
     * take it: close's linger doesn't wait for it (libzmq drops it once both ends are closed). Without this, a
     * context closing two inproc peers together waited out its whole linger cap for a SUB's queued UNSUBSCRIBE to
     * a PUB that was closing too, since the PUB's pipes end only after the SUB's close has finished.
     */
    boolean outputUnwanted() {
        InprocLink l = outbound.link();
        return l != null && l.reader.socket().isClosed();
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
        endedBySocket = true;
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

    /**
     * Close's end of a pipe ({@link Linger}): over a live connection, on its I/O thread, writes what is queued as far
     * as the channel takes it now, then terminates; otherwise terminates at once. A loop that has shut down can't
     * run it: terminated here then.
     */
    void terminateAfterLastDrain() {
        Channel ch = channel;
        if (ch == null || !isActive() || outbound.link() != null || !ch.isActive() || !outbound.hasPending()) {
            terminate();
            return;
        }
        if (ch.eventLoop().inEventLoop()) {
            outbound.drain(ch);
            terminate();
            return;
        }
        try {
            ch.eventLoop().execute(() -> {
                outbound.drain(ch);
                terminate();
            });
        } catch (RejectedExecutionException e) {
            terminate();
        }
    }

    /** Discards queued output (linger 0, or a peer that is gone), from any thread. */
    public void discardOutput() {
        outbound.discard();
    }

    /** Discards what is queued for the peer and returns once it is gone and counted as dropped (user side). */
    void discardOutputCounted() {
        outbound.discardCounted();
    }

    /** User side (terminate): everything queued, including the batch being taken from. */
    private void releaseAll() {
        discardOutput();
        inbound.releaseAll();
    }

    /** Either side: the queues (thread-safe), not the batch a reader is taking from. */
    void releaseQueued() {
        discardOutput();
        inbound.releaseQueued();
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
     * Moves to {@code next} unless the pipe is terminated: {@link #terminate} (any thread) wins every race, since a
     * plain write here could overwrite it between a check and the write (an I/O thread completing a handshake as the
     * application disconnects the peer), and the CONNECTED event that follows would then re-attach a pipe whose
     * connector is stopped: a zombie that a DEALER would keep queueing messages for. Returns false if terminated.
     */
    private boolean moveUnlessTerminated(State next) {
        for (;;) {
            State s = state;
            if (s == State.TERMINATED) {
                return false;
            }
            if (STATE.compareAndSet(this, s, next)) {
                return true;
            }
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
        inbound.resetReadPaused();
        // Terminated since the check above: terminate() may not have seen the channel, so it is closed here.
        if (!moveUnlessTerminated(State.ACTIVE)) {
            ch.close();
            return;
        }
        if (!listener.pipeConnected(this)) {
            moveUnlessTerminated(connecting ? State.CONNECTING : State.DISCONNECTED);
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
        // Parked by its socket's close (a pipe that joined once is never parked): the connection is taken without the socket, which is
        // gone, and ended once the join is done (InprocLink.join), handing what was queued to the peer.
        boolean parked = !joinState.compareAndSet(UNJOINED, JOINED) && joinState.get() == PARKED;
        InprocLink previous = outbound.link();
        outbound.link(link);
        if (previous != null) {
            previous.detach();
        }
        this.handshake = success;
        this.channel = ch;
        inbound.resetReadPaused();
        if (!moveUnlessTerminated(State.ACTIVE)) {
            ch.close();
            return false;
        }
        if (parked) {
            return true;
        }
        if (!listener.pipeConnected(this)) {
            moveUnlessTerminated(connecting ? State.CONNECTING : State.DISCONNECTED);
            return false;
        }
        return true;
    }

    /** The inproc join: this pipe's subscriptions, staged for the peer ahead of anything queued. */
    void writeSubscriptions() {
        listener.writeSubscriptions(this);
    }

    void onInbound(ZmtpMessage msg) {
        inbound.onInbound(msg);
    }

    /** The end of a read from the connection: publish what arrived and wake readers. */
    void onReadComplete() {
        inbound.onReadComplete();
    }

    void onInactive(Channel ch) {
        aConnectionEnded = true;
        if (channel != ch) {
            // Never this pipe's connection (its handshake failed): only a connect waiting for it needs to know.
            listener.pipeActivity(this);
            return;
        }
        InprocLink l = outbound.link();
        if (l != null && l.writerChannel == ch) {
            l.detach();
        }
        inbound.publish();
        boolean wasActive = state == State.ACTIVE;
        if (!moveUnlessTerminated(connecting ? State.CONNECTING : State.DISCONNECTED)) {
            releaseQueued();
            return;
        }
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

    /**
     * The socket is about to close this pipe's connection itself (a connector stopped, a handshake cut short by close
     * or unbind): the DISCONNECTED that follows says so. {@link #terminate} marks it too.
     */
    void endBySocket() {
        endedBySocket = true;
    }

    /** Tells the socket's monitors about this pipe's connection (I/O thread). */
    void emit(ZmtpSocketEvent.Type type, Channel ch, String detail) {
        emit(type, ch, detail, null, null);
    }

    /** A failed handshake: {@code cause} is the codec's exception, which says which side refused and why. */
    void emit(ZmtpSocketEvent.Type type, Channel ch, String detail, ZmtpHandshakeFailureReason reason,
              Throwable cause) {
        emit(type, ch, detail, reason, cause, false);
    }

    /** The connection closed (I/O thread, from its close future): by the socket itself, or not. */
    void emitDisconnected(Channel ch) {
        emit(ZmtpSocketEvent.Type.DISCONNECTED, ch, null, null, null, endedBySocket);
    }

    private void emit(ZmtpSocketEvent.Type type, Channel ch, String detail, ZmtpHandshakeFailureReason reason,
                      Throwable cause, boolean bySocket) {
        if (isParked()) {
            // The socket is closed and its monitors have had MONITOR_STOPPED, the last event.
            return;
        }
        ZmtpHandshakeSuccessEvent h = handshake;
        boolean current = h != null && channel == ch;
        listener.pipeEvent(new ConnectionEvent(type, endpoint, ch.remoteAddress(), current ? h.version() : null,
                current ? h.peerMetadata().socketType() : null, current ? h.peerMetadata().identity() : null, detail,
                this, reason, cause, 0, bySocket));
    }

    // ---- peers, queue sizes in bytes, drops (what ZmtpPeer and the socket's totals read)

    PipeCounters counters() {
        return counters;
    }

    /**
     * As the pipe is terminated: hands its sent and received counts to the socket's totals, which keep counting what
     * pipes that are gone did (Micrometer counters must never go down); later counts follow them there.
     */
    private void retireCounters() {
        if (listener instanceof SocketBase) {
            counters.retire(((SocketBase) listener).peers);
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

    /** The properties the authenticator attached to the peer on its last handshake; empty if none did. */
    ZmtpMetadata authMetadata() {
        ZmtpHandshakeSuccessEvent h = handshake;
        return h == null ? ZmtpMetadata.EMPTY : h.authMetadata();
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
        return inbound.isReadPaused();
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
