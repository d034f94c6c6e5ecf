package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelId;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;

import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WsHandler's write when a frame's write closes the connection half-way through a batch: found by WsFrameFuzzTest (a
 * heartbeat's PING written as the connection went down). The rest of the batch must be released and the write's
 * promise failed as closed, not with a NullPointerException from the removed handler's state.
 */
class WsHandlerWriteTest {
    @Test
    void shouldFailTheWriteAsClosedWhenAFrameOfItsBatchClosesTheConnection() throws Exception {
        EmbeddedChannel ch = new EmbeddedChannel(null, DefaultChannelId.newInstance(), false, false);
        ch.attr(WsTransport.ADDRESS).set(WsTransport.parse("127.0.0.1:5555/zmq"));
        ch.pipeline().addLast("zmtp-ws", new WsHandler(ZmtpConfig.builder(ZmtpSocketType.DEALER).build()));
        ch.register();
        ch.runPendingTasks();
        StringBuilder request = new StringBuilder();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            request.append(((ByteBuf) o).toString(StandardCharsets.ISO_8859_1));
            ReferenceCountUtil.release(o);
        }
        ch.writeInbound(Unpooled.copiedBuffer(WsFuzzing.upgradeResponse(request.toString()),
                StandardCharsets.US_ASCII));
        ch.runPendingTasks();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        assertThat(ch.pipeline().get("zmtp-codec-handshake"))
                .as("upgraded: the ZMTP handshake runs (%s, open: %s; request %s)", ch.pipeline().names(), ch.isOpen(),
                        request).isNotNull();
        // The batch's write goes down with the connection, which takes WsHandler out of the pipeline (right before
        // it, where its WebSocket messages pass).
        ch.pipeline().addBefore("zmtp-ws", "closer", new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                // A client's messages go as one framed buffer per batch (WsFrameAdapter), a server's large ones as
                // BinaryWebSocketFrames: either write closes the connection here.
                if (msg instanceof BinaryWebSocketFrame || msg instanceof ByteBuf) {
                    ReferenceCountUtil.release(msg);
                    promise.tryFailure(new ClosedChannelException());
                    ctx.pipeline().remove("zmtp-ws");
                } else {
                    ctx.write(msg, promise);
                }
            }
        });
        // Three short ZMTP frames in one buffer, as the encoder batches them.
        ByteBuf batch = Unpooled.buffer().writeBytes(new byte[] {0x01, 1, 'a', 0x01, 1, 'b', 0x00, 1, 'c'});
        ChannelFuture f = ch.pipeline().context("zmtp-codec-handshake").writeAndFlush(batch);
        assertThat(f.isDone()).isTrue();
        assertThat(f.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(batch.refCnt()).as("the batch is released").isZero();
        ch.finishAndReleaseAll();
    }
}
