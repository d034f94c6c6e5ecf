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
 *
 * <p>Two kinds of pipe are not simply terminated, so that what was sent before close reaches a live peer as it does
 * with libzmq and JeroMQ:
 * <ul>
 *   <li>An inproc connect still waiting for its name's bind, with messages queued, is parked ({@link Pipe#park}):
 *       close leaves it to its connector, which joins it when the name is bound and hands the messages over. Close
 *       doesn't wait for that, whatever the LINGER: libzmq's close doesn't either (its pipe already exists).</li>
 *   <li>A live tcp (ipc, ws) connection is terminated on its I/O thread after one last drain: what is queued is
 *       written as far as the connection takes it without waiting, and only the rest is dropped. With LINGER 0 this
 *       is what libzmq's I/O thread does, since the write it was asked for comes before the close in its mailbox: a
 *       reply sent just before a {@code ZContext} closes (the Guide's rtdealer) reached its peer in 96 of 100 rounds
 *       on JeroMQ, and in 38 of 100 here when the close dropped whatever the drain had not yet taken.</li>
 * </ul>
 */
final class Linger {
    private Linger() {
    }

    static void lingerAndTerminate(List<Pipe> all, Signal signal, long deadline) {
        List<Pipe> pipes = new ArrayList<>(all.size());
        for (Pipe p : all) {
            if (!p.park()) {
                pipes.add(p);
            }
        }
        if (System.nanoTime() - deadline < 0) {
            awaitQueuesDrained(pipes, signal, deadline);
            awaitWritten(pipes, deadline);
        }
        List<ChannelFuture> closing = new ArrayList<>();
        for (Pipe p : pipes) {
            Channel ch = p.channel();
            p.terminateAfterLastDrain();
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
