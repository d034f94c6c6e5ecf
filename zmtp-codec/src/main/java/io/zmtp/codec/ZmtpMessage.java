package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.ReferenceCounted;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A multipart ZeroMQ message: one or more frames (zero-length frames allowed), delivered and sent whole.
 *
 * <h2>Ownership</h2>
 * A message owns its frames: releasing the message releases every frame. Factories that take {@code ByteBuf}s take
 * over the caller's reference; factories that take strings or byte arrays wrap or copy them. Messages read from a
 * connection hold slices of the read buffer (no payload copy) and must be released by whoever consumes them;
 * messages written to a connection are released by the codec once written. {@link #frame(int)} lends a frame: it
 * stays valid while the message is alive, and its reference count belongs to the message.
 *
 * <h2>Empty messages</h2>
 * A message with no frames ({@link #create()} with nothing added, or one emptied by {@link #removeFirst()}) is written
 * as one empty frame, as libzmq sends an empty {@code zmq_msg_t}. Messages read from a connection always have at
 * least one frame.
 *
 * <h2>Before queueing a message for writing</h2>
 * The codec refuses only a released message: its write fails with an
 * {@link IllegalReferenceCountException} and the other writes of the batch are unaffected. Code that queues messages
 * to write later (a socket's outbound queue) can check {@link #isAccessible()} up front and refuse the message
 * there, where the caller still gets the error.
 *
 * <p>A message is not thread-safe; hand it from one thread to another, don't share it. Its reference count is
 * atomic, as a buffer's is, so that a message retained for several writers can be released from their threads.
 *
 * <h2>Layout</h2>
 * One object per message of one frame, the common case on both paths: the frame is held in a field and an array is
 * made only for a second frame (or an envelope). The reference count is a field of the message itself, not a
 * separate object as Netty 4.2's {@code AbstractReferenceCounted} makes it.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Message Specification"</a>
 */
public final class ZmtpMessage implements ReferenceCounted {
    private static final ByteBuf[] NO_FRAMES = new ByteBuf[0];
    /** The longest group, in bytes (libzmq's {@code ZMQ_GROUP_MAX_LENGTH}). */
    public static final int MAX_GROUP_LENGTH = 255;
    /** A VarHandle: an AtomicIntegerFieldUpdater checks the object's class on every call, which shows in a profile. */
    private static final VarHandle REF_CNT;

    static {
        try {
            REF_CNT = MethodHandles.lookup().findVarHandle(ZmtpMessage.class, "refCnt", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int refCnt = 1;
    /** The frames {@code [first, end)}; null while the message has at most one, which is then {@code only}. */
    private ByteBuf[] frames;
    private ByteBuf only;
    private int first;
    private int end;
    /** The thread-safe types' routing id beside the message (SERVER, PEER); 0 when none. */
    private int routingId;
    /** The thread-safe types' group beside the message (RADIO, DISH); null when none. */
    private String group;

    private ZmtpMessage(ByteBuf[] frames, int count) {
        this.frames = frames;
        this.first = 0;
        this.end = count;
    }

    private ZmtpMessage(ByteBuf only) {
        this.only = only;
        this.end = 1;
    }

    /**
     * A message with no frames yet, to be filled with {@link #add}. Written as it is, it goes out as one empty frame
     * (what an empty {@code zmq_msg_t} is to libzmq).
     */
    public static ZmtpMessage create() {
        return new ZmtpMessage(new ByteBuf[4], 0);
    }

    /**
     * A message of one frame; takes over the caller's reference. The common case on the read path: one array of one,
     * where the varargs form would make one and copy it.
     */
    public static ZmtpMessage wrap(ByteBuf frame) {
        return new ZmtpMessage(frame);
    }

    /** A message of the given frames; takes over the caller's reference to each. */
    public static ZmtpMessage wrap(ByteBuf... frames) {
        if (frames.length == 0) {
            throw new IllegalArgumentException("a message has at least one frame");
        }
        return frames.length == 1 ? new ZmtpMessage(frames[0]) : new ZmtpMessage(frames.clone(), frames.length);
    }

    /** A message of the given frames; takes over the caller's reference to each. */
    public static ZmtpMessage wrap(List<ByteBuf> frames) {
        return wrap(frames.toArray(NO_FRAMES));
    }

    /** A message of UTF-8 encoded strings, one frame each. */
    public static ZmtpMessage of(String... frames) {
        return of(StandardCharsets.UTF_8, frames);
    }

    /** A message of strings in {@code charset}, one frame each. */
    public static ZmtpMessage of(Charset charset, String... frames) {
        ByteBuf[] bufs = new ByteBuf[frames.length];
        for (int i = 0; i < frames.length; i++) {
            bufs[i] = Unpooled.wrappedBuffer(frames[i].getBytes(charset));
        }
        return wrap(bufs);
    }

    /** A message of byte arrays, one frame each; the arrays are wrapped, not copied. */
    public static ZmtpMessage ofBytes(byte[]... frames) {
        ByteBuf[] bufs = new ByteBuf[frames.length];
        for (int i = 0; i < frames.length; i++) {
            bufs[i] = Unpooled.wrappedBuffer(frames[i]);
        }
        return wrap(bufs);
    }

    /**
     * Whether the message can still be used (and written): its reference count is above zero. The one check the
     * codec makes before writing a message; a message with no frames is valid (see the class doc).
     */
    public boolean isAccessible() {
        return refCnt() > 0;
    }

    /** Number of frames. */
    public int size() {
        return end - first;
    }

    /** The frame at {@code index}, lent (see class doc). */
    public ByteBuf frame(int index) {
        checkIndex(index);
        return frames == null ? only : frames[first + index];
    }

    /** A copy of the frame's bytes. */
    public byte[] frameBytes(int index) {
        return ByteBufUtil.getBytes(frame(index));
    }

    /** The frame's bytes decoded as UTF-8. */
    public String frameString(int index) {
        return frame(index).toString(StandardCharsets.UTF_8);
    }

    /**
     * Every frame decoded as UTF-8, in order: a copy that stays valid after the message is released. With
     * {@link #of(String...)} and {@link #ofBytes(byte[]...)}, the way to move text and arrays in and out without
     * touching buffers; {@code ZmtpSocket}'s {@code send(String...)} and {@code receiveString()} do the same at the
     * socket and also take care of releasing.
     */
    public List<String> toStrings() {
        String[] out = new String[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = frameString(i);
        }
        return List.of(out);
    }

    /** A copy of every frame's bytes, in order, that stays valid after the message is released. */
    public List<byte[]> toByteArrays() {
        byte[][] out = new byte[size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = frameBytes(i);
        }
        return List.of(out);
    }

    /**
     * The routing id carried beside the message by the thread-safe types: on a message a SERVER or PEER received, the
     * peer it came from; on one sent through them, the peer it goes to. 0 (never a peer's) when none. Not sent on
     * the wire, and not used by the other types.
     */
    public int routingId() {
        return routingId;
    }

    /** Sets the routing id a SERVER or PEER sends this message to (libzmq's {@code zmq_msg_set_routing_id}). */
    public ZmtpMessage routingId(int routingId) {
        this.routingId = routingId;
        return this;
    }

    /**
     * The group carried beside the message by RADIO and DISH: the group a RADIO publishes it to, or the one a DISH
     * received it in; null when none.
     */
    public String group() {
        return group;
    }

    /**
     * Sets the group a RADIO publishes this message to (libzmq's {@code zmq_msg_set_group}): 1 to 255 bytes in UTF-8,
     * or null for none.
     */
    public ZmtpMessage group(String group) {
        if (group != null) {
            int bytes = ByteBufUtil.utf8Bytes(group);
            if (bytes == 0 || bytes > MAX_GROUP_LENGTH) {
                throw new IllegalArgumentException("group of " + bytes + " bytes (expected: 1.." + MAX_GROUP_LENGTH
                        + " in UTF-8)");
            }
        }
        this.group = group;
        return this;
    }

    /** Total bytes in all frames. */
    public long contentLength() {
        ByteBuf[] fs = frames;
        if (fs == null) {
            return end == 0 ? 0 : only.readableBytes();
        }
        long n = 0;
        for (int i = first; i < end; i++) {
            n += fs[i].readableBytes();
        }
        return n;
    }

    /** Appends a frame, taking over the caller's reference. */
    public ZmtpMessage add(ByteBuf frame) {
        ensureAccessible();
        if (frames == null) {
            inflate(0);
        }
        if (end == frames.length) {
            frames = Arrays.copyOf(frames, Math.max(4, frames.length * 2));
        }
        frames[end++] = frame;
        return this;
    }

    /** Prepends a frame (an envelope), taking over the caller's reference. */
    public ZmtpMessage addFirst(ByteBuf frame) {
        ensureAccessible();
        if (frames == null) {
            // Room in front: a ROUTER prepends an id to each message it receives.
            inflate(2);
        }
        if (first == 0) {
            int count = size();
            int room = Math.max(2, count);
            ByteBuf[] grown = new ByteBuf[room + count + 2];
            System.arraycopy(frames, first, grown, room, count);
            frames = grown;
            first = room;
            end = room + count;
        }
        frames[--first] = frame;
        return this;
    }

    /** Removes the first frame and hands its reference to the caller. */
    public ByteBuf removeFirst() {
        ensureAccessible();
        checkIndex(0);
        if (frames == null) {
            ByteBuf f = only;
            only = null;
            end = 0;
            return f;
        }
        ByteBuf f = frames[first];
        frames[first++] = null;
        return f;
    }

    /** From a field to an array, for a second frame or an envelope ({@code front} free slots before the frame). */
    private void inflate(int front) {
        ByteBuf[] fs = new ByteBuf[front + 4];
        int n = end - first;
        if (n == 1) {
            fs[front] = only;
        }
        only = null;
        frames = fs;
        first = front;
        end = front + n;
    }

    private void ensureAccessible() {
        if (refCnt() == 0) {
            throw new IllegalReferenceCountException(0);
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("frame index: " + index + " (expected: 0.." + (size() - 1) + ")");
        }
    }

    private void deallocate() {
        ByteBuf[] fs = frames;
        if (fs == null) {
            if (end > first) {
                only.release();
                only = null;
            }
        } else {
            for (int i = first; i < end; i++) {
                fs[i].release();
                fs[i] = null;
            }
        }
        first = end = 0;
    }

    @Override
    public int refCnt() {
        return refCnt;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        for (;;) {
            int count = refCnt;
            if (count < decrement) {
                throw new IllegalReferenceCountException(count, -decrement);
            }
            if (REF_CNT.compareAndSet(this, count, count - decrement)) {
                if (count == decrement) {
                    deallocate();
                    return true;
                }
                return false;
            }
        }
    }

    @Override
    public ZmtpMessage touch(Object hint) {
        for (int i = 0, n = size(); i < n; i++) {
            frame(i).touch(hint);
        }
        return this;
    }

    @Override
    public ZmtpMessage touch() {
        return touch(null);
    }

    @Override
    public ZmtpMessage retain() {
        return retain(1);
    }

    @Override
    public ZmtpMessage retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        for (;;) {
            int count = refCnt;
            if (count == 0 || count > Integer.MAX_VALUE - increment) {
                throw new IllegalReferenceCountException(count, increment);
            }
            if (REF_CNT.compareAndSet(this, count, count + increment)) {
                return this;
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ZmtpMessage[");
        if (refCnt() == 0) {
            return sb.append("released]").toString();
        }
        for (int i = 0, count = size(); i < count; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            ByteBuf f = frame(i);
            int n = Math.min(f.readableBytes(), 32);
            sb.append(ZmtpPrintable.of(ByteBufUtil.getBytes(f, f.readerIndex(), n)));
            if (n < f.readableBytes()) {
                sb.append("...(").append(f.readableBytes()).append(" B)");
            }
        }
        return sb.append(']').toString();
    }
}
