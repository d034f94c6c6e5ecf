package io.zmtp.socket;

import io.netty.buffer.Unpooled;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Joins a frontend and a backend socket, passing each message received on one to the other, as libzmq's
 * {@code zmq_proxy_steerable}: a ROUTER frontend and a DEALER backend make a shared queue between clients and
 * workers, PULL/PUSH a streamer, XSUB/XPUB a forwarder (subscriptions flow back through it).
 *
 * <pre>{@code
 * ZmtpSocket frontend = context.socket(ZmtpSocketType.ROUTER);
 * frontend.bind("tcp://*:5555");
 * ZmtpSocket backend = context.socket(ZmtpSocketType.DEALER);
 * backend.bind("inproc://workers");
 * ZmtpProxy.builder(frontend, backend).build().run();   // until TERMINATE, or a socket closes
 * }</pre>
 *
 * <h2>Steering</h2>
 * With a control socket ({@link Builder#control}), single-frame commands steer the proxy as libzmq's do:
 * {@code PAUSE} stops passing messages (they wait in the sockets' queues, so back-pressure reaches the senders),
 * {@code RESUME} starts again, {@code TERMINATE} makes {@link #run()} return, and {@code STATISTICS} is answered with
 * eight frames of unsigned 64-bit counters, in libzmq's order: frames and bytes received by the frontend, frames and
 * bytes sent by the frontend, then the same four for the backend. libzmq writes them in the host's byte order; they
 * are written little-endian here, which is what libzmq writes on x86 and ARM. As in libzmq a REP control socket
 * answers every other command (and an unknown one) with an empty message; other types get no answer. Counters
 * count frames, as libzmq's count message parts; {@link #statistics()} reads them from any thread.
 *
 * <h2>Flow</h2>
 * A message is taken from one side only when the other side can take it without blocking (libzmq's POLLOUT check),
 * so a destination that is full holds messages in the source's queue, where back-pressure reaches the peers that
 * send them, and never stalls the other direction or the control socket. Each side is served up to 1000 messages
 * at a time before the proxy looks at the other side and the control socket again. A message whose destination
 * drops on arrival (a ROUTER with no such peer) is counted as sent, as libzmq does; one it refuses (a peer that went
 * away in between; a ROUTER_MANDATORY frontend whose client is gone or full) is dropped and not counted, where
 * libzmq's proxy would block or end with the error.
 *
 * <h2>Capture</h2>
 * With a capture socket ({@link Builder#capture}) every message passed, in both directions, is also sent to it (its
 * frames shared, not copied). As in libzmq, the capture send blocks when the capture socket can't take it, which
 * slows the proxy: a PUB capture socket drops instead, so it never does.
 *
 * <h2>Threads</h2>
 * {@link #run()} runs the proxy on the calling thread, which owns the sockets until it returns: no other thread may
 * send or receive on them meanwhile. {@link #statistics()} may be called from any thread.
 *
 * @see <a href="https://libzmq.readthedocs.io/en/latest/zmq_proxy_steerable.html">zmq_proxy_steerable(3)</a>
 */
public final class ZmtpProxy {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZmtpProxy.class);
    /** Messages passed in one direction before the proxy looks at the other sockets again (libzmq's burst). */
    private static final int BURST = 1000;
    private static final Set<ZmtpSocketType> CONTROL_TYPES = EnumSet.of(ZmtpSocketType.REP, ZmtpSocketType.PAIR,
            ZmtpSocketType.DEALER, ZmtpSocketType.SUB, ZmtpSocketType.PULL);

    private enum State { ACTIVE, PAUSED, TERMINATED }

    // Counter indices, in the order of the STATISTICS reply.
    private static final int FRONTEND_RECEIVED = 0;
    private static final int FRONTEND_SENT = 2;
    private static final int BACKEND_RECEIVED = 4;
    private static final int BACKEND_SENT = 6;

    private final ZmtpSocket frontend;
    private final ZmtpSocket backend;
    private final ZmtpSocket capture;
    private final ZmtpSocket control;
    private final boolean sameSocket;
    /** Written by the proxy's thread only (so no update is lost), read by any: frames and bytes, in reply order. */
    private final AtomicLongArray counters = new AtomicLongArray(8);
    private final AtomicBoolean running = new AtomicBoolean();
    private State state = State.ACTIVE;
    /** The backend (frontend) could not take a message at the last try: wait for it, leave the other side unread. */
    private boolean backendFull;
    private boolean frontendFull;

    private ZmtpProxy(Builder b) {
        this.frontend = b.frontend;
        this.backend = b.backend;
        this.capture = b.capture;
        this.control = b.control;
        this.sameSocket = frontend == backend;
    }

    /**
     * A proxy between {@code frontend} and {@code backend}, which may be the same socket (each message received on
     * it is then sent back out on it, as libzmq allows).
     */
    public static Builder builder(ZmtpSocket frontend, ZmtpSocket backend) {
        return new Builder(frontend, backend);
    }

    /**
     * Runs the proxy on this thread until a {@code TERMINATE} command, then returns. Throws
     * {@link ZmtpSocketException.Closed} if one of its sockets is closed (its context closing, for one: libzmq's
     * ETERM) and {@link ZmtpSocketException.Interrupted} if the thread is interrupted while it waits. A proxy runs on
     * one thread at a time; after it returns it may be run again, with its counters where they were.
     */
    public void run() {
        if (!running.compareAndSet(false, true)) {
            throw new ZmtpSocketException.IllegalState("proxy is already running");
        }
        state = State.ACTIVE;
        try (ZmtpPoller poller = new ZmtpPoller();
             ZmtpPoller frontendRoom = new ZmtpPoller();
             ZmtpPoller backendRoom = new ZmtpPoller()) {
            frontendRoom.register(frontend, ZmtpPoller.Interest.OUT);
            backendRoom.register(backend, ZmtpPoller.Interest.OUT);
            if (control != null) {
                poller.register(control, ZmtpPoller.Interest.IN);
            }
            while (state != State.TERMINATED) {
                boolean active = state == State.ACTIVE;
                if (sameSocket) {
                    watch(poller, frontend, active && !backendFull, active && backendFull);
                } else {
                    watch(poller, frontend, active && !backendFull, active && frontendFull);
                    watch(poller, backend, active && !frontendFull, active && backendFull);
                }
                poller.poll(null);
                if (control != null && poller.isReadable(control)) {
                    handleControl();
                }
                if (state != State.ACTIVE) {
                    continue;
                }
                if (poller.isReadable(frontend) || (backendFull && poller.isWritable(backend))) {
                    backendFull = forward(frontend, backend, backendRoom, FRONTEND_RECEIVED, BACKEND_SENT);
                }
                if (!sameSocket && (poller.isReadable(backend) || (frontendFull && poller.isWritable(frontend)))) {
                    frontendFull = forward(backend, frontend, frontendRoom, BACKEND_RECEIVED, FRONTEND_SENT);
                }
            }
        } finally {
            running.set(false);
        }
    }

    /** Polls {@code socket} for what is asked, or not at all. */
    private static void watch(ZmtpPoller poller, ZmtpSocket socket, boolean in, boolean out) {
        if (in && out) {
            poller.register(socket, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
        } else if (in) {
            poller.register(socket, ZmtpPoller.Interest.IN);
        } else if (out) {
            poller.register(socket, ZmtpPoller.Interest.OUT);
        } else {
            poller.unregister(socket);
        }
    }

    /**
     * Passes up to a burst of messages from {@code from} to {@code to}, each only once {@code to} has room for it.
     * Returns whether it stopped because {@code to} had none.
     */
    private boolean forward(ZmtpSocket from, ZmtpSocket to, ZmtpPoller toRoom, int received, int sent) {
        for (int i = 0; i < BURST; i++) {
            if (toRoom.poll(Duration.ZERO) == 0) {
                return true;
            }
            ZmtpMessage msg = from.tryReceive();
            if (msg == null) {
                return false;
            }
            int frames = msg.size();
            long bytes = msg.contentLength();
            count(received, frames, bytes);
            if (capture != null) {
                capture.send(sharedCopy(msg));
            }
            // This thread is the only sender on `to` and it had room, so this queues the message unless its peer
            // went away in between (or a ROUTER_MANDATORY frontend's client is full); then it is dropped, as what
            // was queued for that peer is. libzmq's proxy would end with the error instead.
            try {
                if (to.trySend(msg)) {
                    count(sent, frames, bytes);
                }
            } catch (ZmtpSocketException.HostUnreachable e) {
                logger.debug("proxy: dropped a message for a peer that is gone: {}", e.getMessage());
            }
        }
        return false;
    }

    private static ZmtpMessage sharedCopy(ZmtpMessage msg) {
        ZmtpMessage copy = ZmtpMessage.create();
        for (int i = 0; i < msg.size(); i++) {
            copy.add(msg.frame(i).retainedDuplicate());
        }
        return copy;
    }

    private void count(int index, int frames, long bytes) {
        // One writer: a plain read and an ordered write lose nothing and cost no atomic instruction.
        counters.lazySet(index, counters.get(index) + frames);
        counters.lazySet(index + 1, counters.get(index + 1) + bytes);
    }

    private void handleControl() {
        ZmtpMessage command = control.tryReceive();
        if (command == null) {
            return;
        }
        String name;
        try {
            name = command.frameString(0);
        } finally {
            command.release();
        }
        switch (name) {
            case "PAUSE":
                state = State.PAUSED;
                break;
            case "RESUME":
                state = State.ACTIVE;
                break;
            case "TERMINATE":
                state = State.TERMINATED;
                break;
            case "STATISTICS":
                if (control.type() != ZmtpSocketType.SUB && control.type() != ZmtpSocketType.PULL) {
                    // A reply nobody can take now (the asker is gone) is dropped rather than stall the proxy.
                    control.trySend(statistics().toMessage());
                }
                return;
            default:
                logger.debug("proxy: unknown control command {}", name);
                break;
        }
        if (control.type() == ZmtpSocketType.REP) {
            // A REP must answer before it can take the next command; libzmq answers with an empty message.
            control.trySend(ZmtpMessage.create());
        }
    }

    /** What has passed through so far; safe from any thread. */
    public Statistics statistics() {
        long[] values = new long[8];
        for (int i = 0; i < values.length; i++) {
            values[i] = counters.get(i);
        }
        return new Statistics(values);
    }

    /** Counts of what passed through a proxy, as its STATISTICS reply has them. Frames as libzmq counts parts. */
    public static final class Statistics {
        private final long[] values;

        private Statistics(long[] values) {
            this.values = values;
        }

        public long frontendReceivedFrames() {
            return values[0];
        }

        public long frontendReceivedBytes() {
            return values[1];
        }

        public long frontendSentFrames() {
            return values[2];
        }

        public long frontendSentBytes() {
            return values[3];
        }

        public long backendReceivedFrames() {
            return values[4];
        }

        public long backendReceivedBytes() {
            return values[5];
        }

        public long backendSentFrames() {
            return values[6];
        }

        public long backendSentBytes() {
            return values[7];
        }

        /** The eight counters as libzmq's STATISTICS reply: one little-endian u64 frame each. */
        ZmtpMessage toMessage() {
            ZmtpMessage m = ZmtpMessage.create();
            for (long v : values) {
                m.add(Unpooled.buffer(Long.BYTES, Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).writeLong(v));
            }
            return m;
        }

        @Override
        public String toString() {
            return String.format("frontend in %,d frames %,d B, out %,d frames %,d B; "
                            + "backend in %,d frames %,d B, out %,d frames %,d B",
                    values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]);
        }
    }

    /** Which sockets a proxy joins. */
    public static final class Builder {
        private final ZmtpSocket frontend;
        private final ZmtpSocket backend;
        private ZmtpSocket capture;
        private ZmtpSocket control;

        private Builder(ZmtpSocket frontend, ZmtpSocket backend) {
            this.frontend = Objects.requireNonNull(frontend, "frontend");
            this.backend = Objects.requireNonNull(backend, "backend");
        }

        /** A socket every passed message is also sent to (PUB, PUSH, PAIR, DEALER...); none by default. */
        public Builder capture(ZmtpSocket capture) {
            this.capture = capture;
            return this;
        }

        /**
         * A socket the proxy takes commands from (PAUSE, RESUME, TERMINATE, STATISTICS): REP or PAIR as in libzmq,
         * or DEALER, SUB, PULL; none by default.
         */
        public Builder control(ZmtpSocket control) {
            if (control != null && !CONTROL_TYPES.contains(control.type())) {
                throw new IllegalArgumentException("control socket type: " + control.type()
                        + " (expected one of " + CONTROL_TYPES + ")");
            }
            this.control = control;
            return this;
        }

        public ZmtpProxy build() {
            if (capture != null && (capture == frontend || capture == backend || capture == control)) {
                throw new IllegalArgumentException("the capture socket must be a socket of its own");
            }
            if (control != null && (control == frontend || control == backend)) {
                throw new IllegalArgumentException("the control socket must be a socket of its own");
            }
            return new ZmtpProxy(this);
        }
    }
}
