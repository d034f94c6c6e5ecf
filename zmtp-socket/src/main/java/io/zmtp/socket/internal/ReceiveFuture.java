package io.zmtp.socket.internal;

import io.zmtp.codec.ZmtpMessage;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The future {@code receiveAsync} returns. A message taken from the socket for it must reach the application, even
 * when the application gives up on the future at the same moment ({@code cancel}, {@code orTimeout},
 * {@code completeOnTimeout}): so the socket first <em>claims</em> the future, and only then takes a message.
 *
 * <h2>Invariant</h2>
 * {@code state} moves once, from PENDING to either CLAIMED (by the socket, under its lock, only when a message is
 * ready to be taken) or ABANDONED (by anything else that completes the future). A claimed future is completed with
 * the message by {@link #deliver}; every other completion attempt then fails, as it would on a completed future.
 * An abandoned future is skipped by the socket. So no message is both taken and dropped, and none is delivered twice.
 */
final class ReceiveFuture extends CompletableFuture<ZmtpMessage> {
    private static final int PENDING = 0;
    private static final int CLAIMED = 1;
    private static final int ABANDONED = 2;
    private static final AtomicIntegerFieldUpdater<ReceiveFuture> STATE =
            AtomicIntegerFieldUpdater.newUpdater(ReceiveFuture.class, "state");

    private volatile int state;

    /** Reserves the future for a message the caller is about to take; false if it was abandoned. */
    boolean claim() {
        return STATE.compareAndSet(this, PENDING, CLAIMED);
    }

    /** Completes a claimed future with its message. */
    void deliver(ZmtpMessage msg) {
        assert state == CLAIMED;
        super.complete(msg);
    }

    /** Whether nobody will take a message for it any more. */
    boolean isAbandoned() {
        return state == ABANDONED;
    }

    private boolean abandon() {
        return STATE.compareAndSet(this, PENDING, ABANDONED);
    }

    @Override
    public boolean complete(ZmtpMessage value) {
        return abandon() && super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        return abandon() && super.completeExceptionally(ex);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return abandon() && super.cancel(mayInterruptIfRunning);
    }
}
