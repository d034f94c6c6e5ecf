package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

import java.util.ArrayList;
import java.util.List;

/**
 * REP (rfc 28): fair-queues requests, strips and saves the envelope (every frame up to and including the empty
 * delimiter; a request without one is discarded), and sends the reply, envelope re-attached, to the pipe the request
 * came from. A reply to a peer that has gone, or is full, is dropped. Strict receive/send alternation.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class RepSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    private final List<ByteBuf> envelope = new ArrayList<>();
    private Pipe replyTo;
    private boolean sending;
    /** The next request (envelope still on), taken from its pipe by a poll before the application receives it. */
    private ZmtpMessage request;
    private Pipe requestFrom;

    public RepSocket(SocketContext context) {
        super(context, ZmtpSocketType.REP);
    }

    @Override
    protected void xattach(Pipe pipe) {
        fq.add(pipe);
    }

    @Override
    protected void xcheckRecv() {
        if (sending) {
            throw new ZmtpSocketException.IllegalState(
                    "REP must send the reply before receiving another request (EFSM)");
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        if (sending || !xhasIn()) {
            return null;
        }
        ZmtpMessage m = request;
        request = null;
        int delimiter = delimiterIndex(m);
        for (int i = 0; i <= delimiter; i++) {
            envelope.add(m.removeFirst());
        }
        replyTo = requestFrom;
        requestFrom = null;
        sending = true;
        return m;
    }

    /** Whether a request is here; it is kept as it is, and the socket still may not send (no state change). */
    @Override
    protected boolean xhasIn() {
        if (sending) {
            return false;
        }
        if (request != null) {
            return true;
        }
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            int delimiter = delimiterIndex(m);
            if (delimiter < 0 || delimiter == m.size() - 1) {
                m.release();
                continue;
            }
            request = m;
            requestFrom = fq.lastPipe();
            return true;
        }
        return false;
    }

    private static int delimiterIndex(ZmtpMessage m) {
        for (int i = 0; i < m.size(); i++) {
            if (!m.frame(i).isReadable()) {
                return i;
            }
        }
        return -1;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        if (!sending) {
            throw new ZmtpSocketException.IllegalState("REP must receive a request before sending a reply (EFSM)");
        }
        for (int i = envelope.size() - 1; i >= 0; i--) {
            msg.addFirst(envelope.get(i));
        }
        envelope.clear();
        Pipe p = replyTo;
        replyTo = null;
        sending = false;
        if (p == null || p.isTerminated()) {
            msg.release();
            countUnroutableDrop();
        } else if (!p.offer(msg)) {
            // libzmq's REP drops a reply its peer has no room for; counted, as every drop is.
            msg.release();
            p.countDrop();
        }
        return true;
    }

    @Override
    protected boolean xhasOut() {
        return sending;
    }

    @Override
    protected void xdetach(Pipe pipe) {
        fq.remove(pipe);
        if (requestFrom == pipe) {
            // Still delivered, as a message already received would be; the reply will be dropped.
            requestFrom = null;
        }
    }

    @Override
    protected void xclose() {
        envelope.forEach(ByteBuf::release);
        envelope.clear();
        if (request != null) {
            request.release();
            request = null;
        }
    }

    @Override
    protected Pipe xlastPipe() {
        // Right after xrecv: the pipe the request came from, which the reply goes to.
        return replyTo;
    }
}
