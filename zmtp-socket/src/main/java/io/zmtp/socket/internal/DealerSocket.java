package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmqException;

/** DEALER (LB out, FQ in), PUSH (LB out only) and PULL (FQ in only): no envelopes, no state. */
public final class DealerSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();
    private final boolean sends;
    private final boolean receives;

    public DealerSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.sends = type != ZmtpSocketType.PULL;
        this.receives = type != ZmtpSocketType.PUSH;
    }

    @Override
    protected void xattach(Pipe pipe) {
        lb.add(pipe);
        fq.add(pipe);
    }

    @Override
    protected void xdetach(Pipe pipe) {
        lb.remove(pipe);
        fq.remove(pipe);
    }

    @Override
    protected boolean readsMessages() {
        return receives;
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        if (!sends) {
            throw new ZmqException.IllegalState(type + " can't send");
        }
        return lb.send(msg) != null;
    }

    @Override
    protected void xcheckRecv() {
        if (!receives) {
            throw new ZmqException.IllegalState(type + " can't receive");
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        return receives ? fq.recv() : null;
    }

    @Override
    protected boolean xhasOut() {
        return sends && lb.hasRoom();
    }
}
