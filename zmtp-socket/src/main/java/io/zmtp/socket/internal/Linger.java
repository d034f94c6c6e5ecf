package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The end of a socket's close: waits, until a deadline, for what its pipes queued to be written to connections that
 * are up (or still connecting), then terminates every pipe and closes its connection. Runs on the closing thread,
 * outside the socket's lock; the socket is closed to the application by then.
 */
final class Linger {
    private Linger() {
    }

    static void lingerAndTerminate(List<Pipe> pipes, Signal signal, long deadline) {
        if (System.nanoTime() - deadline < 0) {
            awaitQueuesDrained(pipes, signal, deadline);
            awaitWritten(pipes, deadline);
        }
        List<ChannelFuture> closing = new ArrayList<>();
        for (Pipe p : pipes) {
            p.terminate();
            Channel ch = p.channel();
            if (ch != null) {
                closing.add(ch.closeFuture());
            }
        }
        for (ChannelFuture f : closing) {
            f.awaitUninterruptibly(1, TimeUnit.SECONDS);
        }
    }

    /** Until no pipe that may still deliver has output queued (pipes signal as they drain). */
    private static void awaitQueuesDrained(List<Pipe> pipes, Signal signal, long deadline) {
        for (;;) {
            long seq = signal.sequence();
            boolean pending = false;
            for (Pipe p : pipes) {
                boolean mayDeliver = (p.isActive() || p.state() == Pipe.State.CONNECTING) && !p.outputUnwanted();
                if (mayDeliver && p.hasOutputPending()) {
                    pending = true;
                    break;
                }
            }
            if (!pending || System.nanoTime() - deadline >= 0) {
                return;
            }
            try {
                signal.await(seq, deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Until the channels have written what the pipes gave them: an empty write completes after every earlier one. */
    private static void awaitWritten(List<Pipe> pipes, long deadline) {
        List<ChannelFuture> flushed = new ArrayList<>();
        for (Pipe p : pipes) {
            Channel ch = p.channel();
            if (p.isActive() && ch != null && ch.isActive()) {
                flushed.add(ch.writeAndFlush(Unpooled.EMPTY_BUFFER));
            }
        }
        for (ChannelFuture f : flushed) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !f.awaitUninterruptibly(left, TimeUnit.NANOSECONDS)) {
                return;
            }
        }
    }
}
