package io.zmtp.socket.internal;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.ZmtpCodecException;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.ZmtpAuthRequest;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpAuthenticator;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * ZAP (rfc 27) over inproc, for code written for libzmq: when a socket of the context has bound
 * {@value #ENDPOINT} (a ZAP handler, usually a REP), the security handshakes of the context's sockets ask it, as
 * libzmq's do; when none has, they decide as libzmq does without one (PLAIN refuses, CURVE and NULL accept). NULL
 * asks only when the socket has a ZAP domain, as in libzmq.
 *
 * <h2>Threads</h2>
 * Requests come from I/O threads, which must neither block nor take a socket's lock: they only put the request in
 * {@link #outbox} and keep its future in {@link #waiting}. One thread of our own ({@code zmq-zap}, started on the
 * first request) connects the DEALER to the handler, then sleeps on the outbox and sends each request it takes.
 * Replies come through the DEALER's {@code receiveAsync}, re-armed after each one: nothing wakes up to look for
 * them. They complete the futures by request id, on the thread that delivers them (the context's async executor, or
 * the {@code zmq-zap} thread when a reply was already waiting); the handshake hops back to its event loop. A request
 * unanswered after {@link #TIMEOUT} fails (the handshake's own timeout is usually shorter), so {@link #waiting}
 * holds nothing forever; a reply to a request whose handshake has failed meanwhile completes a future nobody
 * applies.
 */
public final class ZapClient implements ZmtpAuthenticator {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(ZapClient.class);
    public static final String ENDPOINT = "inproc://zeromq.zap.01";
    static final String NAME = "zeromq.zap.01";
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final byte[] VERSION = "1.0".getBytes(StandardCharsets.US_ASCII);
    private static final Object STOP = new Object();

    private final Function<ZmtpSocketType, ZmtpSocket> sockets;
    private final Predicate<String> inprocBound;
    private final BlockingQueue<Object> outbox = new LinkedBlockingQueue<>();
    private final Map<String, CompletableFuture<ZmtpAuthResult>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private Thread thread;
    private boolean closed;

    /**
     * @param sockets     makes a socket of the context (the DEALER to the handler)
     * @param inprocBound whether an inproc name is bound in the context
     */
    public ZapClient(Function<ZmtpSocketType, ZmtpSocket> sockets, Predicate<String> inprocBound) {
        this.sockets = sockets;
        this.inprocBound = inprocBound;
    }

    @Override
    public CompletionStage<ZmtpAuthResult> authenticate(ZmtpAuthRequest request) {
        if ("NULL".equals(request.mechanism()) && request.domain().isEmpty()) {
            return CompletableFuture.completedFuture(ZmtpAuthResult.allow());
        }
        if (!inprocBound.test(NAME)) {
            return ZmtpAuthenticator.LIBZMQ_DEFAULT.authenticate(request);
        }
        String id = Long.toString(ids.incrementAndGet());
        CompletableFuture<ZmtpAuthResult> result = new CompletableFuture<>();
        waiting.put(id, result);
        result.orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, t) -> waiting.remove(id));
        if (!start()) {
            result.completeExceptionally(new ZmtpSocketException.Closed("context is closed"));
            return result;
        }
        outbox.add(requestFrames(id, request));
        return result;
    }

    private static List<byte[]> requestFrames(String id, ZmtpAuthRequest request) {
        List<byte[]> frames = new ArrayList<>();
        frames.add(new byte[0]);
        frames.add(VERSION);
        frames.add(id.getBytes(StandardCharsets.US_ASCII));
        frames.add(request.domain().getBytes(StandardCharsets.UTF_8));
        frames.add(request.address().getBytes(StandardCharsets.US_ASCII));
        frames.add(request.identity());
        frames.add(request.mechanism().getBytes(StandardCharsets.US_ASCII));
        frames.addAll(request.credentials().frames());
        return frames;
    }

    private synchronized boolean start() {
        if (closed) {
            return false;
        }
        if (thread == null) {
            thread = new DefaultThreadFactory("zmq-zap", true).newThread(this::run);
            thread.start();
        }
        return true;
    }

    private void run() {
        ZmtpSocket dealer;
        try {
            dealer = sockets.apply(ZmtpSocketType.DEALER);
            dealer.setOption(ZmtpSocketOption.LINGER, 0);
            dealer.connect(ENDPOINT);
        } catch (RuntimeException e) {
            logger.warn("ZAP client could not connect to {}", ENDPOINT, e);
            failAll(e);
            return;
        }
        try {
            awaitReplies(dealer);
            while (true) {
                Object next = outbox.take();
                if (next == STOP) {
                    break;
                }
                @SuppressWarnings("unchecked")
                List<byte[]> frames = (List<byte[]>) next;
                dealer.send(ZmtpMessage.ofBytes(frames.toArray(new byte[0][])), Duration.ofSeconds(5));
            }
        } catch (InterruptedException | ZmtpSocketException e) {
            // The context is closing.
        } finally {
            failAll(new ZmtpSocketException.Closed("ZAP client stopped"));
        }
    }

    /**
     * Handles the replies already waiting, then leaves a {@code receiveAsync} armed for the next, whose completion
     * calls this again. Ends when the DEALER closes (with the context). A loop, not a recursion, for replies that are
     * there at once.
     */
    private void awaitReplies(ZmtpSocket dealer) {
        while (true) {
            CompletableFuture<ZmtpMessage> next = dealer.receiveAsync().toCompletableFuture();
            if (!next.isDone()) {
                next.whenComplete((reply, failure) -> {
                    if (reply != null) {
                        handle(reply);
                        awaitReplies(dealer);
                    }
                });
                return;
            }
            if (next.isCompletedExceptionally()) {
                // The DEALER is closed.
                return;
            }
            handle(next.join());
        }
    }

    private void handle(ZmtpMessage reply) {
        try {
            onReply(reply);
        } catch (RuntimeException e) {
            logger.warn("ZAP reply could not be handled", e);
        } finally {
            reply.release();
        }
    }

    /** ["", "1.0", id, status, status text, user id, metadata] (a REP handler puts the delimiter back). */
    private void onReply(ZmtpMessage reply) {
        if (reply.size() != 7 || reply.frame(0).isReadable()) {
            logger.warn("ZAP reply with {} frames ignored (expected: 7, the first empty)", reply.size());
            return;
        }
        String id = reply.frameString(2);
        CompletableFuture<ZmtpAuthResult> f = waiting.remove(id);
        if (f == null) {
            logger.debug("ZAP reply to unknown or timed-out request {}", id);
            return;
        }
        String status = reply.frameString(3);
        if (!reply.frameString(1).equals("1.0") || !status.matches("[2345]00")) {
            f.complete(ZmtpAuthResult.of(ZmtpAuthResult.INTERNAL_ERROR, "malformed ZAP reply: version "
                    + reply.frameString(1) + ", status " + status, "", ZmtpMetadata.EMPTY));
            return;
        }
        ZmtpMetadata metadata;
        try {
            metadata = ZmtpMetadata.decode(reply.frame(6).duplicate());
        } catch (ZmtpCodecException e) {
            f.complete(ZmtpAuthResult.of(ZmtpAuthResult.INTERNAL_ERROR, "malformed ZAP reply metadata: "
                    + e.getMessage(), "", ZmtpMetadata.EMPTY));
            return;
        }
        f.complete(ZmtpAuthResult.of(Integer.parseInt(status), reply.frameString(4),
                reply.frame(5).toString(StandardCharsets.UTF_8), metadata));
    }

    private void failAll(Throwable cause) {
        for (CompletableFuture<ZmtpAuthResult> f : waiting.values()) {
            f.completeExceptionally(cause);
        }
        waiting.clear();
    }

    /** Stops the thread; requests still waiting fail (their handshakes refuse with 500). */
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        if (t != null) {
            outbox.add(STOP);
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        failAll(new ZmtpSocketException.Closed("context is closed"));
    }
}
