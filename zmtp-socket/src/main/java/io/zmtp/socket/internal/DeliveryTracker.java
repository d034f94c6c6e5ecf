package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The future of one tracked send ({@code ZmtpSocket.sendTracked}): completes once every copy the send queued (one,
 * or one per subscriber for PUB) was written to the OS, fails as soon as one never will be, or when the send
 * queued none (dropped, unroutable, no subscriber).
 *
 * <h2>Threads</h2>
 * {@link #wrap} and {@link #seal} run under the socket lock, once each copy is queued and once the send returns;
 * {@link #written} and {@link #failed} on I/O threads or wherever a queued copy is discarded. {@code outstanding}
 * starts at one, held by the send until {@link #seal}, so the future can't complete while copies are still being
 * queued.
 */
final class DeliveryTracker {
    final CompletableFuture<Void> future = new CompletableFuture<>();
    private final AtomicInteger outstanding = new AtomicInteger(1);
    /** Under the lock. */
    private int copies;

    /** A copy of the message being queued for one pipe, to be written with a promise. Lock held. */
    TrackedMessage wrap(ZmtpMessage msg) {
        copies++;
        outstanding.incrementAndGet();
        return new TrackedMessage(msg, this);
    }

    /** The send returned having queued (or dropped) the message. Lock held. */
    void seal() {
        if (copies == 0) {
            failed(new ZmtpSocketException.NotDelivered(
                    "dropped before it was queued: no peer could take it (overflow policy, unroutable, no subscriber)"));
        } else {
            written();
        }
    }

    void written() {
        if (outstanding.decrementAndGet() == 0) {
            future.complete(null);
        }
    }

    void failed(Throwable cause) {
        future.completeExceptionally(cause);
    }
}
