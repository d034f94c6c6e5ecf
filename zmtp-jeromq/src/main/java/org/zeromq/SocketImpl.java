package org.zeromq;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The body of {@link ZMQ.Socket}: endpoints, and JeroMQ's frame-at-a-time send and receive on netty-zmtp's
 * whole-message sockets.
 *
 * <h2>Frames and messages</h2>
 * Frames sent with SNDMORE are gathered into one {@link ZmtpMessage} (each a Netty buffer wrapping the caller's array,
 * not a copy, as JeroMQ wraps it in a {@code Msg}), which is queued whole with the last frame. So a send with
 * SNDMORE always succeeds, and it is the last frame's send that fails with EAGAIN when the message can't be queued;
 * the message is then discarded whole (libzmq refuses the first frame instead, and never a later one). A received
 * message is handed out a frame at a time: {@link #hasReceiveMore()} says whether frames of it are left.
 *
 * <h2>Errors</h2>
 * As in JeroMQ a call that would block under DONTWAIT, or waits past SNDTIMEO/RCVTIMEO, returns false (or null, or
 * -1) with {@link #errno()} EAGAIN; any other error throws {@link ZMQException} with its code: ETERM once the
 * context is closed, EINTR when the waiting thread is interrupted (the socket stays usable; the thread's interrupt
 * status stays set), EFSM for a REQ or REP out of turn.
 */
abstract class SocketImpl extends SocketSecurityAccess {
    /** JeroMQ's range for {@code bindToRandomPort}: IANA's dynamic ports. */
    private static final int DYNAMIC_FROM = 0xc000;
    private static final int DYNAMIC_TO = 0xffff;

    /** Frames sent with SNDMORE, waiting for the last one. */
    private ZmtpMessage pending;
    /** Frames of the message being received that are still to be taken. */
    private ZmtpMessage partial;
    private volatile String lastEndpoint;
    private ZmtpPoller eventsPoller;
    /** The monitor {@link #monitor} started, until {@code monitor(null, 0)}; null if none. */
    private volatile JeromqMonitor monitor;

    SocketImpl(ContextImpl context, SocketType type) {
        super(context, type);
    }

    /** JeroMQ's number of this socket's type. */
    public int getType() {
        return socketType.type;
    }

    public SocketType getSocketType() {
        return socketType;
    }

    // ---- endpoints

    /**
     * Binds to {@code addr}; true, or throws {@link ZMQException} (EADDRINUSE, EINVAL, EPROTONOSUPPORT, ETERM). As in
     * JeroMQ, an address in use while a monitor watches for EVENT_BIND_FAILED returns false (errno EADDRINUSE) and
     * the monitor gets the event: JeroMQ's monitor, sending it, clears the error its bind would throw.
     */
    public boolean bind(String addr) {
        try {
            lastEndpoint = zmtp.bind(addr);
            return true;
        } catch (RuntimeException e) {
            ZMQException failure = failure(e);
            JeromqMonitor watching = monitor;
            if (failure.getErrorCode() == ErrorCodes.EADDRINUSE && watching != null
                    && watching.wants(ZMQ.EVENT_BIND_FAILED)) {
                return false;
            }
            throw failure;
        }
    }

    /** Binds to {@code addr}'s host on a random port of 49152 to 65535 and returns the port. */
    public int bindToRandomPort(String addr) {
        return bindToRandomPort(addr, DYNAMIC_FROM, DYNAMIC_TO);
    }

    /** Binds to a random free port in {@code [min, max]} of {@code addr}'s host (100 tries); returns the port. */
    public int bindToRandomPort(String addr, int min, int max) {
        for (int i = 0; i < 100; i++) {
            int port = min + ThreadLocalRandom.current().nextInt(max - min + 1);
            try {
                lastEndpoint = zmtp.bind(addr + ":" + port);
                return port;
            } catch (RuntimeException e) {
                int code = codeOf(e);
                if (code != ErrorCodes.EADDRINUSE) {
                    throw failure(e);
                }
            }
        }
        throw failure(ErrorCodes.EADDRINUSE, "Could not bind socket to random port.");
    }

    /** Connects to {@code addr} (the connection is made in the background, and remade when lost); true. */
    public boolean connect(String addr) {
        try {
            zmtp.connect(addr);
            lastEndpoint = addr;
            return true;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** PEER: connects and returns the routing id of the peer there. */
    public int connectPeer(String addr) {
        try {
            int id = zmtp.connectPeer(addr);
            lastEndpoint = addr;
            return id;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /**
     * Disconnects from {@code addr}. As in JeroMQ, false with errno (ENOENT when not connected there, ETERM once the
     * context is terminated, EINVAL or EPROTONOSUPPORT for a bad endpoint) rather than an exception, except on a
     * socket the application closed (ENOTSOCK).
     */
    public boolean disconnect(String addr) {
        try {
            zmtp.disconnect(addr);
            return true;
        } catch (RuntimeException e) {
            return falseUnlessClosed(e);
        }
    }

    /** Stops listening on {@code addr}; false with errno on failure, as {@link #disconnect(String)}. */
    public boolean unbind(String addr) {
        try {
            zmtp.unbind(addr);
            return true;
        } catch (RuntimeException e) {
            return falseUnlessClosed(e);
        }
    }

    private boolean falseUnlessClosed(RuntimeException e) {
        ZMQException z = failure(e);
        if (z.getErrorCode() == ErrorCodes.ENOTSOCK) {
            throw z;
        }
        return false;
    }

    /** The endpoint last bound (with the port the OS chose for {@code *}) or connected; null before any. */
    public String getLastEndpoint() {
        return lastEndpoint;
    }

    // ---- subscriptions and groups

    public boolean subscribe(byte[] topic) {
        return set(ZmtpSocketOption.SUBSCRIBE, topic);
    }

    public boolean subscribe(String topic) {
        return subscribe(utf8(topic));
    }

    public boolean unsubscribe(byte[] topic) {
        return set(ZmtpSocketOption.UNSUBSCRIBE, topic);
    }

    public boolean unsubscribe(String topic) {
        return unsubscribe(utf8(topic));
    }

    /** DISH: joins {@code group}. */
    public boolean join(String group) {
        try {
            zmtp.join(group);
            return true;
        } catch (IllegalArgumentException e) {
            errno = ErrorCodes.EINVAL;
            return false;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** DISH: leaves {@code group}. */
    public boolean leave(String group) {
        try {
            zmtp.leave(group);
            return true;
        } catch (IllegalArgumentException e) {
            errno = ErrorCodes.EINVAL;
            return false;
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    // ---- sending

    public boolean send(String data) {
        return send(utf8(data), 0);
    }

    public boolean sendMore(String data) {
        return send(utf8(data), ZMQ.SNDMORE);
    }

    public boolean send(String data, int flags) {
        return send(utf8(data), flags);
    }

    public boolean send(byte[] data) {
        return send(data, 0);
    }

    public boolean sendMore(byte[] data) {
        return send(data, ZMQ.SNDMORE);
    }

    /**
     * Queues {@code data} as a frame (not copied: don't change the array until the message is written); null is an
     * empty frame, as in JeroMQ.
     */
    public boolean send(byte[] data, int flags) {
        return sendFrame(data == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data), flags, 0, null);
    }

    /** As {@link #send(byte[], int)}; {@code token}'s {@code cancel()} stops a blocked send with ECANCELED. */
    public boolean send(byte[] data, int flags, ZMQ.CancellationToken token) {
        token.enter();
        try {
            return send(data, flags);
        } catch (ZMQException e) {
            throw cancelledOr(e, token);
        } finally {
            token.exit();
        }
    }

    /** As {@link #recv(int)}; {@code token}'s {@code cancel()} stops a blocked receive with ECANCELED. */
    public byte[] recv(int flags, ZMQ.CancellationToken token) {
        token.enter();
        try {
            return recv(flags);
        } catch (ZMQException e) {
            throw cancelledOr(e, token);
        } finally {
            token.exit();
        }
    }

    /** A token for one blocking send or receive at a time. */
    public ZMQ.CancellationToken createCancellationToken() {
        return new ZMQ.CancellationToken();
    }

    private ZMQException cancelledOr(ZMQException e, ZMQ.CancellationToken token) {
        if (e.getErrorCode() == ErrorCodes.EINTR && token.isCancellationRequested()) {
            return failure(ErrorCodes.ECANCELED, "cancelled");
        }
        return e;
    }

    /** Queues {@code length} bytes of {@code data} from {@code off}, copied as JeroMQ copies them. */
    public boolean send(byte[] data, int off, int length, int flags) {
        return sendFrame(Unpooled.copiedBuffer(data, off, length), flags, 0, null);
    }

    /** Queues the remaining bytes of {@code data} (copied); the number of bytes, or -1 with errno EAGAIN. */
    public int sendByteBuffer(ByteBuffer data, int flags) {
        int size = data.remaining();
        return sendFrame(Unpooled.copiedBuffer(data), flags, 0, null) ? size : -1;
    }

    /**
     * Adds {@code frame} to the message being built, and queues the message if {@code flags} has no SNDMORE. Takes
     * ownership of {@code frame}. A routing id other than 0, or a group, is set on the message (SERVER, RADIO).
     */
    final boolean sendFrame(ByteBuf frame, int flags, int routingId, String group) {
        ZmtpMessage m = pending;
        if ((flags & ZMQ.SNDMORE) != 0) {
            if (isThreadSafe()) {
                // CLIENT, SERVER, RADIO...: single-part messages only; SNDMORE is refused, as libzmq and JeroMQ do.
                frame.release();
                errno = ErrorCodes.EINVAL;
                return false;
            }
            if (closedByApplication || context.isTerminating()) {
                // The last frame's send would fail: fail this one, as JeroMQ does, and hold nothing for a closed
                // socket.
                frame.release();
                throw failure(closedByApplication && !context.isTerminating() ? ErrorCodes.ENOTSOCK : ErrorCodes.ETERM,
                        "socket is closed");
            }
            if (m == null) {
                pending = ZmtpMessage.wrap(frame);
            } else {
                m.add(frame);
            }
            return true;
        }
        if (m == null) {
            m = ZmtpMessage.wrap(frame);
        } else {
            pending = null;
            m.add(frame);
        }
        if (routingId != 0) {
            m.routingId(routingId);
        }
        if (group != null) {
            m.group(group);
        }
        return queue(m, flags);
    }

    /** Queues a whole message (ZMsg's send): frames built already and any pending SNDMORE frames before them. */
    final boolean sendMessage(ZmtpMessage msg, int flags) {
        if (msg.size() > 1 && isThreadSafe()) {
            // As its first frame's send with SNDMORE would be: refused.
            msg.release();
            errno = ErrorCodes.EINVAL;
            return false;
        }
        ZmtpMessage m = pending;
        if (m != null) {
            pending = null;
            while (msg.size() > 0) {
                m.add(msg.removeFirst());
            }
            msg.release();
            msg = m;
        }
        return queue(msg, flags);
    }

    private boolean queue(ZmtpMessage m, int flags) {
        boolean queued;
        try {
            if ((flags & ZMQ.DONTWAIT) != 0) {
                queued = zmtp.trySend(m);
            } else if (sendTimeoutDuration == null) {
                zmtp.send(m);
                queued = true;
            } else {
                queued = zmtp.send(m, sendTimeoutDuration);
            }
        } catch (RuntimeException e) {
            ZMQException z = failure(e);
            if (z.getErrorCode() == ErrorCodes.EAGAIN) {
                return false;
            }
            throw z;
        }
        if (!queued) {
            errno = ErrorCodes.EAGAIN;
        }
        return queued;
    }

    // ---- receiving

    public byte[] recv() {
        return recv(0);
    }

    /** The next frame, or null with errno EAGAIN (DONTWAIT, or RCVTIMEO passed). */
    public byte[] recv(int flags) {
        ByteBuf frame = receiveFrame(flags);
        if (frame == null) {
            return null;
        }
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /**
     * Copies up to {@code len} bytes of the next frame into {@code buffer} at {@code offset}; returns the frame's
     * whole size (which may be more than was copied, as JeroMQ's), or -1 with errno EAGAIN.
     */
    public int recv(byte[] buffer, int offset, int len, int flags) {
        ByteBuf frame = receiveFrame(flags);
        if (frame == null) {
            return -1;
        }
        try {
            int size = frame.readableBytes();
            frame.getBytes(frame.readerIndex(), buffer, offset, Math.min(len, size));
            return size;
        } finally {
            frame.release();
        }
    }

    /** Puts the next frame into {@code buffer}; its size, or -1 with errno EAGAIN. */
    public int recvByteBuffer(ByteBuffer buffer, int flags) {
        ByteBuf frame = receiveFrame(flags);
        if (frame == null) {
            return -1;
        }
        try {
            int size = frame.readableBytes();
            buffer.put(frame.nioBuffer());
            return size;
        } finally {
            frame.release();
        }
    }

    public String recvStr() {
        return recvStr(0);
    }

    public String recvStr(int flags) {
        ByteBuf frame = receiveFrame(flags);
        if (frame == null) {
            return null;
        }
        try {
            return frame.toString(ZMQ.CHARSET);
        } finally {
            frame.release();
        }
    }

    /** Whether frames of the message being received are left. */
    public boolean hasReceiveMore() {
        return partial != null;
    }

    /** The next frame, which the caller releases; or null with errno EAGAIN. */
    final ByteBuf receiveFrame(int flags) {
        ZmtpMessage m = partial;
        if (m == null) {
            m = receiveMessage(flags);
            if (m == null) {
                return null;
            }
            if (m.size() == 0) {
                m.release();
                return Unpooled.EMPTY_BUFFER;
            }
        }
        ByteBuf frame = m.removeFirst();
        if (m.size() == 0) {
            partial = null;
            m.release();
        } else {
            partial = m;
        }
        return frame;
    }

    /**
     * The rest of the message being received, or the next whole message, which the caller releases; or null with
     * errno EAGAIN. ZMsg's receive: one call, no frame-by-frame bookkeeping.
     */
    final ZmtpMessage receiveWhole(int flags) {
        ZmtpMessage m = partial;
        if (m != null) {
            partial = null;
            return m;
        }
        return receiveMessage(flags);
    }

    /** CLIENT, SERVER, RADIO, DISH...: single-part messages, a routing id or group beside them. */
    final boolean isThreadSafe() {
        switch (socketType) {
            case SERVER:
            case CLIENT:
            case RADIO:
            case DISH:
            case SCATTER:
            case GATHER:
            case PEER:
            case CHANNEL:
                return true;
            default:
                return false;
        }
    }

    private ZmtpMessage receiveMessage(int flags) {
        ZmtpMessage m;
        try {
            if ((flags & ZMQ.DONTWAIT) != 0) {
                m = zmtp.tryReceive();
            } else if (receiveTimeoutDuration == null) {
                m = zmtp.receive();
            } else {
                m = zmtp.receive(receiveTimeoutDuration);
            }
        } catch (RuntimeException e) {
            throw failure(e);
        }
        if (m == null) {
            errno = ErrorCodes.EAGAIN;
        }
        return m;
    }

    // ---- state

    /** ZMQ_EVENTS: {@link ZMQ.Poller#POLLIN} if a receive would not block now, POLLOUT if a send would not. */
    public int getEvents() {
        if (hasReceiveMore()) {
            return ZMQ.Poller.POLLIN | (pollOutNow() ? ZMQ.Poller.POLLOUT : 0);
        }
        ZmtpPoller p = eventsPoller;
        if (p == null) {
            p = new ZmtpPoller();
            p.register(zmtp, ZmtpPoller.Interest.IN, ZmtpPoller.Interest.OUT);
            eventsPoller = p;
        }
        try {
            p.poll(Duration.ZERO);
        } catch (RuntimeException e) {
            throw failure(e);
        }
        return (p.isReadable(zmtp) ? ZMQ.Poller.POLLIN : 0) | (p.isWritable(zmtp) ? ZMQ.Poller.POLLOUT : 0);
    }

    private boolean pollOutNow() {
        try (ZmtpPoller p = new ZmtpPoller()) {
            p.register(zmtp, ZmtpPoller.Interest.OUT);
            return p.poll(Duration.ZERO) > 0;
        }
    }

    /** The last error code (0 if none yet); see {@link ZMQ.Error#findByCode}. */
    public int errno() {
        return errno;
    }

    /**
     * Sends this socket's events, as JeroMQ does, to a PAIR bound at {@code addr} (inproc://) in libzmq's two-frame
     * format, which {@link ZMQ.Event#recv} reads ({@link JeromqMonitor}). {@code events} is a mask of
     * {@code ZMQ.EVENT_*}. A null {@code addr} stops the monitor (MONITOR_STOPPED, if in its mask, is its last event);
     * it stops too when the socket closes. As in JeroMQ: false with errno EPROTONOSUPPORT for an address that isn't
     * inproc, or as the PAIR's bind fails (EADDRINUSE); IllegalStateException for a second monitor while one runs.
     */
    public boolean monitor(String addr, int events) {
        if (addr == null) {
            JeromqMonitor running = monitor;
            monitor = null;
            if (running != null) {
                running.stop();
            }
            return true;
        }
        if (!addr.startsWith("inproc://")) {
            errno = ErrorCodes.EPROTONOSUPPORT;
            return false;
        }
        if (monitor != null) {
            throw new IllegalStateException("Monitor registered twice");
        }
        try {
            monitor = JeromqMonitor.start(context.zmtp(), zmtp, addr, events);
            return true;
        } catch (RuntimeException e) {
            errno = codeOf(e);
            return false;
        }
    }

    /** Closes the socket with its LINGER; idempotent. Calls made after it throw ZMQException with ENOTSOCK. */
    void internalClose() {
        closedByApplication = true;
        zmtp.close();
        releaseFrames();
    }

    /**
     * Lets go of the frames held for frame-at-a-time calls once the netty-zmtp socket is closed (by its context
     * terminating). A thread blocked in a call holds none of them: a receive waits only when no frames are left,
     * and a send has taken the frames it queues.
     */
    void releaseFrames() {
        if (eventsPoller != null) {
            eventsPoller.close();
        }
        ZmtpMessage p = pending;
        pending = null;
        if (p != null) {
            p.release();
        }
        ZmtpMessage r = partial;
        partial = null;
        if (r != null) {
            r.release();
        }
    }

    @Override
    public String toString() {
        return zmtp.toString();
    }
}
