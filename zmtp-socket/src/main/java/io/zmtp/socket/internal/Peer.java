package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpPeer;

import java.net.SocketAddress;

/**
 * The application's handle on a {@link Pipe}: one per pipe, made with it, so handles compare by identity. Reads go
 * to the pipe's volatile fields and counters; steering goes through the socket, under its lock.
 */
public final class Peer implements ZmtpPeer {
    private final Pipe pipe;

    Peer(Pipe pipe) {
        this.pipe = pipe;
    }

    /** The handle of {@code pipe}. */
    public static Peer of(Pipe pipe) {
        return pipe.peer();
    }

    Pipe pipe() {
        return pipe;
    }

    @Override
    public State state() {
        switch (pipe.state()) {
            case CONNECTING:
                return State.CONNECTING;
            case ACTIVE:
                return State.CONNECTED;
            case DISCONNECTED:
                return State.DISCONNECTED;
            default:
                return State.CLOSED;
        }
    }

    @Override
    public String endpoint() {
        return pipe.endpoint();
    }

    @Override
    public boolean isOutgoing() {
        return pipe.isConnecting();
    }

    @Override
    public byte[] routingId() {
        byte[] id = pipe.routingId();
        return id == null ? null : id.clone();
    }

    @Override
    public SocketAddress remoteAddress() {
        SocketAddress a = pipe.remoteAddress();
        if (a == null) {
            Channel ch = pipe.channel();
            a = ch == null ? null : ch.remoteAddress();
        }
        return a;
    }

    @Override
    public SocketAddress localAddress() {
        Channel ch = pipe.channel();
        return ch == null ? null : ch.localAddress();
    }

    @Override
    public ZmtpVersion version() {
        return pipe.version();
    }

    @Override
    public ZmtpSocketType socketType() {
        return pipe.peerSocketType();
    }

    @Override
    public ZmtpMetadata metadata() {
        return pipe.peerMetadata();
    }

    @Override
    public String userId() {
        // Only what this side's mechanism and authenticator established: a User-Id property in the peer's own
        // metadata is its claim, and stays in metadata() as such.
        return pipe.userId();
    }

    @Override
    public ZmtpMetadata authMetadata() {
        return pipe.authMetadata();
    }

    @Override
    public int outgoingMessages() {
        return pipe.outDepth();
    }

    @Override
    public long outgoingBytes() {
        return pipe.outBytes();
    }

    @Override
    public int incomingMessages() {
        return pipe.inDepth();
    }

    @Override
    public long incomingBytes() {
        return pipe.inBytes();
    }

    @Override
    public boolean isOutgoingHwmReached() {
        return pipe.isOutHwmReached();
    }

    @Override
    public boolean isIncomingHwmReached() {
        return pipe.isInHwmReached();
    }

    @Override
    public long sentCount() {
        return pipe.sentCount();
    }

    @Override
    public long receivedCount() {
        return pipe.receivedCount();
    }

    @Override
    public long droppedCount() {
        return pipe.droppedCount();
    }

    @Override
    public int clearOutgoing() {
        return pipe.socket().clearOutgoing(pipe);
    }

    @Override
    public void disconnect() {
        pipe.socket().disconnectPeer(pipe);
    }

    @Override
    public String toString() {
        return "ZmtpPeer{" + state() + ", " + (isOutgoing() ? "connect " : "accepted ") + endpoint()
                + ", peer " + remoteAddress() + ", sent " + sentCount() + ", queued " + outgoingMessages() + '}';
    }
}
