package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

import java.util.concurrent.atomic.AtomicReference;

/**
 * PAIR (rfc 31) and CHANNEL (rfc 52, PAIR for the thread-safe family): one peer at a time; a second peer's connection
 * is closed as soon as its handshake completes. CHANNEL's messages are single-part ({@link SinglePart}).
 *
 * @see <a href="https://rfc.zeromq.org/spec/31/">rfc 31/EXPAIR</a>
 * @see <a href="https://rfc.zeromq.org/spec/52/">rfc 52/CHANNEL</a>
 */
public final class PairSocket extends SocketBase {
    private final AtomicReference<Pipe> peer = new AtomicReference<>();
    private final LoadBalancer lb = new LoadBalancer();
    private final FairQueue fq = new FairQueue();

    private final boolean singlePart;

    public PairSocket(SocketContext context) {
        this(context, ZmtpSocketType.PAIR);
    }

    /** PAIR or CHANNEL. */
    public PairSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.singlePart = type == ZmtpSocketType.CHANNEL;
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
