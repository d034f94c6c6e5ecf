package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageBatch;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;

/**
 * A udp:// channel's end of the pipeline, in place of the ZMTP handshake and codec: tells the socket the "connection"
 * is up as soon as the channel is (there is no handshake; the peer is any RADIO, or the group a RADIO sends to), and
 * turns datagrams into RADIO/DISH wire messages and back, as libzmq's udp engine does: one byte of group length, the
 * group, the body.
 *
 * <p>Received: a datagram whose group length runs past its end is dropped, as libzmq drops it; any other becomes a
 * two-frame message, the group then the body, slices of the datagram. A DISH's socket keeps those of the groups it
 * joined. Sent: a RADIO's message (the group frame, then the body) becomes one datagram; one over
 * {@link #MAX_DATAGRAM} bytes, libzmq's limit, is dropped as libzmq drops it. JOIN and LEAVE, which a DISH writes to
 * every connection, have no meaning here and are released.
 */
final class UdpHandler extends ChannelDuplexHandler {
    /** libzmq's {@code MAX_UDP_MSG}: the largest datagram sent or read. */
    static final int MAX_DATAGRAM = 8192;

    private final ZmtpSocketType type;

    UdpHandler(ZmtpSocketType type) {
        this.type = type;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ZmtpSocketType peer = type == ZmtpSocketType.RADIO ? ZmtpSocketType.DISH : ZmtpSocketType.RADIO;
        ctx.fireUserEventTriggered(new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL",
                ZmtpMetadata.builder().socketType(peer).build(), ctx.channel().remoteAddress(), "",
                ZmtpMetadata.EMPTY));
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof DatagramPacket)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ByteBuf d = ((DatagramPacket) msg).content();
        try {
            if (!d.isReadable() || d.getUnsignedByte(d.readerIndex()) > d.readableBytes() - 1) {
                return;
            }
            int groupLength = d.readUnsignedByte();
            ByteBuf group = d.readRetainedSlice(groupLength);
            ByteBuf body = d.readRetainedSlice(d.readableBytes());
            ctx.fireChannelRead(ZmtpMessage.wrap(group, body));
        } finally {
            d.release();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ZmtpMessageBatch) {
            ZmtpMessageBatch batch = (ZmtpMessageBatch) msg;
            try {
                for (int i = 0; i < batch.size(); i++) {
                    write(ctx, batch.take(i), ctx.voidPromise());
                }
            } finally {
                batch.release();
            }
            promise.trySuccess();
            return;
        }
        if (!(msg instanceof ZmtpMessage) || ((ZmtpMessage) msg).size() != 2) {
            // JOIN/LEAVE (a DISH writes them to every connection), or anything not in the RADIO's wire form.
            ReferenceCountUtil.release(msg);
            promise.trySuccess();
            return;
        }
        ZmtpMessage m = (ZmtpMessage) msg;
        try {
            ByteBuf group = m.frame(0);
            ByteBuf body = m.frame(1);
            int size = 1 + group.readableBytes() + body.readableBytes();
            if (group.readableBytes() > ZmtpMessage.MAX_GROUP_LENGTH || size > MAX_DATAGRAM) {
                promise.trySuccess();
                return;
            }
            ByteBuf d = ctx.alloc().ioBuffer(size);
            d.writeByte(group.readableBytes()).writeBytes(group, group.readerIndex(), group.readableBytes())
                    .writeBytes(body, body.readerIndex(), body.readableBytes());
            // Connected: the datagram goes to the address connected to.
            ctx.write(d, promise);
        } finally {
            m.release();
        }
    }
}
