package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;


/**
 * ROUTER (rfc 28): each connected peer gets a routing id, the Identity it announced or, if none, 5 bytes
 * {@code 00} + a u32 counter (libzmq's scheme). Received messages get the id prepended; sent messages are routed by
 * their first frame. A peer announcing an id already in use is ignored, unless ROUTER_HANDOVER, which moves the id to
 * it and disconnects the old peer. Unroutable messages are dropped, or with ROUTER_MANDATORY throw
 * {@link ZmtpSocketException.HostUnreachable}; a full peer drops, or with ROUTER_MANDATORY blocks.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class RouterSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    private final RoutingTable byId = new RoutingTable();

    public RouterSocket(SocketContext context) {
        super(context, ZmtpSocketType.ROUTER);
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
        byte[] id = pipe.peerIdentity();
        if (id.length == 0) {
            id = byId.newId();
        }
        Pipe existing = byId.get(id);
        if (existing != null && existing != pipe) {
            if (!option(ZmtpSocketOption.ROUTER_HANDOVER)) {
                pipe.routingId(null);
                pipe.routable(false);
                return;
            }
            existing.routable(false);
            existing.routingId(null);
            if (existing.channel() != null) {
                existing.channel().close();
            }
        }
        pipe.routingId(id);
        pipe.routable(true);
        byId.put(id, pipe);
    }

    @Override
    protected void xdisconnected(Pipe pipe) {
        byId.remove(pipe);
        pipe.routable(false);
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            byte[] id = fq.lastPipe().routingId();
            if (id == null) {
                // A peer whose id duplicates another's: its messages are never delivered (libzmq).
                m.release();
                continue;
            }
            m.addFirst(Unpooled.wrappedBuffer(id.clone()));
            return m;
        }
        return null;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        ByteBuf idFrame = msg.frame(0);
        Pipe p = byId.get(idFrame);
        if (p == null || !p.isActive() || msg.size() < 2) {
            // Looked up only here: an option lookup per message was 1% of an echoing ROUTER's profile.
            if (option(ZmtpSocketOption.ROUTER_MANDATORY)) {
                throw new ZmtpSocketException.HostUnreachable("no peer with routing id "
                        + ByteBufUtil.hexDump(idFrame) + " (EHOSTUNREACH)");
            }
            countUnroutableDrop();
            msg.release();
            return true;
        }
        return sendToPeer(msg, p);
    }

    @Override
    protected boolean xhasOut() {
        return true;
    }

    @Override
    protected Pipe xlastPipe() {
        return fq.lastPipe();
    }

    @Override
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        return option(ZmtpSocketOption.ROUTER_MANDATORY) ? ZmtpOverflowPolicy.BLOCK : ZmtpOverflowPolicy.DROP_NEWEST;
    }
}
