package io.zmtp.tools.bench;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.util.concurrent.Future;
import io.zmtp.socket.transport.IoKind;
import io.zmtp.tools.ContextOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The codec-only benchmarks are the codec in a plain Netty application, which picks its own event loops and channel
 * classes; this makes the same choice {@code ZmtpContext} makes for the socket layer (the I/O transport asked for,
 * AUTO resolved as a context resolves it), so both kinds of run compare like with like.
 */
final class CodecBootstrap {
    final IoKind io;

    CodecBootstrap(ContextOptions options) {
        this.io = options.ioTransport().resolve();
    }

    EventLoopGroup newGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, io.newHandlerFactory());
    }

    Class<? extends Channel> socketChannel() {
        return io.tcpChannel();
    }

    Class<? extends ServerChannel> serverChannel() {
        return io.tcpServerChannel();
    }

    String transportName() {
        return io.toString();
    }

    /**
     * Stops a codec benchmark's loops, after closing what was accepted: a loop that stops with a connection still
     * open never releases that connection's read buffer. Waits for the loops to stop.
     */
    static void shutdown(ChannelGroup accepted, EventLoopGroup... groups) {
        accepted.close().awaitUninterruptibly();
        List<Future<?>> done = new ArrayList<>();
        for (EventLoopGroup g : groups) {
            done.add(g.shutdownGracefully(0, 2, TimeUnit.SECONDS));
        }
        for (Future<?> f : done) {
            f.awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
