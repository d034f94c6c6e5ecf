package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ReferenceCounted;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One side of a connection in an {@link EmbeddedChannel}: a {@link ZmtpHandshakeHandler} followed by a recorder that
 * keeps everything reaching the application (messages, commands, user events, in order) and every exception that
 * would otherwise reach the pipeline's tail. Time is frozen; {@link #advance} moves it. Close releases what was recorded.
 */
final class TestPeer implements AutoCloseable {
    final EmbeddedChannel channel;
    final ZmtpHandshakeHandler handler;
    /** Messages, commands and user events in the order the application saw them. */
    final List<Object> inbound = new ArrayList<>();
    final List<Throwable> exceptions = new ArrayList<>();

    TestPeer(ZmtpConfig config) {
        channel = new EmbeddedChannel();
        channel.freezeTime();
        handler = new ZmtpHandshakeHandler(config);
        channel.pipeline().addLast("zmtp", handler);
        channel.pipeline().addLast("recorder", new Recorder());
    }

    static TestPeer of(ZmtpConfig.Builder config) {
        return new TestPeer(config.build());
    }

    /**
     * A peer whose 3.x NULL handshake with a {@code peerType} peer announcing {@code minor} is done; what it wrote
     * so far and the success event are dropped.
     */
    static TestPeer handshaken(ZmtpConfig config, ZmtpSocketType peerType, int minor) {
        TestPeer p = new TestPeer(config);
        p.feed(Wire.rawGreeting(minor), Wire.ready("Socket-Type", peerType.name()));
        p.success();
        p.outbound();
        p.inbound.clear();
        return p;
    }

    static TestPeer handshaken(ZmtpSocketType type, ZmtpSocketType peerType) {
        return handshaken(ZmtpConfig.builder(type).build(), peerType, 1);
    }

    /** Delivers bytes as one read; bytes arriving after the channel closed are dropped, as a socket would. */
    TestPeer feed(byte[]... chunks) {
        for (byte[] chunk : chunks) {
            if (chunk.length == 0 || !channel.isOpen()) {
                continue;
            }
            channel.writeInbound(Unpooled.wrappedBuffer(chunk.clone()));
        }
        return this;
    }

    /** Writes and flushes an object as the application would. */
    ChannelFuture write(Object msg) {
        return channel.writeAndFlush(msg);
    }

    /** Everything written to the wire so far, concatenated (buffers released). */
    byte[] outbound() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] chunk : outboundChunks()) {
            out.writeBytes(chunk);
        }
        return out.toByteArray();
    }

    /** Each buffer written to the wire so far (buffers released). */
    List<byte[]> outboundChunks() {
        List<byte[]> chunks = new ArrayList<>();
        for (Object o; (o = channel.readOutbound()) != null; ) {
            try {
                if (!(o instanceof ByteBuf)) {
                    throw new AssertionError("non-buffer written to the wire: " + o);
                }
                chunks.add(ByteBufUtil.getBytes((ByteBuf) o));
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
        return chunks;
    }

    void advance(long millis) {
        channel.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        channel.runPendingTasks();
    }

    <T> List<T> inbound(Class<T> type) {
        return inbound.stream().filter(type::isInstance).map(type::cast).collect(Collectors.toList());
    }

    ZmtpHandshakeSuccessEvent success() {
        List<ZmtpHandshakeSuccessEvent> s = inbound(ZmtpHandshakeSuccessEvent.class);
        if (s.size() != 1) {
            throw new AssertionError("expected one handshake success, got: " + log());
        }
        return s.get(0);
    }

    ZmtpHandshakeFailureEvent failure() {
        List<ZmtpHandshakeFailureEvent> f = inbound(ZmtpHandshakeFailureEvent.class);
        if (f.size() != 1) {
            throw new AssertionError("expected one handshake failure, got: " + log());
        }
        return f.get(0);
    }

    ZmtpProtocolErrorEvent protocolError() {
        List<ZmtpProtocolErrorEvent> f = inbound(ZmtpProtocolErrorEvent.class);
        if (f.size() != 1) {
            throw new AssertionError("expected one protocol error, got: " + log());
        }
        return f.get(0);
    }

    /** What the application saw, as comparable strings. */
    List<String> log() {
        return inbound.stream().map(TestPeer::describe).collect(Collectors.toList());
    }

    static String describe(Object o) {
        if (o instanceof ZmtpMessage) {
            ZmtpMessage m = (ZmtpMessage) o;
            List<String> frames = new ArrayList<>();
            for (int i = 0; i < m.size(); i++) {
                frames.add(ByteBufUtil.hexDump(m.frame(i)));
            }
            return "msg" + frames;
        }
        if (o instanceof ZmtpCommand) {
            ZmtpCommand c = (ZmtpCommand) o;
            return "cmd " + c.name() + " " + ByteBufUtil.hexDump(c.content());
        }
        if (o instanceof ZmtpHandshakeSuccessEvent) {
            ZmtpHandshakeSuccessEvent s = (ZmtpHandshakeSuccessEvent) o;
            return "success " + s.version() + " " + s.mechanism() + " " + s.peerMetadata();
        }
        if (o instanceof ZmtpHandshakeFailureEvent) {
            return "failure " + ((ZmtpHandshakeFailureEvent) o).reason();
        }
        if (o instanceof ZmtpProtocolErrorEvent) {
            return "protocol-error " + ((ZmtpProtocolErrorEvent) o).cause().getClass().getSimpleName();
        }
        return String.valueOf(o);
    }

    /** Releases recorded messages and anything left in the channel; no exception may have reached the tail. */
    @Override
    public void close() {
        for (Object o : inbound) {
            if (o instanceof ReferenceCounted && ((ReferenceCounted) o).refCnt() > 0) {
                ReferenceCountUtil.release(o);
            }
        }
        inbound.clear();
        channel.finishAndReleaseAll();
        if (!exceptions.isEmpty()) {
            AssertionError e = new AssertionError("exceptionCaught reached the application: " + exceptions);
            exceptions.forEach(e::addSuppressed);
            throw e;
        }
    }

    /** Shuttles bytes between two peers until both are quiet. */
    static void pump(TestPeer a, TestPeer b) {
        for (int i = 0; i < 1000; i++) {
            byte[] fromA = a.outbound();
            byte[] fromB = b.outbound();
            if (fromA.length == 0 && fromB.length == 0) {
                return;
            }
            b.feed(fromA);
            a.feed(fromB);
        }
        throw new AssertionError("peers never went quiet");
    }

    private final class Recorder extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            inbound.add(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            inbound.add(evt);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptions.add(cause);
        }
    }
}
