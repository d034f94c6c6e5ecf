package org.zeromq;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.zeromq.util.ZData;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Objects;

/**
 * One frame of a message, as a byte array (JeroMQ's ZFrame, CZMQ's zframe): send it with {@link #send}, receive one
 * with {@link #recvFrame}. On a SERVER socket a frame carries the peer's routing id ({@link #getRoutingId()}), on
 * RADIO/DISH a group. Not thread-safe.
 */
public class ZFrame {
    /** Flag: more frames of the message follow. */
    public static final int MORE = ZMQ.SNDMORE;
    /** Flag kept for JeroMQ's API; no effect (frames are never reused after a send). */
    public static final int REUSE = 128;
    /** Flag: don't wait. */
    public static final int DONTWAIT = ZMQ.DONTWAIT;

    private boolean more;
    private byte[] data;
    private int routingId;
    private String group;

    /** A frame without data. */
    protected ZFrame() {
    }

    /** A frame of {@code data} (not copied). */
    public ZFrame(byte[] data) {
        this.data = data;
    }

    /** A frame of {@code data} in UTF-8. */
    public ZFrame(String data) {
        if (data != null) {
            this.data = data.getBytes(ZMQ.CHARSET);
        }
    }

    ZFrame(byte[] data, boolean more, int routingId, String group) {
        this.data = data;
        this.more = more;
        this.routingId = routingId;
        this.group = group;
    }

    /** SERVER: the routing id of the peer the frame came from, or is for. */
    public int getRoutingId() {
        return routingId;
    }

    public void setRoutingId(int routingId) {
        this.routingId = routingId;
    }

    /** RADIO/DISH: the group. */
    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    /** Drops the data. */
    public void destroy() {
        data = null;
    }

    /** The data (not a copy), or null. */
    public byte[] getData() {
        return data;
    }

    /** The data as text in {@code charset}; empty if there is none. */
    public String getString(Charset charset) {
        return data == null ? "" : new String(data, charset);
    }

    /** Whether more frames of its message followed this one when it was received. */
    public boolean hasMore() {
        return more;
    }

    public int size() {
        return data == null ? 0 : data.length;
    }

    public boolean hasData() {
        return data != null;
    }

    /**
     * Sends the frame; {@code flags} may have {@link #MORE} and {@link #DONTWAIT}. The routing id is used by a
     * SERVER socket, the group by RADIO. False with errno EAGAIN if it can't be queued now.
     */
    public boolean send(ZMQ.Socket socket, int flags) {
        Objects.requireNonNull(socket, "socket parameter must be set");
        ByteBuf buf = data == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(data);
        int sendFlags = (flags & MORE) != 0 ? ZMQ.SNDMORE : 0;
        sendFlags |= (flags & DONTWAIT) != 0 ? ZMQ.DONTWAIT : 0;
        int id = socket.getSocketType() == SocketType.SERVER || socket.getSocketType() == SocketType.PEER
                ? routingId : 0;
        return socket.sendFrame(buf, sendFlags, id, group);
    }

    public boolean sendAndKeep(ZMQ.Socket socket, int flags) {
        return send(socket, flags);
    }

    public boolean sendAndKeep(ZMQ.Socket socket) {
        return sendAndKeep(socket, 0);
    }

    /** Sends the frame, and drops its data if it was sent. */
    public boolean sendAndDestroy(ZMQ.Socket socket, int flags) {
        boolean sent = send(socket, flags);
        if (sent) {
            destroy();
        }
        return sent;
    }

    public boolean sendAndDestroy(ZMQ.Socket socket) {
        return sendAndDestroy(socket, 0);
    }

    /** A frame of the same data (the array is shared, as in JeroMQ). */
    public ZFrame duplicate() {
        return new ZFrame(data);
    }

    public boolean hasSameData(ZFrame other) {
        return other != null && Arrays.equals(data, other.data);
    }

    public void reset(String data) {
        this.data = data.getBytes(ZMQ.CHARSET);
    }

    public void reset(byte[] data) {
        this.data = data;
    }

    /** The data in upper-case hex. */
    public String strhex() {
        return ZData.strhex(data);
    }

    /** Whether the data is {@code str} in UTF-8. */
    public boolean streq(String str) {
        return data != null && new String(data, ZMQ.CHARSET).equals(str);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        return Arrays.equals(data, ((ZFrame) o).data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(data);
    }

    /** The data as text if printable, else in hex. */
    @Override
    public String toString() {
        return FrameText.text(data);
    }

    /** Receives a frame, waiting for it. */
    public static ZFrame recvFrame(ZMQ.Socket socket) {
        return recvFrame(socket, 0);
    }

    /** Receives a frame; null with DONTWAIT when none is there (errno EAGAIN). */
    public static ZFrame recvFrame(ZMQ.Socket socket, int flags) {
        if (socket.isThreadSafe()) {
            // Single-part messages, maybe received by several threads: the routing id and group are read from
            // the message itself, not from the socket's state.
            io.zmtp.codec.ZmtpMessage m = socket.receiveWhole(flags);
            if (m == null) {
                return null;
            }
            try {
                byte[] bytes = m.size() == 0 ? new byte[0] : ByteBufUtil.getBytes(m.frame(0));
                return new ZFrame(bytes, false, m.routingId(), m.group());
            } finally {
                m.release();
            }
        }
        ByteBuf buf = socket.receiveFrame(flags);
        if (buf == null) {
            return null;
        }
        try {
            return new ZFrame(ByteBufUtil.getBytes(buf), socket.hasReceiveMore(), 0, null);
        } finally {
            buf.release();
        }
    }

    /** Prints the frame to standard output, as one dump line after {@code prefix}. */
    public void print(String prefix) {
        if (data == null) {
            return;
        }
        System.out.println((prefix == null ? "" : prefix) + FrameText.dumpLine(data));
    }
}
