package io.zmtp.examples.http;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The live side of the web page: a PUB that publishes the workers' stats every period, as a two-frame message
 * {@code ["stats", {"seq":N,"served":N,"time":"..."}]} (the topic frame is what subscribers filter on). It binds
 * nowhere itself: the HTTP server hands it the browsers' WebSocket connections ({@code ZmtpWebSocketHandler}).
 */
final class StatsPublisher implements AutoCloseable {
    static final String TOPIC = "stats";

    private final ZmtpSocket pub;
    private final LongSupplier served;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("http-stats", true));
    private long seq;

    StatsPublisher(ZmtpContext context, LongSupplier served, long periodMillis) {
        this.pub = context.socket(ZmtpSocketType.PUB);
        this.served = served;
        timer.scheduleAtFixedRate(this::publish, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    ZmtpSocket socket() {
        return pub;
    }

    private void publish() {
        try {
            seq++;
            pub.send(ZmtpMessage.of(TOPIC, "{\"seq\":" + seq + ",\"served\":" + served.getAsLong()
                    + ",\"time\":\"" + java.time.Instant.now() + "\"}"));
        } catch (RuntimeException e) {
            // The context is closing: the next close() stops the timer.
        }
    }

    /** Stops publishing; the context's close closes the socket. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
