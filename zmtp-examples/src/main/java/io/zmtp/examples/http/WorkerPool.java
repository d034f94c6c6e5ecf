package io.zmtp.examples.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ZeroMQ workers behind {@code POST /work}: a ROUTER bound on an endpoint (inproc, or tcp so that callers may
 * be other processes), served by a pool of threads. A request is {@code [caller id][correlation id][body]} as the
 * ROUTER hands it over; the reply keeps the first two frames, so the ROUTER routes it back to the caller and the
 * caller finds the HTTP request it answers, and replaces the body with the worker's answer.
 *
 * <p>This library's sockets are thread-safe, so the pool's threads share the one ROUTER: each takes the next
 * request, and replies on it. (With libzmq each thread would have a socket of its own behind a proxy.)
 *
 * <p>The web page is another caller: the HTTP server hands the ROUTER its WebSocket connection, and the page sends
 * REQ-style requests, {@code ["", body]}: the empty delimiter stands where the correlation id is, and comes back.
 */
final class WorkerPool implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private final ZmtpSocket router;
    private final String endpoint;
    private final AtomicLong served = new AtomicLong();

    WorkerPool(ZmtpContext context, String endpoint, int workers, long workNanos) {
        router = context.socket(ZmtpSocketType.ROUTER);
        this.endpoint = router.bind(endpoint);
        for (int i = 0; i < workers; i++) {
            int id = i + 1;
            Thread t = new Thread(() -> serve(id, workNanos), "http-worker-" + id);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    String endpoint() {
        return endpoint;
    }

    /** The workers' ROUTER, for the web page's WebSocket connections. */
    ZmtpSocket router() {
        return router;
    }

    /** Requests answered so far. */
    long served() {
        return served.get();
    }

    private void serve(int id, long workNanos) {
        try {
            for (;;) {
                ZmtpMessage request = router.receive();
                if (request.size() != 3) {
                    // Not a caller of ours: nothing to answer.
                    request.release();
                    continue;
                }
                int bytes = request.frame(2).readableBytes();
                if (workNanos > 0) {
                    TimeUnit.NANOSECONDS.sleep(workNanos);
                }
                ByteBuf callerId = request.removeFirst();
                ByteBuf correlationId = request.removeFirst();
                request.release();
                router.send(ZmtpMessage.wrap(callerId, correlationId, Unpooled.copiedBuffer(
                        "{\"worker\":" + id + ",\"bytes\":" + bytes + "}", StandardCharsets.UTF_8)));
                served.incrementAndGet();
            }
        } catch (ZmtpSocketException.Closed e) {
            // The context closed.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The context's close closes the ROUTER; this waits for the threads to see it. */
    @Override
    public void close() throws InterruptedException {
        for (Thread t : threads) {
            t.join(2000);
        }
    }
}
