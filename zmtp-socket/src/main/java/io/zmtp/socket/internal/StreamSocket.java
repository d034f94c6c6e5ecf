package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

import java.util.ArrayDeque;

/**
 * STREAM (libzmq's ZMQ_STREAM): talks to plain tcp peers, no ZMTP. Each connection gets a 5-byte routing id
 * ({@code 00} + a u32 counter, as ROUTER makes them), new for every connection; what a peer sends arrives as
 * {@code [id, bytes]}, as it came off the wire (one message per read, no message boundaries); a connection that comes
 * up or goes away is announced as {@code [id, ""]}, in order with its data. Sending {@code [id, bytes...]} writes the
 * bytes to that peer; {@code [id, ""]} closes its connection once what was queued before is written. An unknown id
 * throws {@link ZmtpSocketException.HostUnreachable}, as libzmq's EHOSTUNREACH.
 */
public final class StreamSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    private final RoutingTable byId = new RoutingTable();
    /** Connect and disconnect notices, and a lost connection's last data, for the application before the rest. */
    private final ArrayDeque<ZmtpMessage> notices = new ArrayDeque<>();
    private final ArrayDeque<Pipe> noticesFrom = new ArrayDeque<>();
    private Pipe lastFrom;

    public StreamSocket(SocketContext context) {
        super(context, ZmtpSocketType.STREAM);
    }

    @Override
    boolean xrawStream() {
        return true;
    }

    @Override
    protected void xattach(Pipe pipe) {
        fq.add(pipe);
    }

    @Override
    protected void xdetach(Pipe pipe) {
        fq.remove(pipe);
        byId.remove(pipe);
    }

    @Override
    protected void xconnected(Pipe pipe) {
        byte[] id = byId.newId();
        pipe.routingId(id);
        pipe.routable(true);
        byId.put(id, pipe);
        notice(pipe, id);
    }

    @Override
    protected void xdisconnected(Pipe pipe) {
        byte[] id = pipe.routingId();
        if (id == null) {
            return;
        }
        // What the connection delivered before it went away comes first, then the notice.
        ZmtpMessage m;
        while ((m = pipe.poll()) != null) {
            notices.add(m.addFirst(Unpooled.wrappedBuffer(id.clone())));
            noticesFrom.add(pipe);
        }
        notice(pipe, id);
        byId.remove(pipe);
        pipe.routable(false);
    }

    private void notice(Pipe pipe, byte[] id) {
        notices.add(ZmtpMessage.wrap(Unpooled.wrappedBuffer(id.clone()), Unpooled.EMPTY_BUFFER));
        noticesFrom.add(pipe);
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage n = notices.poll();
        if (n != null) {
            lastFrom = noticesFrom.poll();
            return n;
        }
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            Pipe p = fq.lastPipe();
            byte[] id = p.routingId();
            if (id == null) {
                m.release();
                continue;
            }
            lastFrom = p;
            return m.addFirst(Unpooled.wrappedBuffer(id.clone()));
        }
        return null;
    }

    @Override
    protected Pipe xlastPipe() {
        return lastFrom;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        ByteBuf idFrame = msg.frame(0);
        Pipe p = byId.get(idFrame);
        if (p == null || !p.isActive()) {
            throw new ZmtpSocketException.HostUnreachable("STREAM: no peer with routing id "
                    + ByteBufUtil.hexDump(idFrame) + " (EHOSTUNREACH)");
        }
        if (msg.size() < 2) {
            throw new ZmtpSocketException.IllegalState("STREAM sends [routing id, data]; got one frame");
        }
        if (msg.size() == 2 && !msg.frame(1).isReadable()) {
            msg.release();
            p.writeToConnection(StreamConnectionHandler.CLOSE);
            return true;
        }
        return sendToPeer(msg, p);
    }

    @Override
    protected boolean xhasOut() {
        return true;
    }

    @Override
    protected void xclose() {
        ZmtpMessage m;
        while ((m = notices.poll()) != null) {
            m.release();
        }
        noticesFrom.clear();
    }
}
