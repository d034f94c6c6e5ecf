package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * RADIO (rfc 48): sends each message to the DISHes that joined its group ({@link ZmtpMessage#group()}, exact match,
 * not a prefix), as a group frame with MORE and then the body, the way libzmq writes it; never receives. A DISH's
 * JOIN and LEAVE commands reach this socket through its pipe as {@code 01}/{@code 00}-prefixed group messages
 * ({@link PipeHandler}); anything else a DISH sends is released as it arrives. A peer at its HWM misses the message
 * (counted), or with XPUB_NODROP the send waits, as libzmq's radio honours that option. Over udp:// every message goes
 * out (there are no JOINs; the DISHes filter), as one datagram ({@code UdpTransport}).
 *
 * <h2>What a DISH can make us hold</h2>
 * Each group a peer joins is charged to its {@link ConnectionBudget} as a subscription (group length plus the
 * per-entry overhead); a JOIN past {@code MAX_SUBSCRIPTION_BYTES}, or of a group over 255 bytes, closes that peer's
 * connection. Joining a group twice holds it once (a set per peer), and one LEAVE undoes it.
 *
 * @see <a href="https://rfc.zeromq.org/spec/48/">rfc 48/RADIO-DISH</a>
 */
public final class RadioSocket extends SocketBase {
    /** Group to the pipes that joined it. */
    private final Map<String, Set<Pipe>> members = new HashMap<>();
    /** Pipe to the groups it joined, for its disconnection. */
    private final Map<Pipe, Set<String>> joined = new IdentityHashMap<>();
    /** udp:// pipes: every message goes to them, the DISHes behind them filter (libzmq's {@code _udp_pipes}). */
    private final Set<Pipe> udpPipes = new LinkedHashSet<>();
    private final Distributor distributor = new Distributor();

    public RadioSocket(SocketContext context) {
        super(context, ZmtpSocketType.RADIO);
    }

    @Override
    protected boolean readsMessages() {
        // A DISH sends no messages: only its JOIN and LEAVE commands are read (as group messages).
        return false;
    }

    @Override
    protected boolean acceptsGroups() {
        return true;
    }

    @Override
    protected void xattach(Pipe pipe) {
        if (pipe.endpoint().startsWith("udp://")) {
            udpPipes.add(pipe);
        }
    }

    @Override
    protected void xdetach(Pipe pipe) {
        udpPipes.remove(pipe);
        xdisconnected(pipe);
    }

    @Override
    protected void xdisconnected(Pipe pipe) {
        // The groups go with the connection; what is still queued in the pipe stays, to be applied in order: a
        // connecting RADIO's pipe may already hold its next connection's JOINs, read before the application called in
        // and learnt of this disconnection. What the old connection left is applied too: its JOINs and LEAVEs pair up
        // in order, and a stale JOIN only makes us send a group the DISH then drops.
        Set<String> groups = joined.remove(pipe);
        if (groups != null) {
            for (String g : groups) {
                leave(g, pipe);
            }
        }
        pipe.budget().reset();
    }

    private void discardCommands(Pipe pipe) {
        ZmtpMessage m;
        while ((m = pipe.poll()) != null) {
            m.release();
        }
    }

    private void leave(String group, Pipe pipe) {
        Set<Pipe> ps = members.get(group);
        if (ps != null && ps.remove(pipe) && ps.isEmpty()) {
            members.remove(group);
        }
    }

    /** Applies what the DISHes sent: their JOINs and LEAVEs, in order per pipe. Lock held. */
    private void processCommands() {
        for (Pipe p : pipes()) {
            ZmtpMessage m;
            while (!p.budget().isExceeded() && (m = p.poll()) != null) {
                try {
                    apply(p, m);
                } finally {
                    m.release();
                }
            }
            if (p.budget().isExceeded()) {
                discardCommands(p);
            }
        }
    }

    private void apply(Pipe p, ZmtpMessage m) {
        ByteBuf f = m.frame(0);
        if (m.size() != 1 || !f.isReadable()) {
            return;
        }
        boolean join = f.getUnsignedByte(f.readerIndex()) == 1;
        int length = f.readableBytes() - 1;
        if (length > ZmtpMessage.MAX_GROUP_LENGTH) {
            p.budget().refuse();
            closeOverBudget(p, (join ? "JOIN" : "LEAVE") + " of a group of " + length + " bytes (at most "
                    + ZmtpMessage.MAX_GROUP_LENGTH + ")");
            return;
        }
        String group = f.toString(f.readerIndex() + 1, length, StandardCharsets.UTF_8);
        Set<String> groups = joined.computeIfAbsent(p, k -> new HashSet<>());
        if (join) {
            if (groups.contains(group)) {
                return;
            }
            if (!p.budget().chargeSubscription(length)) {
                closeOverBudget(p, p.budget().subscriptionLimitReason(length));
                return;
            }
            groups.add(group);
            members.computeIfAbsent(group, k -> new LinkedHashSet<>()).add(p);
        } else if (groups.remove(group)) {
            p.budget().refundSubscription(length);
            leave(group, p);
        }
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        SinglePart.checkSend(type, msg);
        String group = msg.group();
        if (group == null) {
            throw new ZmtpSocketException.InvalidMessage("RADIO sends to a group: set the message's group");
        }
        processCommands();
        Set<Pipe> joinedPipes = members.getOrDefault(group, Set.of());
        if (joinedPipes.isEmpty() && udpPipes.isEmpty()) {
            msg.release();
            return true;
        }
        ZmtpOverflowPolicy policy = overflowPolicy();
        if ((policy == ZmtpOverflowPolicy.BLOCK || policy == ZmtpOverflowPolicy.FAIL)
                && (anyFull(joinedPipes) || anyFull(udpPipes))) {
            return false;
        }
        // On the wire (and over inproc, where the DISH reads the same form): the group, with MORE, then the body.
        msg.group(null);
        msg.addFirst(Unpooled.wrappedBuffer(group.getBytes(StandardCharsets.UTF_8)));
        distributor.replaceOldest(policy == ZmtpOverflowPolicy.DROP_OLDEST);
        // The two sets never share a pipe: a udp pipe reads no JOIN (UdpHandler passes none on).
        distributor.send(msg, sink -> {
            udpPipes.forEach(sink);
            joinedPipes.forEach(sink);
        });
        return true;
    }

    private static boolean anyFull(Set<Pipe> pipes) {
        for (Pipe p : pipes) {
            if (p.isActive() && !p.hasRoom()) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected void xcheckRecv() {
        throw new ZmtpSocketException.IllegalState("RADIO can't receive");
    }

    @Override
    protected ZmtpMessage xrecv() {
        return null;
    }

    @Override
    protected boolean xhasOut() {
        return true;
    }

    @Override
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        return option(ZmtpSocketOption.XPUB_NODROP) ? ZmtpOverflowPolicy.BLOCK : ZmtpOverflowPolicy.DROP_NEWEST;
    }
}
