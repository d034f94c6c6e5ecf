package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

/**
 * PUSH (rfc 30) and SCATTER (rfc 49): load-balances messages over its PULL (GATHER) peers and never receives. What a
 * peer sends anyway is released as it arrives ({@link #readsMessages()}). SCATTER's messages are single-part
 * ({@link SinglePart}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/30/">rfc 30/PIPELINE</a>
 * @see <a href="https://rfc.zeromq.org/spec/49/">rfc 49/SCATTER-GATHER</a>
 */
public final class PushSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();

    /** SCATTER follows the one-part rule ({@link SinglePart}). */
    private final boolean singlePart;

    public PushSocket(SocketContext context) {
        this(context, ZmtpSocketType.PUSH);
    }

    /** PUSH or SCATTER. */
    public PushSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.singlePart = type == ZmtpSocketType.SCATTER;
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
        if (singlePart) {
            SinglePart.checkSend(type, msg);
        }
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected void xcheckRecv() {
        throw new ZmtpSocketException.IllegalState(type + " can't receive");
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
