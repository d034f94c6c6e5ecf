package io.zmtp.examples.echo;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.zmtp.examples.NettyTransport;

import java.util.concurrent.TimeUnit;

/**
 * The echo service's clients on plain Netty: each on its own connection, keeping a number of requests in flight and
 * sending the next as each reply comes back, on the event loop.
 */
final class NettyEchoClients implements AutoCloseable {
    private final EventLoopGroup group;

    NettyEchoClients(EchoOptions options, EchoStats stats, int port) throws InterruptedException {
        group = NettyTransport.group(options.ioThreads, "echo-client");
        byte[] packet = new byte[options.size];
        for (int i = 0; i < options.clients; i++) {
            EchoStats.Counter counter = stats.client(i);
            new Bootstrap().group(group).channel(NettyTransport.channel())
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(NettyEchoServer.MAX_PACKET, 0, 4, 0, 4),
                                    new LengthFieldPrepender(4), new ClientHandler(options.inFlight, packet, counter));
                        }
                    })
                    .connect(options.host, port).sync();
        }
    }

    /** Sends the first requests when connected, and one more for each reply. */
    private static final class ClientHandler extends ChannelInboundHandlerAdapter {
        private final int inFlight;
        private final byte[] packet;
        private final EchoStats.Counter counter;

        ClientHandler(int inFlight, byte[] packet, EchoStats.Counter counter) {
            this.inFlight = inFlight;
            this.packet = packet;
            this.counter = counter;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            for (int i = 0; i < inFlight; i++) {
                ctx.write(Unpooled.wrappedBuffer(packet));
            }
            ctx.flush();
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf reply = (ByteBuf) msg;
            counter.add(reply.readableBytes());
            reply.release();
            ctx.writeAndFlush(Unpooled.wrappedBuffer(packet));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A peer that closes with packets in flight resets the connection (at shutdown): just close.
            ctx.close();
        }
    }

    @Override
    public void close() throws InterruptedException {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
}
