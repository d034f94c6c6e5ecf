package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.zmtp.socket.transport.Endpoint;
import io.zmtp.socket.transport.Transport;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Keeps one connecting pipe connected: connects, and after a failed attempt or a lost connection tries again after
 * RECONNECT_IVL plus random jitter (up to one more interval), doubling the interval up to RECONNECT_IVL_MAX when that
 * is set (libzmq's scheme). A successful handshake resets the back-off. All on one event loop.
 *
 * <p>Stopping closes the connection, unless the socket's close parked the pipe ({@link Pipe#park}, an inproc connect
 * waiting for its name's bind): then the attempt under way goes on, with no retry after it, and the pipe is
 * terminated when its channel closes, joined or not.
 */
final class Connector {
    private final Transport transport;
    private final Endpoint endpoint;
    private final Pipe pipe;
    private final EventLoop loop;
    private final Function<Runnable, ChannelInitializer<Channel>> initializer;
    private final int reconnectIvl;
    private final int reconnectIvlMax;
    private int currentIvl;
    private volatile boolean stopped;
    private volatile Channel channel;

    Connector(Transport transport, Endpoint endpoint, Pipe pipe, EventLoop loop,
              Function<Runnable, ChannelInitializer<Channel>> initializer, int reconnectIvl, int reconnectIvlMax) {
        this.transport = transport;
        this.endpoint = endpoint;
        this.pipe = pipe;
        this.loop = loop;
        this.initializer = initializer;
        this.reconnectIvl = reconnectIvl;
        this.reconnectIvlMax = reconnectIvlMax;
        this.currentIvl = reconnectIvl;
    }

    void start() {
        loop.execute(this::connect);
    }

    void stop() {
        stopped = true;
        if (pipe.isParked()) {
            // After connect(), which start() queued on the same loop before this.
            try {
                loop.execute(this::endPipeWithChannel);
            } catch (RejectedExecutionException e) {
                pipe.terminate();
            }
            return;
        }
        pipe.endBySocket();
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /**
     * A parked pipe (loop): terminated when the attempt's channel closes. Without an attempt under way (none made
     * yet: connect() found the connector stopped; or between retries) one is made now.
     */
    private void endPipeWithChannel() {
        Channel ch = channel;
        if (ch == null || !ch.isOpen()) {
            try {
                ch = transport.connect(endpoint, loop, initializer.apply(() -> { })).channel();
            } catch (RuntimeException e) {
                pipe.terminate();
                return;
            }
            channel = ch;
        }
        ch.closeFuture().addListener(closed -> pipe.terminate());
    }

    private void connect() {
        if (stopped) {
            return;
        }
        ChannelFuture f;
        try {
            f = transport.connect(endpoint, loop, initializer.apply(() -> currentIvl = reconnectIvl));
        } catch (RuntimeException e) {
            scheduleRetry();
            return;
        }
        channel = f.channel();
        Events e = events;
        if (e != null && !f.isDone()) {
            e.delayed();
        }
        f.addListener(done -> {
            if (!done.isSuccess()) {
                scheduleRetry();
            } else if (stopped && !pipe.isParked()) {
                f.channel().close();
            } else {
                f.channel().closeFuture().addListener(closed -> scheduleRetry());
            }
        });
    }

    private void scheduleRetry() {
        if (stopped || pipe.isTerminated()) {
            // A pipe terminated by its socket's close (before the connector is stopped) is not retried: no
            // CONNECT_RETRIED after the socket ended its connection, as in libzmq.
            return;
        }
        long delay = currentIvl + ThreadLocalRandom.current().nextInt(Math.max(1, reconnectIvl));
        if (reconnectIvlMax > reconnectIvl) {
            currentIvl = Math.min(reconnectIvlMax, currentIvl * 2);
        }
        Events e = events;
        if (e != null) {
            e.retried(delay);
        }
        loop.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
    }

    // ---- monitor events

    /** What a connector reports, on its loop. */
    interface Events {
        /** An attempt started and is in progress. */
        void delayed();

        /** The next attempt is in {@code delayMillis}. */
        void retried(long delayMillis);
    }

    /** Set before {@link #start()}. */
    private Events events;

    void events(Events events) {
        this.events = events;
    }
}
