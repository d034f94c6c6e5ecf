package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.ArrayDeque;

/**
 * PUB and XPUB (rfc 29): messages go to every connected subscriber whose subscriptions match the first frame; a
 * subscriber at its HWM misses the message (counted), or with XPUB_NODROP the send waits for room. Subscriptions
 * arrive as SUBSCRIBE/CANCEL commands or {@code 01}/{@code 00}-prefixed messages, both seen here as messages. XPUB
 * hands them to the application: a subscribe when a prefix gets its first subscriber (every one with XPUB_VERBOSE),
 * a cancel when it loses its last (including when a subscriber disconnects); other messages from subscribers are
 * delivered too. PUB ignores anything that isn't a subscription.
 *
 * @see <a href="https://rfc.zeromq.org/spec/29/">rfc 29/PUBSUB</a>
 */
public final class PubSocket extends SocketBase {
    private final boolean xpub;
    private final SubscriptionTrie<Pipe> trie = SubscriptionTrie.perOwnerSet();
    private final Distributor distributor = new Distributor();
    private final ArrayDeque<ZmtpMessage> forApp = new ArrayDeque<>();

    public PubSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.xpub = type == ZmtpSocketType.XPUB;
    }

    @Override
    protected boolean acceptsSubscriptions() {
        return true;
    }

    @Override
    protected void xattach(Pipe pipe) {
    }

    @Override
    protected void xdetach(Pipe pipe) {
        xdisconnected(pipe);
    }

    @Override
    protected void xdisconnected(Pipe pipe) {
        processSubscriptions(pipe);
        trie.removeOwner(pipe, xpub ? topic -> forApp.add(subscriptionMessage(0, topic)) : null);
    }

    private static ZmtpMessage subscriptionMessage(int kind, byte[] topic) {
        ByteBuf b = Unpooled.buffer(1 + topic.length);
        b.writeByte(kind).writeBytes(topic);
        return ZmtpMessage.wrap(b);
    }

    private void processSubscriptions() {
        for (Pipe p : pipes()) {
            processSubscriptions(p);
        }
    }

    private void processSubscriptions(Pipe p) {
        ZmtpMessage m;
        while ((m = p.poll()) != null) {
            ByteBuf first = m.frame(0);
            int kind = first.isReadable() ? first.getUnsignedByte(first.readerIndex()) : -1;
            if (m.size() == 1 && (kind == 0 || kind == 1)) {
                byte[] topic = ByteBufUtil.getBytes(first, first.readerIndex() + 1, first.readableBytes() - 1);
                boolean report;
                if (kind == 1) {
                    report = trie.add(topic, p) || option(ZmtpSocketOption.XPUB_VERBOSE);
                } else {
                    report = trie.remove(topic, p);
                }
                if (xpub && report) {
                    forApp.add(m);
                    continue;
                }
                m.release();
            } else if (xpub) {
                forApp.add(m);
            } else {
                m.release();
            }
        }
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        processSubscriptions();
        ByteBuf first = msg.frame(0);
        ZmtpOverflowPolicy policy = overflowPolicy();
        if ((policy == ZmtpOverflowPolicy.BLOCK || policy == ZmtpOverflowPolicy.FAIL) && anyMatchingPipeFull(first)) {
            return false;
        }
        distributor.replaceOldest(policy == ZmtpOverflowPolicy.DROP_OLDEST);
        distributor.send(msg, sink -> trie.match(first, sink));
        return true;
    }

    private boolean anyMatchingPipeFull(ByteBuf first) {
        boolean[] full = {false};
        trie.match(first, p -> full[0] |= p.isActive() && !p.hasRoom());
        return full[0];
    }

    @Override
    protected void xcheckRecv() {
        if (!xpub) {
            throw new ZmtpSocketException.IllegalState("PUB can't receive");
        }
    }

    @Override
    protected ZmtpMessage xrecv() {
        if (!xpub) {
            return null;
        }
        processSubscriptions();
        return forApp.poll();
    }

    @Override
    protected boolean xhasOut() {
        return true;
    }

    @Override
    protected void xclose() {
        ZmtpMessage m;
        while ((m = forApp.poll()) != null) {
            m.release();
        }
    }

    @Override
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        return option(ZmtpSocketOption.XPUB_NODROP) ? ZmtpOverflowPolicy.BLOCK : ZmtpOverflowPolicy.DROP_NEWEST;
    }
}
