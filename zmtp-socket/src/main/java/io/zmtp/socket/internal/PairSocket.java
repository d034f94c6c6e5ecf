package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

import java.util.concurrent.atomic.AtomicReference;

/**
 * PAIR (rfc 31): one peer at a time; a second peer's connection is closed as soon as its handshake completes.
 *
 * @see <a href="https://rfc.zeromq.org/spec/31/">rfc 31/EXPAIR</a>
 */
public final class PairSocket extends SocketBase {
    private final AtomicReference<Pipe> peer = new AtomicReference<>();
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();

    public PairSocket(SocketContext context) {
        super(context, ZmtpSocketType.PAIR);
    }

    @Override
    public boolean pipeConnected(Pipe pipe) {
        if (!peer.compareAndSet(null, pipe) && peer.get() != pipe) {
            return false;
        }
        return super.pipeConnected(pipe);
    }

    @Override
    public void pipeDisconnected(Pipe pipe) {
        peer.compareAndSet(pipe, null);
        super.pipeDisconnected(pipe);
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
