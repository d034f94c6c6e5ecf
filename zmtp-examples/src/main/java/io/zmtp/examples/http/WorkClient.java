package io.zmtp.examples.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP side's way to the workers: one DEALER, many requests in flight. {@link #call} sends with
 * {@code sendAsync}, so an event loop calling it never waits on the socket; each request carries a correlation id,
 * and one thread takes the replies and completes the matching futures. A request unanswered for the timeout fails
 * with a {@link TimeoutException} (checked once a second, not with a timer per request).
 */
final class WorkClient implements AutoCloseable {
    private static final class Call {
        final CompletableFuture<ZmtpMessage> future = new CompletableFuture<>();
        final long deadline;

        Call(long deadline) {
            this.deadline = deadline;
        }
    }

    private final ZmtpSocket dealer;
    private final Map<Long, Call> calls = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final long timeoutNanos;
    private final Thread replies;
    private final ScheduledExecutorService sweeper =
            Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("http-work-timeouts", true));

    WorkClient(ZmtpContext context, String endpoint, long timeoutMillis) {
        dealer = context.socket(ZmtpSocketType.DEALER);
        dealer.connect(endpoint);
        timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        replies = new Thread(this::takeReplies, "http-work-replies");
        replies.setDaemon(true);
        replies.start();
        sweeper.scheduleWithFixedDelay(this::expire, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Sends {@code body} (taking it over) to a worker; completes with the reply, whose body frame is
     * {@code frame(1)} and which the caller releases.
     */
    CompletableFuture<ZmtpMessage> call(ByteBuf body) {
        long id = ids.incrementAndGet();
        Call call = new Call(System.nanoTime() + timeoutNanos);
        calls.put(id, call);
        dealer.sendAsync(ZmtpMessage.wrap(Unpooled.buffer(8, 8).writeLong(id), body))
                .whenComplete((ignored, e) -> {
                    if (e != null && calls.remove(id, call)) {
                        call.future.completeExceptionally(e);
                    }
                });
        return call.future;
    }

    private void takeReplies() {
        try {
            for (;;) {
                ZmtpMessage reply = dealer.receive();
                Call call = reply.size() == 2 && reply.frame(0).readableBytes() == 8
                        ? calls.remove(reply.frame(0).getLong(reply.frame(0).readerIndex())) : null;
                if (call == null || !call.future.complete(reply)) {
                    // Too late (timed out) or not ours.
                    reply.release();
                }
            }
        } catch (ZmtpSocketException.Closed e) {
            // The context closed.
        }
    }

    private void expire() {
        long now = System.nanoTime();
        calls.forEach((id, call) -> {
            if (now - call.deadline >= 0 && calls.remove(id, call)) {
                call.future.completeExceptionally(new TimeoutException("no reply from a worker in time"));
            }
        });
    }

    /** Fails what is still waiting; call after the context's close, which ends the reply thread. */
    @Override
    public void close() throws InterruptedException {
        sweeper.shutdownNow();
        calls.forEach((id, call) -> {
            if (calls.remove(id, call)) {
                call.future.completeExceptionally(new ZmtpSocketException.Closed("shutting down"));
            }
        });
        replies.join(2000);
    }
}
