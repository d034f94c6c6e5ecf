package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.zmtp.codec.mechanism.ZmtpFrameCipher;

import java.util.List;

/**
 * Opens sealed frames (CURVE MESSAGE commands) into the clear-text ZMTP 3.x frames they carry, for the
 * {@link ZmtpFrameDecoder} after it, which reads them as it reads any connection's bytes: the message reader plug-in,
 * size limits and commands work the same over CURVE. Each read's frames are opened into one buffer, handed on at the
 * end of the read. Installed by {@link ZmtpHandshakeHandler} as {@link ZmtpHandshakeHandler#CIPHER_NAME}; closes the
 * cipher when removed (the connection's end).
 *
 * <p>A frame that fails to open (forged, tampered with, replayed, out of order, not a MESSAGE) closes the connection
 * with a logged reason and a {@link ZmtpProtocolErrorEvent}; nothing of it, or after it, reaches the application.
 *
 * <h2>What one connection can make us hold</h2>
 * One sealed frame whose body is at most {@code maxMessageSize} plus the seal's overhead (checked, by subtraction,
 * before the body is waited for), plus the current read buffer; the opened frames go on to the frame decoder, whose
 * own bound then applies to them. So about twice the frame decoder's bound.
 *
 * @see <a href="https://rfc.zeromq.org/spec/25/">25/ZMTP-CURVE, "The MESSAGE Command"</a>
 */
final class CipherFrameDecoder extends ByteToMessageDecoder {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(CipherFrameDecoder.class);

    private final ZmtpFrameCipher cipher;
    private final long maxMessageSize;
    private final FrameHeader header = new FrameHeader();
    private boolean failed;

    CipherFrameDecoder(ZmtpFrameCipher cipher, long maxMessageSize) {
        this.cipher = cipher;
        this.maxMessageSize = maxMessageSize;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        ByteBuf opened = null;
        try {
            while (header.readFlags(in, 0)) {
                int flags = header.flags();
                if ((flags & ZmtpConstants.FLAGS_RESERVED) != 0) {
                    throw new ZmtpCodecException("invalid frame flags: 0x" + Integer.toHexString(flags));
                }
                if (!header.readSize(in)) {
                    break;
                }
                long size = header.size();
                // The smallest sealed frame holding a message at the limit; compared without a sum that could wrap.
                int maxOverhead = cipher.sealedLength(0);
                if (size < 0 || size - maxOverhead > maxMessageSize) {
                    throw new ZmtpMessageTooLargeException(size < 0 ? Long.MAX_VALUE : size, maxMessageSize);
                }
                int clearLength = cipher.openedLength((int) size);
                if (clearLength < 0) {
                    throw new ZmtpCodecException("sealed frame of " + size + " bytes is too short to be one");
                }
                if (!header.isBodyReadable(in)) {
                    break;
                }
                header.skip(in);
                if (opened == null) {
                    // Everything readable, opened, is shorter than it is sealed: one buffer for the whole read.
                    opened = ctx.alloc().ioBuffer(Math.max(in.readableBytes(), clearLength + 9));
                }
                int headerLength = ZmtpWire.headerLength(ZmtpVersion.ZMTP_31, clearLength);
                opened.ensureWritable(headerLength + clearLength);
                int at = opened.writerIndex();
                // The header's flags are known once the frame is open: write its size now, its flags after.
                ZmtpWire.writeHeader(opened, ZmtpVersion.ZMTP_31, clearLength, 0);
                int inner = cipher.open(in, (int) size, opened);
                int zmtpFlags = ((inner & ZmtpFrameCipher.MORE) != 0 ? ZmtpConstants.FLAG_MORE : 0)
                        | ((inner & ZmtpFrameCipher.COMMAND) != 0 ? ZmtpConstants.FLAG_COMMAND : 0)
                        | (headerLength > 2 ? ZmtpConstants.FLAG_LONG : 0);
                opened.setByte(at, zmtpFlags);
            }
        } catch (RuntimeException e) {
            if (opened != null) {
                opened.release();
                opened = null;
            }
            fail(ctx, in, e);
        }
        if (opened != null) {
            out.add(opened);
        }
    }

    /**
     * The pipeline is torn down (the connection closed) or this handler removed: the cipher is closed with it, which
     * zeroes its keys and lets go of the key stream it made ahead in this event loop's buffers (see
     * {@code KeyStreamAhead}); until then a closed connection's boxers stayed reachable from there. This runs after
     * {@code channelInactive}'s last decode. The encoder shares the cipher and, removed after this handler, seals
     * nothing more (a write that still reaches it fails).
     */
    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        cipher.close();
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, Exception cause) {
        failed = true;
        in.skipBytes(in.readableBytes());
        ZmtpFrameDecoder.WARNINGS.log(logger, "{} closing connection to {}: {}", "CURVE",
                ctx.channel().remoteAddress(), cause.getMessage());
        ctx.fireUserEventTriggered(new ZmtpProtocolErrorEvent(ctx.channel().remoteAddress(), cause));
        ctx.close();
    }
}
