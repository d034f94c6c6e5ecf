package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * PULL (rfc 30) and GATHER (rfc 49): fair-queues messages from its PUSH (SCATTER) peers and never sends. GATHER's
 * messages are single-part ({@link SinglePart}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/30/">rfc 30/PIPELINE</a>
 * @see <a href="https://rfc.zeromq.org/spec/49/">rfc 49/SCATTER-GATHER</a>
 */
public final class PullSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();

    /** GATHER follows the one-part rule ({@link SinglePart}). */
    private final boolean singlePart;

    public PullSocket(SocketContext context) {
        this(context, ZmtpSocketType.PULL);
    }

    /** PULL or GATHER. */
    public PullSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.singlePart = type == ZmtpSocketType.GATHER;
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
        throw new ZmtpSocketException.IllegalState(type + " can't send");
    }

    @Override
    protected ZmtpMessage xrecv() {
        return singlePart ? SinglePart.receive(this, fq) : fq.recv();
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
