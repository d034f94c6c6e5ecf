package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * SCATTER (rfc 49): round-robins single-part messages to its GATHERs, as PUSH does, and never receives; what a peer
 * sends anyway is released as it arrives.
 *
 * @see <a href="https://rfc.zeromq.org/spec/49/">rfc 49/SCATTER-GATHER</a>
 */
public final class ScatterSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();

    public ScatterSocket(SocketContext context) {
        super(context, ZmtpSocketType.SCATTER);
    }

    @Override
    protected boolean readsMessages() {
        return false;
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
        SinglePart.checkSend(type, msg);
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected void xcheckRecv() {
        throw new ZmtpSocketException.IllegalState("SCATTER can't receive");
    }

    @Override
    protected ZmtpMessage xrecv() {
        return null;
    }

    @Override
    protected boolean xhasOut() {
        return lb.hasRoom();
    }
}
