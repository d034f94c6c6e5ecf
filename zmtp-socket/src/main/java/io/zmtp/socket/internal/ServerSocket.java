package io.zmtp.socket.internal;

import io.netty.util.collection.IntObjectHashMap;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * SERVER (rfc 41) and PEER (rfc 51): each peer gets a non-zero 32-bit routing id when it joins the socket's routing,
 * told on each message received from it ({@link ZmtpMessage#routingId()}); a message sent goes to the peer whose id it
 * carries, and fails with {@link ZmtpSocketException.HostUnreachable} when no peer has it (libzmq EHOSTUNREACH). A
 * peer at SNDHWM makes the send wait (BLOCK, as libzmq's EAGAIN retried by a blocking send), or whatever the overflow
 * policy says. Single-part messages only ({@link SinglePart}). PEER may connect as well as bind, and
 * {@link #connectPeer} tells the id of the peer it connects to at once, before the connection is up.
 *
 * <p>Ids count up from 1 per socket, skipping 0 and any still in use when the counter wraps, as libzmq's
 * {@code _next_routing_id} does (which does not skip ids in use; four billion peers later, this one does).
 *
 * @see <a href="https://rfc.zeromq.org/spec/41/">rfc 41/CLIENTSERVER</a>
 * @see <a href="https://rfc.zeromq.org/spec/51/">rfc 51/PEER</a>
 */
public final class ServerSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    private final IntObjectHashMap<Pipe> byId = new IntObjectHashMap<>();
    private int nextId = 1;

    /** SERVER or PEER. */
    public ServerSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
    }

    @Override
    protected void xattach(Pipe pipe) {
        assignId(pipe);
        fq.add(pipe);
    }

    private int assignId(Pipe pipe) {
        int id = pipe.serverRoutingId();
        if (id == 0) {
            do {
                id = nextId++;
            } while (id == 0 || byId.containsKey(id));
            pipe.serverRoutingId(id);
            byId.put(id, pipe);
        }
        return id;
    }

    @Override
    protected void xdetach(Pipe pipe) {
        fq.remove(pipe);
        int id = pipe.serverRoutingId();
        if (id != 0 && byId.get(id) == pipe) {
            byId.remove(id);
        }
    }

    /**
     * PEER: connects to {@code endpoint} and returns the routing id its peer has from now on (libzmq's
     * {@code zmq_connect_peer}); messages to it wait in its queue until the connection is up.
     */
    @Override
    public int connectPeer(String endpoint) {
        if (type != ZmtpSocketType.PEER) {
            return super.connectPeer(endpoint);
        }
        lock.lock();
        try {
            return assignId(connectPipe(endpoint));
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage m = SinglePart.receive(this, fq);
        if (m != null) {
            m.routingId(fq.lastPipe().serverRoutingId());
        }
        return m;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        SinglePart.checkSend(type, msg);
        int id = msg.routingId();
        Pipe p = id == 0 ? null : byId.get(id);
        if (p == null) {
            throw new ZmtpSocketException.HostUnreachable(type + ": no peer with routing id " + Integer.toUnsignedString(id)
                    + (id == 0 ? " (set the message's routing id)" : "") + " (EHOSTUNREACH)");
        }
        if (p.hasRoom()) {
            // Over inproc the message itself reaches the peer: it must not arrive carrying this side's id.
            msg.routingId(0);
            if (p.offer(msg)) {
                return true;
            }
            msg.routingId(id);
        }
        return overflow(msg, p);
    }

    @Override
    protected boolean xhasOut() {
        // As libzmq: whether a send can go out depends on the peer the message names.
        return true;
    }

    @Override
    protected Pipe xlastPipe() {
        return fq.lastPipe();
    }
}
