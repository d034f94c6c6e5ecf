package org.zeromq;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A multipart message as a deque of {@link ZFrame}s (JeroMQ's ZMsg, CZMQ's zmsg), with the envelope helpers of the
 * ZeroMQ Guide: {@link #wrap}/{@link #unwrap}, {@link #push}/{@link #pop}. {@link #send} queues the frames as one
 * netty-zmtp message (one call, not a call per frame); {@link #recvMsg} takes a whole message at once. Not
 * thread-safe.
 */
public class ZMsg implements Iterable<ZFrame>, java.util.Deque<ZFrame> {
    private final ArrayDeque<ZFrame> frames = new ArrayDeque<>();

    /** An empty message. */
    public ZMsg() {
    }

    /** Drops every frame's data and the frames. */
    public void destroy() {
        for (ZFrame f : frames) {
            f.destroy();
        }
        frames.clear();
    }

    /** The bytes of all frames. */
    public long contentSize() {
        long size = 0;
        for (ZFrame f : frames) {
            size += f.size();
        }
        return size;
    }

    public ZMsg addString(String str) {
        frames.add(new ZFrame(str));
        return this;
    }

    /** A copy whose frames share this message's arrays; null for an empty message, as in JeroMQ. */
    public ZMsg duplicate() {
        if (frames.isEmpty()) {
            return null;
        }
        ZMsg msg = new ZMsg();
        for (ZFrame f : frames) {
            msg.add(f.duplicate());
        }
        return msg;
    }

    /** Pushes an empty delimiter frame, then {@code frame} (a ROUTER envelope). */
    public ZMsg wrap(ZFrame frame) {
        if (frame != null) {
            push(new ZFrame(""));
            push(frame);
        }
        return this;
    }

    /** Pops the first frame, and the empty delimiter after it if there is one; returns the first. */
    public ZFrame unwrap() {
        if (frames.isEmpty()) {
            return null;
        }
        ZFrame f = pop();
        ZFrame empty = peekFirst();
        if (empty != null && empty.hasData() && empty.size() == 0) {
            pop().destroy();
        }
        return f;
    }

    /** Sends the message and destroys it. */
    public boolean send(ZMQ.Socket socket) {
        return send(socket, true);
    }

    /**
     * Sends the frames as one message, waiting while it can't be queued (up to SNDTIMEO); destroys the message if
     * {@code destroy}. True for an empty message (nothing is sent), as JeroMQ.
     */
    public boolean send(ZMQ.Socket socket, boolean destroy) {
        if (socket == null) {
            throw new IllegalArgumentException("socket is null");
        }
        if (frames.isEmpty()) {
            return true;
        }
        boolean sent;
        if (frames.size() == 1) {
            // Through ZFrame, which carries a SERVER's routing id and a RADIO's group.
            sent = frames.peekFirst().send(socket, 0);
        } else {
            ByteBuf[] bufs = new ByteBuf[frames.size()];
            int i = 0;
            for (ZFrame f : frames) {
                bufs[i++] = f.hasData() ? Unpooled.wrappedBuffer(f.getData()) : Unpooled.EMPTY_BUFFER;
            }
            sent = socket.sendMessage(ZmtpMessage.wrap(bufs), 0);
        }
        if (destroy) {
            destroy();
        }
        return sent;
    }

    /** Receives a whole message, waiting for it. */
    public static ZMsg recvMsg(ZMQ.Socket socket) {
        return recvMsg(socket, 0);
    }

    /** Receives a whole message; when not {@code wait}, null if none is there. */
    public static ZMsg recvMsg(ZMQ.Socket socket, boolean wait) {
        return recvMsg(socket, wait ? 0 : ZMQ.DONTWAIT);
    }

    /**
     * Receives a whole message (or the rest of one whose first frames were received with {@code recv}); null with
     * DONTWAIT when none is there, or when RCVTIMEO passes.
     */
    public static ZMsg recvMsg(ZMQ.Socket socket, int flag) {
        if (socket == null) {
            throw new IllegalArgumentException("socket is null");
        }
        if (socket.isThreadSafe()) {
            ZFrame f = ZFrame.recvFrame(socket, flag);
            if (f == null) {
                return null;
            }
            ZMsg msg = new ZMsg();
            msg.add(f);
            return msg;
        }
        ZmtpMessage m = socket.receiveWhole(flag);
        if (m == null) {
            return null;
        }
        try {
            ZMsg msg = new ZMsg();
            int n = m.size();
            for (int i = 0; i < n; i++) {
                msg.frames.add(new ZFrame(ByteBufUtil.getBytes(m.frame(i)), i < n - 1, 0, null));
            }
            return msg;
        } finally {
            m.release();
        }
    }

    /** Receives a message and hands it to {@code handler}; a ZMQException goes to {@code exceptionHandler}. */
    public static void recvMsg(ZMQ.Socket socket, int flags, Consumer<ZMsg> handler,
            Consumer<ZMQException> exceptionHandler) {
        ZMsg msg;
        try {
            msg = recvMsg(socket, flags);
        } catch (ZMQException e) {
            exceptionHandler.accept(e);
            return;
        }
        handler.accept(msg);
    }

    /** Receives a message and hands it (or null) to {@code handler}. */
    public static void recvMsg(ZMQ.Socket socket, int flags, Consumer<ZMsg> handler) {
        handler.accept(recvMsg(socket, flags));
    }

    /** Writes {@code msg}: the number of frames, then each frame's size and bytes. False on an I/O error. */
    public static boolean save(ZMsg msg, DataOutputStream file) {
        if (msg == null) {
            return false;
        }
        try {
            file.writeInt(msg.size());
            for (ZFrame f : msg) {
                file.writeInt(f.size());
                if (f.hasData()) {
                    file.write(f.getData());
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads a message written by {@link #save}; null on an I/O error. */
    public static ZMsg load(DataInputStream file) {
        if (file == null) {
            return null;
        }
        ZMsg msg = new ZMsg();
        try {
            int count = file.readInt();
            for (int i = 0; i < count; i++) {
                byte[] data = new byte[file.readInt()];
                file.readFully(data);
                msg.add(new ZFrame(data));
            }
            return msg;
        } catch (IOException e) {
            return null;
        }
    }

    /** A message of one frame per string. */
    public static ZMsg newStringMsg(String... strings) {
        ZMsg msg = new ZMsg();
        for (String s : strings) {
            msg.addString(s);
        }
        return msg;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        Iterator<ZFrame> a = frames.iterator();
        Iterator<ZFrame> b = ((ZMsg) o).frames.iterator();
        while (a.hasNext() && b.hasNext()) {
            if (!Objects.equals(a.next(), b.next())) {
                return false;
            }
        }
        return !a.hasNext() && !b.hasNext();
    }

    @Override
    public int hashCode() {
        int result = 1;
        for (ZFrame f : frames) {
            result = 31 * result + f.hashCode();
        }
        return frames.isEmpty() ? 0 : result;
    }

    /** Appends a dump: a line of dashes, then one line per frame, {@code [size] text}. */
    public ZMsg dump(Appendable out) {
        StringBuilder b = new StringBuilder("--------------------------------------\n");
        for (ZFrame f : frames) {
            b.append(String.format("[%03d] %s%n", f.size(), f));
        }
        try {
            out.append(b);
        } catch (IOException e) {
            throw new UncheckedIOException("Message dump exception", e);
        }
        return this;
    }

    /** Dumps to standard output. */
    public ZMsg dump() {
        return dump(System.out);
    }

    public ZMsg addFirst(String stringValue) {
        addFirst(new ZFrame(stringValue));
        return this;
    }

    public ZMsg addFirst(byte[] data) {
        addFirst(new ZFrame(data));
        return this;
    }

    public ZMsg addLast(String stringValue) {
        addLast(new ZFrame(stringValue));
        return this;
    }

    public ZMsg addLast(byte[] data) {
        addLast(new ZFrame(data));
        return this;
    }

    public ZMsg push(String str) {
        push(new ZFrame(str));
        return this;
    }

    public ZMsg push(byte[] data) {
        push(new ZFrame(data));
        return this;
    }

    public boolean add(String stringValue) {
        return add(new ZFrame(stringValue));
    }

    public boolean add(byte[] data) {
        return add(new ZFrame(data));
    }

    public ZMsg append(String stringValue) {
        add(stringValue);
        return this;
    }

    public ZMsg append(byte[] data) {
        add(data);
        return this;
    }

    /** Appends {@code msg}'s frames (null appends nothing); a message appended to itself doubles. */
    public ZMsg append(ZMsg msg) {
        if (msg != null) {
            // A copy first: msg may be this message.
            frames.addAll(new ArrayList<>(msg.frames));
        }
        return this;
    }

    /** Pops the first frame as a UTF-8 string; null if the message is empty. */
    public String popString() {
        ZFrame f = pop();
        return f == null ? null : f.toString();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("[ ");
        Iterator<ZFrame> i = frames.iterator();
        while (i.hasNext()) {
            b.append(i.next());
            if (i.hasNext()) {
                b.append(", ");
            }
        }
        return b.append(" ]").toString();
    }

    // ---- Deque, on the frames

    @Override
    public Iterator<ZFrame> iterator() {
        return frames.iterator();
    }

    @Override
    public boolean addAll(Collection<? extends ZFrame> c) {
        return frames.addAll(c);
    }

    @Override
    public void clear() {
        frames.clear();
    }

    @Override
    public boolean containsAll(Collection<?> c) {
        return frames.containsAll(c);
    }

    @Override
    public boolean isEmpty() {
        return frames.isEmpty();
    }

    @Override
    public boolean removeAll(Collection<?> c) {
        return frames.removeAll(c);
    }

    @Override
    public boolean retainAll(Collection<?> c) {
        return frames.retainAll(c);
    }

    @Override
    public Object[] toArray() {
        return frames.toArray();
    }

    @Override
    public <T> T[] toArray(T[] a) {
        return frames.toArray(a);
    }

    @Override
    public boolean add(ZFrame e) {
        return frames.add(e);
    }

    @Override
    public void addFirst(ZFrame e) {
        frames.addFirst(e);
    }

    @Override
    public void addLast(ZFrame e) {
        frames.addLast(e);
    }

    @Override
    public boolean contains(Object o) {
        return frames.contains(o);
    }

    @Override
    public Iterator<ZFrame> descendingIterator() {
        return frames.descendingIterator();
    }

    @Override
    public ZFrame element() {
        return frames.element();
    }

    @Override
    public ZFrame getFirst() {
        return frames.peekFirst();
    }

    @Override
    public ZFrame getLast() {
        return frames.peekLast();
    }

    @Override
    public boolean offer(ZFrame e) {
        return frames.offer(e);
    }

    @Override
    public boolean offerFirst(ZFrame e) {
        return frames.offerFirst(e);
    }

    @Override
    public boolean offerLast(ZFrame e) {
        return frames.offerLast(e);
    }

    @Override
    public ZFrame peek() {
        return frames.peek();
    }

    @Override
    public ZFrame peekFirst() {
        return frames.peekFirst();
    }

    @Override
    public ZFrame peekLast() {
        return frames.peekLast();
    }

    @Override
    public ZFrame poll() {
        return frames.poll();
    }

    @Override
    public ZFrame pollFirst() {
        return frames.pollFirst();
    }

    @Override
    public ZFrame pollLast() {
        return frames.pollLast();
    }

    /** The first frame, removed; null if the message is empty (JeroMQ's, unlike Deque's). */
    @Override
    public ZFrame pop() {
        return frames.poll();
    }

    @Override
    public void push(ZFrame e) {
        frames.push(e);
    }

    @Override
    public ZFrame remove() {
        return frames.remove();
    }

    @Override
    public boolean remove(Object o) {
        return frames.remove(o);
    }

    @Override
    public ZFrame removeFirst() {
        return frames.pollFirst();
    }

    @Override
    public boolean removeFirstOccurrence(Object o) {
        return frames.removeFirstOccurrence(o);
    }

    @Override
    public ZFrame removeLast() {
        return frames.pollLast();
    }

    @Override
    public boolean removeLastOccurrence(Object o) {
        return frames.removeLastOccurrence(o);
    }

    @Override
    public int size() {
        return frames.size();
    }
}
