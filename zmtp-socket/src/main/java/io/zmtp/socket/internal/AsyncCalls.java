package io.zmtp.socket.internal;

import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.socket.ZmtpSocketException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A socket's {@code sendAsync} and {@code receiveAsync}: a call that can complete at once, with nothing queued
 * before it, completes on the caller's thread; the others wait in two queues, in order, and are serviced on the
 * context's async executor whenever the socket signals (input arrived, room freed up).
 *
 * <h2>Threads</h2>
 * Application threads add to the queues; one servicing task at a time ({@code scheduled}) takes from them, under the
 * socket's lock, and completes the futures after releasing it, so the application's callbacks never run under the
 * lock. A receive future is claimed before its message is taken ({@link ReceiveFuture}), so a future the application
 * abandons never takes a message.
 */
final class AsyncCalls {
    private static final class PendingSend {
        final ZmtpMessage msg;
        final CompletableFuture<Void> future;

        PendingSend(ZmtpMessage msg, CompletableFuture<Void> future) {
            this.msg = msg;
            this.future = future;
        }
    }

    private final SocketBase socket;
    private final ConcurrentLinkedQueue<ReceiveFuture> receives = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<PendingSend> sends = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean listening = new AtomicBoolean();
    private final Runnable trigger = this::schedule;

    AsyncCalls(SocketBase socket) {
        this.socket = socket;
    }

    CompletionStage<ZmtpMessage> receive() {
        ReceiveFuture f = new ReceiveFuture();
        ZmtpMessage m;
        try {
            // Earlier calls go first.
            m = receives.isEmpty() ? socket.receive(0) : null;
        } catch (ZmtpSocketException e) {
            f.completeExceptionally(e);
            return f;
        }
        if (m != null) {
            // Nobody else has seen f yet: the claim can't fail.
            f.claim();
            f.deliver(m);
            return f;
        }
        receives.add(f);
        listen();
        schedule();
        return f;
    }

    /** Sends or queues a send; {@code msg} has been checked by the socket. */
    CompletionStage<Void> send(ZmtpMessage msg) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (socket.isClosed()) {
            ReferenceCountUtil.release(msg);
            f.completeExceptionally(closed());
            return f;
        }
        if (sendNow(msg, f)) {
            return f;
        }
        sends.add(new PendingSend(msg, f));
        listen();
        schedule();
        return f;
    }

    /**
     * Queues {@code msg} on the caller's thread if nothing is waiting before it, the lock is free and the socket has
     * room, as {@link #receive()} takes a message that is there: the common case then costs no hand-over to the
     * async executor (measured: a third of the CPU of an HTTP request served by workers behind a DEALER). Never
     * waits: a held lock sends the call the queued way. Returns whether {@code f} is completed.
     */
    private boolean sendNow(ZmtpMessage msg, CompletableFuture<Void> f) {
        if (!sends.isEmpty() || !socket.lock.tryLock()) {
            return false;
        }
        boolean sent = false;
        ZmtpSocketException failure = null;
        try {
            // Checked under the lock, which the servicing task holds while it takes from the queue: a send queued
            // earlier by this thread is either still queued (so this one waits behind it) or already sent.
            if (!sends.isEmpty() || socket.isClosed()) {
                return false;
            }
            socket.attached.processEvents();
            sent = socket.xsend(msg);
        } catch (ZmtpSocketException e) {
            failure = e;
        } finally {
            socket.lock.unlock();
        }
        if (failure != null) {
            ReferenceCountUtil.release(msg);
            f.completeExceptionally(failure);
            return true;
        }
        if (sent) {
            f.complete(null);
        }
        return sent;
    }

    private void listen() {
        if (listening.compareAndSet(false, true)) {
            socket.signal.addListener(trigger);
        }
    }

    private void schedule() {
        if ((receives.isEmpty() && sends.isEmpty()) || !scheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            socket.context.asyncExecutor().execute(this::service);
        } catch (RejectedExecutionException e) {
            scheduled.set(false);
            failAll();
        }
    }

    private void service() {
        scheduled.set(false);
        List<Runnable> completions = new ArrayList<>();
        socket.lock.lock();
        try {
            if (socket.isClosed()) {
                failAll();
                return;
            }
            socket.attached.processEvents();
            serviceSends(completions);
            serviceReceives(completions);
        } finally {
            socket.lock.unlock();
        }
        completions.forEach(Runnable::run);
    }

    private void serviceSends(List<Runnable> completions) {
        PendingSend s;
        while ((s = sends.peek()) != null) {
            boolean sent;
            try {
                sent = socket.xsend(s.msg);
            } catch (ZmtpSocketException e) {
                sends.poll();
                ReferenceCountUtil.release(s.msg);
                PendingSend failed = s;
                completions.add(() -> failed.future.completeExceptionally(e));
                continue;
            }
            if (!sent) {
                if (socket.overflowPolicy() == io.zmtp.socket.ZmtpOverflowPolicy.FAIL) {
                    sends.poll();
                    ReferenceCountUtil.release(s.msg);
                    PendingSend failed = s;
                    ZmtpSocketException full = socket.queueFull();
                    completions.add(() -> failed.future.completeExceptionally(full));
                    continue;
                }
                return;
            }
            sends.poll();
            PendingSend done = s;
            completions.add(() -> done.future.complete(null));
        }
    }

    private void serviceReceives(List<Runnable> completions) {
        ReceiveFuture f;
        while ((f = receives.peek()) != null) {
            if (f.isAbandoned()) {
                // Cancelled or timed out by the application: it takes no message.
                receives.poll();
                continue;
            }
            try {
                socket.checkReceive();
            } catch (ZmtpSocketException e) {
                receives.poll();
                ReceiveFuture failed = f;
                completions.add(() -> failed.completeExceptionally(e));
                continue;
            }
            if (!socket.hasIn()) {
                return;
            }
            receives.poll();
            if (!f.claim()) {
                continue;
            }
            ZmtpMessage m = socket.receiveLocked();
            ReceiveFuture claimed = f;
            completions.add(() -> claimed.deliver(m));
        }
    }

    private ZmtpSocketException closed() {
        return new ZmtpSocketException.Closed(socket.type + " socket is closed");
    }

    /** Fails every waiting call: the socket is closed. */
    void failAll() {
        ZmtpSocketException closed = closed();
        PendingSend s;
        while ((s = sends.poll()) != null) {
            ReferenceCountUtil.release(s.msg);
            s.future.completeExceptionally(closed);
        }
        ReceiveFuture f;
        while ((f = receives.poll()) != null) {
            f.completeExceptionally(closed);
        }
    }

    /** The socket is closed: fails what waits and stops listening for its signals. */
    void close() {
        failAll();
        socket.signal.removeListener(trigger);
    }
}
