package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

/**
 * CLIENT (rfc 41): round-robins messages to its SERVERs and fair-queues what they send, as DEALER does, with no
 * envelope; single-part messages only ({@link SinglePart}). Safe from several threads, as every socket here.
 *
 * @see <a href="https://rfc.zeromq.org/spec/41/">rfc 41/CLIENTSERVER</a>
 */
public final class ClientSocket extends SocketBase {
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();

    public ClientSocket(SocketContext context) {
        super(context, ZmtpSocketType.CLIENT);
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
        SinglePart.checkSend(type, msg);
        return lb.send(msg) != null || overflow(msg, lb.victim());
    }

    @Override
    protected ZmtpMessage xrecv() {
        return SinglePart.receive(this, fq);
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
