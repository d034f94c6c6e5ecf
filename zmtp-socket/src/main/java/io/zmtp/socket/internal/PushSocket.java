package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * PUSH (rfc 30): load-balances messages over its PULL peers and never receives. What a peer sends anyway is
 * released as it arrives ({@link #readsMessages()}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/30/">rfc 30/PIPELINE</a>
 */
public final class PushSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();

    public PushSocket(SocketContext context) {
        super(context, ZmtpSocketType.PUSH);
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
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected void xcheckRecv() {
        throw new ZmtpSocketException.IllegalState("PUSH can't receive");
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
