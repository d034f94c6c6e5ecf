package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmqException;

import java.util.ArrayList;
import java.util.List;

/**
 * REP (rfc 28): fair-queues requests, strips and saves the envelope (every frame up to and including the empty
 * delimiter; a request without one is discarded), and sends the reply, envelope re-attached, to the pipe the request
 * came from. A reply to a peer that has gone, or is full, is dropped. Strict receive/send alternation.
 */
public final class RepSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    private final List<ByteBuf> envelope = new ArrayList<>();
    private Pipe replyTo;
    private boolean sending;

    public RepSocket(SocketContext context) {
        super(context, ZmtpSocketType.REP);
    }

    @Override
    protected void xattach(Pipe pipe) {
        fq.add(pipe);
    }

    @Override
    protected void xdetach(Pipe pipe) {
        fq.remove(pipe);
    }

    @Override
    protected void xcheckRecv() {
        if (sending) {
            throw new ZmqException.IllegalState("REP must send the reply before receiving another request (EFSM)");
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        if (sending) {
            return null;
        }
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            int delimiter = -1;
            for (int i = 0; i < m.size(); i++) {
                if (!m.frame(i).isReadable()) {
                    delimiter = i;
                    break;
                }
            }
            if (delimiter < 0 || delimiter == m.size() - 1) {
                m.release();
                continue;
            }
            for (int i = 0; i <= delimiter; i++) {
                envelope.add(m.removeFirst());
            }
            replyTo = fq.lastPipe();
            sending = true;
            return m;
        }
        return null;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        if (!sending) {
            throw new ZmqException.IllegalState("REP must receive a request before sending a reply (EFSM)");
        }
        for (int i = envelope.size() - 1; i >= 0; i--) {
            msg.addFirst(envelope.get(i));
        }
        envelope.clear();
        Pipe p = replyTo;
        replyTo = null;
        sending = false;
        if (p == null || p.isTerminated() || !p.offer(msg)) {
            msg.release();
        }
        return true;
    }

    @Override
    protected boolean xhasOut() {
        return sending;
    }

    @Override
    protected void xclose() {
        envelope.forEach(ByteBuf::release);
        envelope.clear();
    }
}
