package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

/**
 * DEALER (rfc 28): load-balances outgoing messages and fair-queues incoming ones; no envelopes, no state.
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 */
public final class DealerSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();

    public DealerSocket(SocketContext context) {
        super(context, ZmtpSocketType.DEALER);
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
    protected boolean xsend(ZmtpMessage msg) {
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected ZmtpMessage xrecv() {
        return fq.recv();
    }

    @Override
    protected boolean xhasOut() {
        return lb.hasRoom();
    }

    @Override
    protected Pipe xlastPipe() {
        return fq.lastPipe();
    }
}
