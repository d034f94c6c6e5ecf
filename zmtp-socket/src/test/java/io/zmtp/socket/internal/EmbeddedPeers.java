package io.zmtp.socket.internal;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpMessageBatch;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.socket.ZmtpSocketOption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Sockets of {@code io.zmtp.socket.internal} with peers on embedded channels: no network, no I/O thread, no
 * listener or connector. A peer's pipe is made as an accepted connection's would be and goes live through the real
 * pipe events ({@link Pipe#onHandshake} tells the socket {@code pipeConnected}; the socket attaches it at its next
 * operation). What a peer sends goes in with {@link Peer#send}; what the socket sent it comes out of
 * {@link Peer#sent}. Text throughout: a message is its frames joined by "|" (ISO-8859-1, so 0x00 and 0x01 are
 * {@code \u0000} and {@code \u0001}), a command "NAME:body".
 *
 * <p>One per test: {@link #close} closes the socket and every peer and releases what is left, for the leak check.
 */
final class EmbeddedPeers implements AutoCloseable {
    /** No event loops, transports or async executor: nothing here binds, connects or lingers (cap 0). */
    final SocketContext context = new SocketContext(null, null, 0);
    private final List<SocketBase> sockets = new ArrayList<>();
    private final List<Peer> peers = new ArrayList<>();

    /** Keeps {@code socket} for {@link #close}. */
    <S extends SocketBase> S socket(S socket) {
        socket.setOption(ZmtpSocketOption.LINGER, 0);
        sockets.add(socket);
        return socket;
    }

    /** A peer of {@code type} with no identity, connected to {@code socket}, SNDHWM and RCVHWM 1000. */
    Peer connect(SocketBase socket, ZmtpSocketType type) {
        return connect(socket, type, null, 1000);
    }

    /** A peer announcing {@code identity} (none if null), whose pipe holds up to {@code sndHwm} outbound messages. */
    Peer connect(SocketBase socket, ZmtpSocketType type, String identity, int sndHwm) {
        Peer p = new Peer(new Pipe(socket, false, "test://peer-" + peers.size(), sndHwm, 1000));
        peers.add(p);
        ZmtpMetadata.Builder md = ZmtpMetadata.builder().socketType(type);
        if (identity != null) {
            md.identity(identity.getBytes(StandardCharsets.ISO_8859_1));
        }
        p.pipe.onHandshake(p.channel, new ZmtpHandshakeSuccessEvent(ZmtpVersion.ZMTP_31, "NULL", md.build(), null));
        return p;
    }

    static String text(ZmtpMessage m) {
        try {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < m.size(); i++) {
                sb.append(i > 0 ? "|" : "").append(m.frame(i).toString(StandardCharsets.ISO_8859_1));
            }
            return sb.toString();
        } finally {
            m.release();
        }
    }

    /** The next message the application can receive now, as text, or null. */
    static String receive(SocketBase socket) {
        ZmtpMessage m = socket.receive(0);
        return m == null ? null : text(m);
    }

    static ZmtpMessage message(String... frames) {
        return ZmtpMessage.of(StandardCharsets.ISO_8859_1, frames);
    }

    @Override
    public void close() {
        for (SocketBase s : sockets) {
            s.close();
        }
        for (Peer p : peers) {
            p.pipe.terminate();
            p.channel.finishAndReleaseAll();
        }
    }

    /** The far end of one pipe. */
    static final class Peer {
        final Pipe pipe;
        final EmbeddedChannel channel = new EmbeddedChannel();

        Peer(Pipe pipe) {
            this.pipe = pipe;
        }

        /** The peer sends one message with these frames (one read from the connection). */
        Peer send(String... frames) {
            return send(message(frames));
        }

        /** The peer sends these messages in one read from the connection. */
        Peer send(ZmtpMessage... messages) {
            for (ZmtpMessage m : messages) {
                pipe.onInbound(m);
            }
            pipe.onReadComplete();
            return this;
        }

        /** Everything the socket has written to this peer so far, as text (released). */
        List<String> sent() {
            channel.runPendingTasks();
            List<String> out = new ArrayList<>();
            for (Object o : readOutbound(channel)) {
                if (o instanceof ZmtpCommand) {
                    ZmtpCommand c = (ZmtpCommand) o;
                    out.add(c.name() + ":" + c.content().toString(StandardCharsets.ISO_8859_1));
                    c.release();
                } else if (o instanceof ZmtpMessage) {
                    out.add(text((ZmtpMessage) o));
                } else {
                    ReferenceCountUtil.release(o);
                }
            }
            return out;
        }

        /** The connection closes, as PipeHandler reports it. */
        void disconnect() {
            pipe.onInactive(channel);
            channel.close();
        }

        boolean isOpen() {
            return channel.isOpen();
        }
    }

    /** What a pipe wrote to {@code channel}, with its message batches taken apart into their messages (owned). */
    static List<Object> readOutbound(EmbeddedChannel channel) {
        List<Object> out = new ArrayList<>();
        Object o;
        while ((o = channel.readOutbound()) != null) {
            if (o instanceof ZmtpMessageBatch) {
                ZmtpMessageBatch batch = (ZmtpMessageBatch) o;
                for (int i = 0; i < batch.size(); i++) {
                    out.add(batch.take(i));
                }
                batch.release();
            } else {
                out.add(o);
            }
        }
        return out;
    }
}
