package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * PULL (rfc 30): fair-queues messages from its PUSH peers and never sends.
 *
 * @see <a href="https://rfc.zeromq.org/spec/30/">rfc 30/PIPELINE</a>
 */
public final class PullSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();

    public PullSocket(SocketContext context) {
        super(context, ZmtpSocketType.PULL);
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
    protected boolean xsend(ZmtpMessage msg) {
        throw new ZmtpSocketException.IllegalState("PULL can't send");
    }

    @Override
    protected ZmtpMessage xrecv() {
        return fq.recv();
    }

    @Override
    protected boolean xhasOut() {
        return false;
    }

    @Override
    protected Pipe xlastPipe() {
        return fq.lastPipe();
    }
}
