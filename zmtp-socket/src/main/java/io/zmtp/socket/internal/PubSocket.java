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
import java.util.IdentityHashMap;

/**
 * PUB and XPUB (rfc 29): messages go to every connected subscriber whose subscriptions match the first frame; a
 * subscriber at its HWM misses the message (counted), or with XPUB_NODROP the send waits for room. Subscriptions
 * arrive as SUBSCRIBE/CANCEL commands or {@code 01}/{@code 00}-prefixed messages, both seen here as messages. XPUB
 * hands them to the application: a subscribe when a prefix gets its first subscriber (every one with XPUB_VERBOSE),
 * a cancel when it loses its last (including when a subscriber disconnects); other messages from subscribers are
 * delivered too. PUB ignores anything that isn't a subscription.
 *
 * <h2>What a subscriber can make it hold</h2>
 * Its subscriptions are charged to its pipe's {@link ConnectionBudget} (MAX_SUBSCRIPTION_BYTES): each distinct topic
 * once, however often it is subscribed, refunded by its CANCEL and all at once when the subscriber goes. A SUBSCRIBE
 * that would pass the budget closes that connection ({@link SocketBase#closeOverBudget}), and nothing the peer sent
 * after it is applied; other peers are not touched.
 *
 * <p>XPUB's messages for the application wait in {@code forApp}. Subscriptions are read from a pipe only while fewer
 * than RCVHWM of that pipe's messages wait there (RCVHWM 0, no limit, sets none here either); beyond that they stay
 * in the pipe, which holds at most RCVHWM and then stops reading the connection, so a peer flooding SUBSCRIBEs (every
 * one reported with XPUB_VERBOSE) to an application that sends but doesn't receive is held back by TCP instead of
 * growing this queue. Nothing is dropped:
 * a report is a change the application may be tracking. The price is that such a peer's later subscriptions take
 * effect only once the application receives; other peers are unaffected. What a disconnection adds (the cancels,
 * and what the closed pipe still held) is bounded by the pipe's queue and the peer's budget, so it is not held back.
 * The queue is bounded per peer rather than in total so that one peer can't hold back everyone's subscriptions.
 *
 * @see <a href="https://rfc.zeromq.org/spec/29/">rfc 29/PUBSUB</a>
 */
public final class PubSocket extends SocketBase {
    /** The origin of a message for the application that no pipe's limit counts (a disconnection's cancels). */
    private static final Object NO_PIPE = new Object();

    private final boolean xpub;
    private final SubscriptionTrie<Pipe> trie = SubscriptionTrie.perOwnerSet();
    private final Distributor distributor = new Distributor();
    /** XPUB: messages for the application, and in step with them the pipe each came from (or NO_PIPE). */
    private final ArrayDeque<ZmtpMessage> forApp = new ArrayDeque<>();
    private final ArrayDeque<Object> forAppFrom = new ArrayDeque<>();
    /** XPUB: per attached pipe, how many of its messages wait in forApp. */
    private final IdentityHashMap<Pipe, int[]> waiting = new IdentityHashMap<>();

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
        if (xpub) {
            waiting.put(pipe, new int[1]);
        }
    }

    @Override
    protected void xdetach(Pipe pipe) {
        // Gone for good: what it still holds is applied (and, on XPUB, handed on) before its subscriptions go.
        processSubscriptions(pipe, true);
        xdisconnected(pipe);
        waiting.remove(pipe);
    }

    @Override
    protected void xdisconnected(Pipe pipe) {
        // Not applied here what the pipe still holds: a connecting PUB's pipe may already hold its next connection's
        // SUBSCRIBEs, read before the application called in and learnt of this disconnection; dropping the old
        // connection's subscriptions after applying them lost those. They are applied in order later; what the old
        // connection left pairs up in order too, and a stale subscription only sends the SUB what it then filters.
        ConnectionBudget budget = pipe.budget();
        trie.removeOwner(pipe, xpub ? topic -> forApp(subscriptionMessage(0, topic), NO_PIPE) : null,
                budget::refundSubscription);
        // A connecting pipe's next connection starts with nothing charged, and may subscribe again.
        budget.reset();
    }

    private static ZmtpMessage subscriptionMessage(int kind, byte[] topic) {
        ByteBuf b = Unpooled.buffer(1 + topic.length);
        b.writeByte(kind).writeBytes(topic);
        return ZmtpMessage.wrap(b);
    }

    private void forApp(ZmtpMessage m, Object from) {
        forApp.add(m);
        forAppFrom.add(from);
        if (from != NO_PIPE) {
            waiting.get(from)[0]++;
        }
    }

    private void processSubscriptions() {
        for (Pipe p : pipes()) {
            processSubscriptions(p, false);
        }
    }

    /** Applies what {@code p} sent, all of it or (XPUB) until RCVHWM of its messages wait for the application. */
    private void processSubscriptions(Pipe p, boolean all) {
        int[] held = xpub && !all ? waiting.get(p) : null;
        int limit = held == null ? 0 : option(ZmtpSocketOption.RCVHWM);
        ConnectionBudget budget = p.budget();
        ZmtpMessage m;
        while ((limit == 0 || held[0] < limit) && (m = p.poll()) != null) {
            if (budget.isExceeded()) {
                // Its connection is closing for going over budget: nothing it sent after that applies.
                m.release();
                continue;
            }
            ByteBuf first = m.frame(0);
            int kind = first.isReadable() ? first.getUnsignedByte(first.readerIndex()) : -1;
            if (m.size() == 1 && (kind == 0 || kind == 1)) {
                byte[] topic = ByteBufUtil.getBytes(first, first.readerIndex() + 1, first.readableBytes() - 1);
                boolean report;
                if (kind == 1) {
                    // A set per peer: a topic it holds already is neither charged again nor changes anything.
                    boolean known = trie.contains(topic, p);
                    if (!known && !budget.chargeSubscription(topic.length)) {
                        m.release();
                        closeOverBudget(p, budget.subscriptionLimitReason(topic.length));
                        continue;
                    }
                    report = (!known && trie.add(topic, p)) || option(ZmtpSocketOption.XPUB_VERBOSE);
                } else {
                    boolean had = trie.contains(topic, p);
                    if (had) {
                        budget.refundSubscription(topic.length);
                    }
                    report = had && trie.remove(topic, p);
                }
                if (xpub && report) {
                    forApp(m, all ? NO_PIPE : p);
                    continue;
                }
                m.release();
            } else if (xpub) {
                forApp(m, all ? NO_PIPE : p);
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
        ZmtpMessage m = forApp.poll();
        if (m != null) {
            Object from = forAppFrom.poll();
            int[] held = from == NO_PIPE ? null : waiting.get(from);
            if (held != null && held[0] > 0) {
                held[0]--;
            }
        }
        return m;
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
        forAppFrom.clear();
    }

    @Override
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        return option(ZmtpSocketOption.XPUB_NODROP) ? ZmtpOverflowPolicy.BLOCK : ZmtpOverflowPolicy.DROP_NEWEST;
    }
}
