package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpOverflowPolicy;
import io.zmtp.socket.ZmtpSocketException;

import java.util.List;

/**
 * SUB and XSUB (rfc 29): fair-queue from publishers and keep only messages whose first frame matches a
 * subscription (filtering happens at the publisher too; this covers ZMTP 1.0 publishers). SUB subscribes through the
 * SUBSCRIBE/UNSUBSCRIBE options, XSUB through {@code 01}/{@code 00}-prefixed messages. SUB sends each publisher
 * SUBSCRIBE when a prefix gets its first subscription and CANCEL when it loses its last (the codec turns these into
 * messages for pre-3.1 peers); XSUB forwards the application's subscription messages (every subscribe; a cancel only
 * for a topic's last count, as libzmq), and any other message, to every publisher as they are. A publisher that
 * (re)connects gets the whole set.
 *
 * @see <a href="https://rfc.zeromq.org/spec/29/">rfc 29/PUBSUB</a>
 */
public final class SubSocket extends SocketBase {
    private static final Object SELF = new Object();

    private final boolean xsub;
    private final FairQueue fq = new FairQueue();
    private final SubscriptionTrie<Object> filter = SubscriptionTrie.counted();
    private final Distributor distributor = new Distributor();
    private volatile List<byte[]> snapshot = List.of();

    public SubSocket(SocketContext context, ZmtpSocketType type) {
        super(context, type);
        this.xsub = type == ZmtpSocketType.XSUB;
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
        List<byte[]> topics = snapshot;
        if (ch == null || topics.isEmpty()) {
            return;
        }
        for (byte[] topic : topics) {
            pipe.outbound().writeOnConnect(ZmtpCommand.subscribe(Unpooled.wrappedBuffer(topic)));
        }
        ch.flush();
    }

    @Override
    protected void xsubscribe(byte[] topic, boolean subscribe) {
        if (xsub) {
            super.xsubscribe(topic, subscribe);
        }
        changeSubscription(topic, subscribe);
    }

    private void changeSubscription(byte[] topic, boolean subscribe) {
        boolean changed = subscribe ? filter.add(topic, SELF) : filter.remove(topic, SELF);
        if (!changed) {
            return;
        }
        // The snapshot first: a pipe becoming active now reads it after turning active
        // (see OutboundQueue#writeToConnection).
        snapshot = List.copyOf(filter.prefixes());
        // Every live pipe, not only those attached: one whose CONNECTED event is still in the mailbox is up already.
        forEachLivePipe(p -> {
            if (p.isActive()) {
                ByteBuf t = Unpooled.wrappedBuffer(topic.clone());
                p.writeToConnection(subscribe ? ZmtpCommand.subscribe(t) : ZmtpCommand.cancel(t));
            }
        });
    }

    @Override
    protected boolean xsend(ZmtpMessage msg) {
        if (!xsub) {
            throw new ZmtpSocketException.IllegalState("SUB can't send; use the SUBSCRIBE option");
        }
        ByteBuf first = msg.frame(0);
        int kind = first.isReadable() ? first.getUnsignedByte(first.readerIndex()) : -1;
        if (msg.size() == 1 && (kind == 0 || kind == 1)) {
            // Like libzmq's XSUB (xsub.cpp): counted, remembered for publishers that connect later, and forwarded
            // as the application's message, a message even to 3.1 peers. Every SUBSCRIBE is forwarded (a proxy's
            // XPUB_VERBOSE relies on that), a CANCEL only when it undoes the topic's last count: a publisher keeps a
            // set per connection, so an earlier one would end a subscription this socket still holds.
            byte[] topic = ByteBufUtil.getBytes(first, first.readerIndex() + 1, first.readableBytes() - 1);
            boolean changed = kind == 1 ? filter.add(topic, SELF) : filter.remove(topic, SELF);
            if (changed) {
                snapshot = List.copyOf(filter.prefixes());
            }
            if (kind == 0 && !changed) {
                msg.release();
                return true;
            }
            // Like SUBSCRIBE/CANCEL commands: for the connections up now, never replayed after a reconnection's
            // snapshot (which already holds it), and not held back by SNDHWM.
            try {
                forEachLivePipe(p -> {
                    if (p.isActive()) {
                        p.writeToConnection(Distributor.share(msg));
                    }
                });
            } finally {
                msg.release();
            }
            return true;
        }
        distributor.replaceOldest(overflowPolicy() == ZmtpOverflowPolicy.DROP_OLDEST);
        distributor.send(msg, sink -> pipes().forEach(sink));
        return true;
    }

    @Override
    protected ZmtpMessage xrecv() {
        ZmtpMessage m;
        while ((m = fq.recv()) != null) {
            if (filter.matches(m.frame(0))) {
                return m;
            }
            m.release();
        }
        return null;
    }

    @Override
    protected boolean xhasOut() {
        return xsub;
    }

    @Override
    public long droppedCount() {
        lock.lock();
        try {
            return distributor.dropped();
        } finally {
            lock.unlock();
        }
    }

    @Override
    protected Pipe xlastPipe() {
        return fq.lastPipe();
    }

    @Override
    protected ZmtpOverflowPolicy xdefaultOverflow() {
        // XSUB drops for a full publisher, as libzmq's does; its sends never wait.
        return ZmtpOverflowPolicy.DROP_NEWEST;
    }
}
