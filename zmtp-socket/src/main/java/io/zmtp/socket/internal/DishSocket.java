package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocketException;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * DISH (rfc 48): receives the messages of the groups it joined, fair-queued from its RADIOs; never sends.
 * {@link #joinGroup} sends JOIN or LEAVE to every RADIO connected now, and a RADIO that (re)connects gets a JOIN for
 * every group first. A message arrives as the group, a frame with MORE, then the body, as libzmq writes it; it is
 * handed to the application as the body with {@link ZmtpMessage#group()} set, or dropped if this socket has not
 * joined its group (a RADIO may send before it has applied a LEAVE). A message that is not in that form (one frame,
 * more than two, a group over 255 bytes) is a protocol error, as in libzmq's dish session: that connection is closed,
 * with a logged reason and a {@code PROTOCOL_ERROR} event.
 *
 * @see <a href="https://rfc.zeromq.org/spec/48/">rfc 48/RADIO-DISH</a>
 */
public final class DishSocket extends SocketBase {
    private final FairQueue fq = new FairQueue();
    /** Groups joined (user side). */
    private final Set<String> groups = new LinkedHashSet<>();
    /** What a RADIO connecting now is sent: written under the lock, read by the I/O thread. */
    private volatile List<String> snapshot = List.of();

    public DishSocket(SocketContext context) {
        super(context, ZmtpSocketType.DISH);
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
    public void writeSubscriptions(Pipe pipe) {
        // I/O thread, on (re)connection, before anything queued.
        Channel ch = pipe.channel();
        List<String> joinedNow = snapshot;
        if (ch == null || joinedNow.isEmpty()) {
            return;
        }
        for (String g : joinedNow) {
            pipe.outbound().writeOnConnect(ZmtpCommand.join(groupBuffer(g)));
        }
        ch.flush();
    }

    private static ByteBuf groupBuffer(String group) {
        return Unpooled.wrappedBuffer(group.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Joins or leaves {@code group} (1 to 255 bytes in UTF-8). Joining a group joined already, or leaving one not
     * joined, is refused with {@link IllegalArgumentException}, as libzmq refuses them (EINVAL).
     */
    @Override
    public void joinGroup(String group, boolean join) {
        int bytes = ByteBufUtil.utf8Bytes(group);
        if (bytes == 0 || bytes > ZmtpMessage.MAX_GROUP_LENGTH) {
            throw new IllegalArgumentException("group of " + bytes + " bytes (expected: 1.."
                    + ZmtpMessage.MAX_GROUP_LENGTH + " in UTF-8)");
        }
        lock.lock();
        try {
            checkOpen();
            if (join ? !groups.add(group) : !groups.remove(group)) {
                throw new IllegalArgumentException((join ? "already joined " : "not joined to ") + "group " + group);
            }
            // The snapshot first: a pipe becoming active now reads it after turning active (as SUB's subscriptions).
            snapshot = List.copyOf(groups);
            forEachLivePipe(p -> {
                if (p.isActive()) {
                    p.writeToConnection(join ? ZmtpCommand.join(groupBuffer(group))
                            : ZmtpCommand.leave(groupBuffer(group)));
                }
            });
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        throw new ZmtpSocketException.IllegalState("DISH can't send");
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            Pipe from = fq.lastPipe();
            ByteBuf g = m.frame(0);
            if (m.size() != 2 || g.readableBytes() > ZmtpMessage.MAX_GROUP_LENGTH) {
                String reason = m.size() != 2
                        ? "a message of " + m.size() + " frames (expected: the group, then the body)"
                        : "a group of " + g.readableBytes() + " bytes (at most " + ZmtpMessage.MAX_GROUP_LENGTH + ")";
                m.release();
                messagesDropped(1);
                closeOverBudget(from, "RADIO sent " + reason);
                continue;
            }
            String group = g.toString(StandardCharsets.UTF_8);
            if (!groups.contains(group)) {
                m.release();
                continue;
            }
            m.removeFirst().release();
            return m.group(group);
        }
        return null;
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
