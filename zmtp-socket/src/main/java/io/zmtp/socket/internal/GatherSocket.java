package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * GATHER (rfc 49): fair-queues single-part messages from its SCATTERs, as PULL does, and never sends.
 *
 * @see <a href="https://rfc.zeromq.org/spec/49/">rfc 49/SCATTER-GATHER</a>
 */
public final class GatherSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();

    public GatherSocket(SocketContext context) {
        super(context, ZmtpSocketType.GATHER);
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
        throw new ZmtpSocketException.IllegalState("GATHER can't send");
    }

    @Override
    protected ZmtpMessage xrecv() {
        return SinglePart.receive(this, fq);
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
