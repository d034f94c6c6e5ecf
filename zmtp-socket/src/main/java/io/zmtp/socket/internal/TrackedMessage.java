package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.AbstractReferenceCounted;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketException;

/**
 * A queued message whose sender asked to know when it is written (as {@code OutboundQueue}'s ForConnection wraps a
 * command for one connection). The drain writes it alone, with a real promise, where plain messages go in batches
 * with the void promise. If it is released instead (dropped, cleared, discarded with its peer, the socket closed), the
 * release fails the sender's future: being reference counted, it is released by the same code that releases any
 * queued message.
 */
final class TrackedMessage extends AbstractReferenceCounted implements ChannelFutureListener {
    private final ZmtpMessage msg;
    private final DeliveryTracker tracker;
    /** Set by the drain once the message belongs to the channel. Drain or discarding thread (the queue's consumer). */
    private boolean handed;
    private String discardReason = "discarded before it was written: its peer went away, the queue was cleared or"
            + " the socket closed";

    TrackedMessage(ZmtpMessage msg, DeliveryTracker tracker) {
        this.msg = msg;
        this.tracker = tracker;
    }

    ZmtpMessage message() {
        return msg;
    }

    /** Says why it is about to be released unwritten. */
    void discardReason(String reason) {
        this.discardReason = reason;
    }

    /** The drain: hands the message to the channel with a promise that completes the tracker. */
    void writeTo(Channel ch) {
        handed = true;
        ch.write(msg, ch.newPromise().addListener(this));
    }

    /** An inproc reader took it: it is delivered, and its message is now the reader's. Queue consumer only. */
    ZmtpMessage deliverInproc() {
        handed = true;
        tracker.written();
        release();
        return msg;
    }

    @Override
    public void operationComplete(ChannelFuture f) {
        if (f.isSuccess()) {
            tracker.written();
        } else {
            tracker.failed(new ZmtpSocketException.NotDelivered("not written: " + f.cause(), f.cause()));
        }
    }

    @Override
    protected void deallocate() {
        if (!handed) {
            msg.release();
            tracker.failed(new ZmtpSocketException.NotDelivered(discardReason));
        }
    }

    @Override
    public TrackedMessage touch(Object hint) {
        msg.touch(hint);
        return this;
    }
}
