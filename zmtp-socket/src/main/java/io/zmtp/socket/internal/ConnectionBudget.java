package io.zmtp.socket.internal;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one peer can make its socket hold, charged and enforced in one place. One per {@link Pipe}; a peer that
 * would go over a limit is disconnected by {@link SocketBase#closeOverBudget} (a logged reason and a
 * {@code PROTOCOL_ERROR} monitor event), and nothing else is affected.
 *
 * <h2>The budget, item by item</h2>
 * Each item is bounded by a configured limit; where the bound is structural (the code can't hold more) it says so.
 * README "Limits" and docs/RELIABILITY.md state the same figures.
 * <ul>
 *   <li><b>Frames being read</b> (the codec's decoder): one incomplete message within {@code MAXMSGSIZE}, each held
 *       frame counting 64 bytes on top of its body, plus one read buffer.</li>
 *   <li><b>Messages received and not yet taken</b> ({@link InboundFlow}): RCVHWM messages, each within
 *       {@code MAXMSGSIZE}; the connection stops being read at RCVHWM.</li>
 *   <li><b>Subscriptions</b> held for the peer by a PUB or XPUB (charged here): {@code MAX_SUBSCRIPTION_BYTES}, each
 *       topic counting its length plus {@link #SUBSCRIPTION_OVERHEAD}. A SUBSCRIBE that would pass it closes the
 *       connection; a CANCEL and the peer's disconnection refund what its topics were charged.</li>
 *   <li><b>Output the peer asks for</b>: at most one PONG queued whatever the rate of PINGs (the codec's heartbeat
 *       handler; libzmq keeps one too), and one ERROR command at a failed handshake.</li>
 *   <li><b>Metadata</b>: the handshake's commands within 64 KiB, the routing id within 255 bytes (the codec).</li>
 *   <li><b>Monitor events</b> the peer's connections cause: a listener is called on the reporting thread (the
 *       dispatcher queues only what other threads report meanwhile); the libzmq-format monitor keeps at most
 *       {@link LibzmqMonitor#MAX_WAITING} events for its reader and drops (counts) the rest.</li>
 *   <li><b>Groups</b> a DISH joins at a RADIO: charged as subscriptions, a group at most 255 bytes.</li>
 *   <li><b>Messages for a peer that doesn't read</b>: SNDHWM, then the overflow policy ({@link OutboundQueue}).</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The subscription account is touched only under the owning socket's lock (the "user side" of {@link Pipe}).
 */
public final class ConnectionBudget {
    /**
     * What holding one subscription costs beyond its topic bytes: the subscription trie's entry for it (node,
     * edge label array headers, the owner set's slot), measured at 170 bytes and rounded up
     * ({@link SubscriptionTrie#ENTRY_OVERHEAD_BYTES}).
     */
    public static final int SUBSCRIPTION_OVERHEAD = SubscriptionTrie.ENTRY_OVERHEAD_BYTES;

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ConnectionBudget.class);
    /** A hostile peer may go over budget connection after connection: one WARN a minute, the rest at DEBUG. */
    private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final AtomicLong nextWarnAt = new AtomicLong(System.nanoTime());
    private static final AtomicLong suppressedWarnings = new AtomicLong();

    /** {@code MAX_SUBSCRIPTION_BYTES}'s "no limit". */
    public static final long UNLIMITED = -1;

    private long maxSubscriptionBytes = UNLIMITED;
    // user side
    private long subscriptionBytes;
    private boolean exceeded;

    ConnectionBudget() {
    }

    /** Sets the subscription limit ({@link #UNLIMITED} for none); the socket does, before the pipe is used. */
    void limitSubscriptions(long maxBytes) {
        this.maxSubscriptionBytes = maxBytes;
    }

    /** What a subscription to a topic of {@code topicLength} bytes is charged. */
    public static long subscriptionCost(int topicLength) {
        return (long) topicLength + SUBSCRIPTION_OVERHEAD;
    }

    /**
     * Charges one more subscription of a topic of {@code topicLength} bytes; false, charging nothing, if it would pass
     * the limit (or an earlier charge did): the caller then doesn't store it and closes the connection.
     */
    public boolean chargeSubscription(int topicLength) {
        long cost = subscriptionCost(topicLength);
        if (exceeded || maxSubscriptionBytes != UNLIMITED && subscriptionBytes + cost > maxSubscriptionBytes) {
            exceeded = true;
            return false;
        }
        subscriptionBytes += cost;
        return true;
    }

    /** Gives back what {@link #chargeSubscription} took for a topic of {@code topicLength} bytes. */
    public void refundSubscription(int topicLength) {
        subscriptionBytes -= subscriptionCost(topicLength);
        assert subscriptionBytes >= 0 : subscriptionBytes;
    }

    /** Bytes charged for the subscriptions held now. */
    public long subscriptionBytes() {
        return subscriptionBytes;
    }

    public long maxSubscriptionBytes() {
        return maxSubscriptionBytes;
    }

    /**
     * Marks the account closed for a reason other than a charge (a JOIN of a group over 255 bytes): what the peer
     * still sends is not applied, as after a refused charge.
     */
    public void refuse() {
        exceeded = true;
    }

    /** Whether a charge was refused: the connection is being closed, and what it still sends is not applied. */
    public boolean isExceeded() {
        return exceeded;
    }

    /**
     * Starts a clean account for the pipe's next connection (a connecting socket's reconnection): the socket calls it
     * once it has dropped, and refunded, the subscriptions of the connection that went away.
     */
    public void reset() {
        subscriptionBytes = 0;
        exceeded = false;
    }

    /** The subscription limit as a reason for a log line and the monitor event. */
    String subscriptionLimitReason(int topicLength) {
        return "subscriptions over MAX_SUBSCRIPTION_BYTES (" + maxSubscriptionBytes + " bytes): holding "
                + subscriptionBytes + ", a topic of " + topicLength + " bytes costs " + subscriptionCost(topicLength);
    }

    /** Logs a connection closed for going over its budget: at WARN at most once a minute, otherwise at DEBUG. */
    static void logClose(Pipe pipe, String reason) {
        long now = System.nanoTime();
        long next = nextWarnAt.get();
        if (now - next >= 0 && nextWarnAt.compareAndSet(next, now + WARN_INTERVAL_NANOS)) {
            long held = suppressedWarnings.getAndSet(0);
            logger.warn("closing connection to {} ({}): {}{}", pipe.remoteAddress(), pipe.endpoint(), reason,
                    held == 0 ? "" : " (" + held + " more such closes in the last minute, at DEBUG)");
        } else {
            suppressedWarnings.incrementAndGet();
            logger.debug("closing connection to {} ({}): {}", pipe.remoteAddress(), pipe.endpoint(), reason);
        }
    }
}
