package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

/**
 * DEALER (rfc 28) and CLIENT (rfc 41): load-balances outgoing messages and fair-queues incoming ones; no envelopes,
 * no state. CLIENT's messages are single-part ({@link SinglePart}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/28/">rfc 28/REQREP</a>
 * @see <a href="https://rfc.zeromq.org/spec/41/">rfc 41/CLIENTSERVER</a>
 */
public final class DealerSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();

    /** CLIENT follows the one-part rule ({@link SinglePart}). */
    private final boolean singlePart;

    public DealerSocket(SocketContext context) {
        this(context, ZmtpSocketType.DEALER);
    }

    /** DEALER or CLIENT. */
    public DealerSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.singlePart = type == ZmtpSocketType.CLIENT;
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
        if (singlePart) {
            SinglePart.checkSend(type, msg);
        }
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected ZmtpMessage xrecv() {
        return singlePart ? SinglePart.receive(this, fq) : fq.recv();
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
