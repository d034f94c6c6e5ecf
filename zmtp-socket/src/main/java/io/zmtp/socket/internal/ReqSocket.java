package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * REQ (rfc 28): prepends the empty delimiter, load-balances requests, and then accepts a reply only from the pipe
 * the request went to, only if it starts with the delimiter; anything else is discarded. Strict send/receive
 * alternation: a reply that has arrived (and that a poll may have seen) must be received before the next request,
 * as in libzmq, where a REQ with a reply pending is readable and not writable.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class ReqSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();
    private Pipe current;
    private boolean receiving;
    /** The reply, taken from the pipe by a poll before the application receives it. */
    private ZmtpMessage reply;

    public ReqSocket(SocketContext context) {
        super(context, ZmtpSocketType.REQ);
    }

    @Override
    protected void xattach(Pipe pipe) {
        lb.add(pipe);
    }

    @Override
    protected void xdetach(Pipe pipe) {
        lb.remove(pipe);
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        if (receiving) {
            throw new ZmtpSocketException.IllegalState(
                    "REQ must receive the reply before sending another request (EFSM)");
        }
        msg.addFirst(Unpooled.EMPTY_BUFFER);
        Pipe p = lb.send(msg);
        if (p == null) {
            msg.removeFirst();
            return false;
        }
        current = p;
        receiving = true;
        return true;
    }

    @Override
    protected void xcheckRecv() {
        if (!receiving) {
            throw new ZmtpSocketException.IllegalState("REQ must send a request before receiving (EFSM)");
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage m = reply != null ? reply : nextReply();
        if (m != null) {
            reply = null;
            receiving = false;
            current = null;
        }
        return m;
    }

    /** Whether the reply is here; it is kept, and the socket still waits for it to be received (no state change). */
    @Override
    protected boolean xhasIn() {
        if (reply == null) {
            reply = nextReply();
        }
        return reply != null;
    }

    /**
     * The reply to the outstanding request without its delimiter, or null; discards anything else (input from other
     * peers, messages without the delimiter).
     */
    private ZmtpMessage nextReply() {
        for (Pipe p : pipes()) {
            if (p != current) {
                discardInput(p);
            }
        }
        if (!receiving || current == null) {
            return null;
        }
        ZmtpMessage m;
        while ((m = current.poll()) != null) {
            if (m.size() >= 2 && !m.frame(0).isReadable()) {
                m.removeFirst().release();
                repliedBy = current;
                return m;
            }
            m.release();
        }
        return null;
    }

    private static void discardInput(Pipe p) {
        ZmtpMessage m;
        while ((m = p.poll()) != null) {
            m.release();
        }
    }

    @Override
    protected boolean xhasOut() {
        return !receiving && lb.hasRoom();
    }

    @Override
    protected void xclose() {
        if (reply != null) {
            reply.release();
            reply = null;
        }
    }

    // ---- peers

    /** The pipe the last reply came from. */
    private Pipe repliedBy;

    @Override
    protected Pipe xlastPipe() {
        return repliedBy;
    }
}
