package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPeer;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The client side of {@code zmtp bench router-scale}: many DEALER sockets in one context, each keeping a few requests
 * outstanding, driven without a thread each: a reply completes the DEALER's {@code receiveAsync}, whose callback
 * sends the next request and asks for the next reply, as an application holding many sockets would.
 */
final class DealerFleet implements AutoCloseable {
    private final ZmtpContext context;
    private final int inflight;
    private final int frames;
    private final ByteBuf payload;
    private final List<ZmtpSocket> dealers = new ArrayList<>();
    private volatile boolean running;

    DealerFleet(ZmtpContext context, int inflight, int frames, ByteBuf payload) {
        this.context = context;
        this.inflight = inflight;
        this.frames = frames;
        this.payload = payload;
    }

    /** Creates {@code count} DEALERs and starts connecting each to {@code endpoint}; returns at once. */
    void connect(String endpoint, int count) {
        for (int i = 0; i < count; i++) {
            ZmtpSocket dealer = context.socket(ZmtpSocketType.DEALER);
            dealers.add(dealer);
            dealer.setOption(ZmtpSocketOption.LINGER, 0);
            dealer.connect(endpoint);
        }
    }

    /** Waits until every DEALER's peer has completed its handshake; false if that took longer than the timeout. */
    boolean awaitConnected(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        int from = 0;
        while (from < dealers.size()) {
            if (connected(dealers.get(from))) {
                from++;
            } else if (System.nanoTime() - deadline > 0) {
                return false;
            } else {
                Thread.sleep(5);
            }
        }
        return true;
    }

    private static boolean connected(ZmtpSocket dealer) {
        for (ZmtpPeer peer : dealer.peers()) {
            if (peer.state() == ZmtpPeer.State.CONNECTED) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code senders} of the DEALERs, spread evenly over the fleet, each send their first {@code inflight} requests,
     * then one more per reply until {@link #stop()}; the others send nothing.
     */
    void start(int senders) {
        running = true;
        int n = dealers.size();
        for (int s = 0; s < senders; s++) {
            ZmtpSocket dealer = dealers.get((int) ((long) s * n / senders));
            for (int i = 0; i < inflight; i++) {
                dealer.send(request());
            }
            awaitReplies(dealer);
        }
    }

    void stop() {
        running = false;
    }

    /**
     * A reply that is already there completes {@code receiveAsync} on this thread, so those are taken in a loop here
     * rather than by recursion; the first one that isn't continues in its callback.
     */
    private void awaitReplies(ZmtpSocket dealer) {
        while (running) {
            CompletableFuture<ZmtpMessage> next = dealer.receiveAsync().toCompletableFuture();
            if (!next.isDone()) {
                next.whenComplete((reply, failure) -> {
                    if (reply != null && answer(dealer, reply)) {
                        awaitReplies(dealer);
                    }
                });
                return;
            }
            ZmtpMessage reply = next.getNow(null);
            if (reply == null || !answer(dealer, reply)) {
                return;
            }
        }
    }

    private boolean answer(ZmtpSocket dealer, ZmtpMessage reply) {
        reply.release();
        // Never refused for room: a DEALER has at most `inflight` requests queued, far below its SNDHWM. Refused
        // once the socket is closed at the end of the run.
        return running && dealer.trySend(request());
    }

    private ZmtpMessage request() {
        ZmtpMessage m = ZmtpMessage.create();
        for (int i = 0; i < frames; i++) {
            m.add(payload.duplicate());
        }
        return m;
    }

    @Override
    public void close() {
        running = false;
        dealers.forEach(ZmtpSocket::close);
        dealers.clear();
    }
}
