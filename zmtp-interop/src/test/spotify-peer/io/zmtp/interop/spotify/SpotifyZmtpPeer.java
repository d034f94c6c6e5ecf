package io.zmtp.interop.spotify;

import com.spotify.netty4.handler.codec.zmtp.ZMTPCodec;
import com.spotify.netty4.handler.codec.zmtp.ZMTPHandshake;
import com.spotify.netty4.handler.codec.zmtp.ZMTPHandshakeFailure;
import com.spotify.netty4.handler.codec.zmtp.ZMTPHandshakeSuccess;
import com.spotify.netty4.handler.codec.zmtp.ZMTPMessage;
import com.spotify.netty4.handler.codec.zmtp.ZMTPProtocol;
import com.spotify.netty4.handler.codec.zmtp.ZMTPProtocols;
import com.spotify.netty4.handler.codec.zmtp.ZMTPSocketType;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A ZMTP 1.0 / 2.0 peer built on Spotify's {@code com.spotify:netty4-zmtp:0.4.0} and the Netty 4.0 it was built
 * for. It runs in its own JVM (SpotifyPeer.java in the test sources starts it), because that Netty can't share a
 * class path with the Netty 4.2 the codec under test uses.
 *
 * <p>Driven line by line on stdin; one connection per {@code RUN} line:
 * <pre>
 * RUN role=server|client port=N protocol=ZMTP10|ZMTP20 interop=true|false type=DEALER identity=HEX|-
 *     send=N recv=N lockstep=none|req|rep subscription=none|send|expect seed=N
 * </pre>
 * and answers on stdout: {@code LISTENING port} (server), then {@code HANDSHAKE version=V identity=HEX|- type=T|-}
 * or {@code HANDSHAKE_FAILED reason}, then {@code RESULT ok sent=N received=N} or {@code RESULT fail reason}, then
 * {@code CLOSED} once the other side has closed the connection (or after 10 s without that). Spotify's codec is a
 * codec, not a socket: the peer applies no socket semantics; REQ/REP envelopes are written and checked by hand.
 * Payloads come from {@link #message}, which the test side reproduces byte for byte.
 */
public final class SpotifyZmtpPeer {
    private static final long TIMEOUT_SECONDS = 20;
    private static final Object CLOSED = new Object();

    private SpotifyZmtpPeer() {}

    /**
     * Message {@code i} of direction {@code dir} (0: Spotify to the codec under test, 1: the other way): 1 to 4
     * frames of 0 to 256 bytes each (every length of that range occurs, across the 1.0 and 2.0 short/long
     * boundaries), contents a function of dir, seed, i, frame and offset. Duplicated in SpotifyPeer.java.
     */
    static byte[][] message(int dir, long seed, int i) {
        int frames = 1 + (i % 4);
        byte[][] m = new byte[frames][];
        for (int j = 0; j < frames; j++) {
            int len = (int) ((i * 131L + j * 71L + seed * 17L + dir * 29L) % 257);
            byte[] f = new byte[len];
            for (int k = 0; k < len; k++) {
                f[k] = (byte) (dir * 101 + i * 31 + j * 7 + k + seed);
            }
            m[j] = f;
        }
        return m;
    }

    public static void main(String[] args) throws Exception {
        EventLoopGroup group = new NioEventLoopGroup(2);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        java.util.Properties pom = new java.util.Properties();
        java.io.InputStream props = ZMTPCodec.class.getResourceAsStream(
                "/META-INF/maven/com.spotify/netty4-zmtp/pom.properties");
        if (props != null) {
            pom.load(props);
            props.close();
        }
        System.out.println("READY netty4-zmtp=" + pom.getProperty("version") + " netty="
                + io.netty.util.Version.identify().values().iterator().next().artifactVersion()
                + " java=" + System.getProperty("java.version"));
        try {
            for (String line; (line = in.readLine()) != null; ) {
                line = line.trim();
                if (line.isEmpty()) {
                    continue;
                }
                if (line.equals("EXIT")) {
                    break;
                }
                if (!line.startsWith("RUN ")) {
                    System.out.println("ERROR unknown command: " + line);
                    continue;
                }
                try {
                    runCase(group, parse(line.substring(4)));
                } catch (Throwable t) {
                    System.out.println("RESULT fail " + oneLine(t));
                    System.out.println("CLOSED");
                }
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    private static Map<String, String> parse(String s) {
        Map<String, String> m = new HashMap<String, String>();
        for (String kv : s.trim().split("\\s+")) {
            int eq = kv.indexOf('=');
            m.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        return m;
    }

    private static void runCase(EventLoopGroup group, Map<String, String> c) throws Exception {
        ZMTPProtocol protocol = c.get("protocol").equals("ZMTP10") ? ZMTPProtocols.ZMTP10 : ZMTPProtocols.ZMTP20;
        ZMTPCodec.Builder codecBuilder = ZMTPCodec.builder()
                .protocol(protocol)
                .interop(Boolean.parseBoolean(c.get("interop")))
                .socketType(ZMTPSocketType.valueOf(c.get("type")));
        String identity = c.get("identity");
        if (!identity.equals("-")) {
            codecBuilder.localIdentity(fromHex(identity));
        }
        final BlockingQueue<Object> events = new LinkedBlockingQueue<Object>();
        final ZMTPCodec.Builder builder = codecBuilder;
        ChannelInitializer<SocketChannel> init = new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(builder.build(), new Collector(events));
            }
        };
        Channel server = null;
        Channel channel;
        if (c.get("role").equals("server")) {
            final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<Channel>();
            server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) throws Exception {
                            accepted.add(ch);
                            ch.pipeline().addLast(builder.build(), new Collector(events));
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            System.out.println("LISTENING " + ((InetSocketAddress) server.localAddress()).getPort());
            channel = accepted.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (channel == null) {
                server.close();
                throw new IllegalStateException("no connection accepted in " + TIMEOUT_SECONDS + " s");
            }
        } else {
            channel = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(init)
                    .connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(c.get("port")))).sync().channel();
        }
        try {
            exchange(channel, events, c);
        } catch (Exception e) {
            System.out.println("RESULT fail " + oneLine(e));
        } finally {
            // Stay connected until the other side has read everything and closes; then close too.
            if (!channel.closeFuture().await(10, TimeUnit.SECONDS)) {
                channel.close().await(5, TimeUnit.SECONDS);
            }
            if (server != null) {
                server.close().await(5, TimeUnit.SECONDS);
            }
            drain(events);
            System.out.println("CLOSED");
        }
    }

    private static void exchange(Channel channel, BlockingQueue<Object> events, Map<String, String> c)
            throws Exception {
        Object first = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (first instanceof ZMTPHandshakeSuccess) {
            ZMTPHandshake h = ((ZMTPHandshakeSuccess) first).handshake();
            ByteBuffer id = h.remoteIdentity();
            System.out.println("HANDSHAKE version=" + h.negotiatedVersion()
                    + " identity=" + (id.hasRemaining() ? toHex(id) : "-")
                    + " type=" + (h.remoteSocketType() == null ? "-" : h.remoteSocketType()));
        } else {
            System.out.println("HANDSHAKE_FAILED " + describe(first, events));
            channel.close();
            System.out.println("RESULT fail handshake");
            return;
        }
        int send = Integer.parseInt(c.get("send"));
        int recv = Integer.parseInt(c.get("recv"));
        long seed = Long.parseLong(c.get("seed"));
        String lockstep = c.get("lockstep");
        String subscription = c.get("subscription");
        int sent = 0;
        int received = 0;
        if (subscription.equals("send")) {
            // An old SUB's subscribe-to-everything: a one-frame message 0x01 (rfc 15; 1.0 SUBs never sent one).
            channel.writeAndFlush(ZMTPMessage.from(new ByteBuf[] {Unpooled.wrappedBuffer(new byte[] {1})}));
        } else if (subscription.equals("expect")) {
            byte[][] sub = next(events, "the subscription");
            if (sub.length != 1 || !Arrays.equals(sub[0], new byte[] {1})) {
                throw new IllegalStateException("expected subscription [01], got " + render(sub));
            }
        }
        if (lockstep.equals("req")) {
            for (int i = 0; i < send; i++) {
                channel.writeAndFlush(toMessage(message(0, seed, i), true));
                check(next(events, "reply " + i), message(1, seed, i), true, "reply " + i);
                sent++;
                received++;
            }
        } else if (lockstep.equals("rep")) {
            for (int i = 0; i < recv; i++) {
                check(next(events, "request " + i), message(1, seed, i), true, "request " + i);
                received++;
                channel.writeAndFlush(toMessage(message(0, seed, i), true));
                sent++;
            }
        } else {
            for (int i = 0; i < send; i++) {
                channel.write(toMessage(message(0, seed, i), false));
                if (i % 64 == 63) {
                    channel.flush();
                }
                sent++;
            }
            channel.flush();
            for (int i = 0; i < recv; i++) {
                check(next(events, "message " + i), message(1, seed, i), false, "message " + i);
                received++;
            }
        }
        Object extra = events.poll(50, TimeUnit.MILLISECONDS);
        if (extra instanceof byte[][]) {
            throw new IllegalStateException("unexpected extra message " + render((byte[][]) extra));
        }
        System.out.println("RESULT ok sent=" + sent + " received=" + received);
    }

    private static ZMTPMessage toMessage(byte[][] frames, boolean envelope) {
        ByteBuf[] bufs = new ByteBuf[frames.length + (envelope ? 1 : 0)];
        int n = 0;
        if (envelope) {
            bufs[n++] = Unpooled.EMPTY_BUFFER;
        }
        for (byte[] f : frames) {
            bufs[n++] = Unpooled.wrappedBuffer(f);
        }
        return ZMTPMessage.from(bufs);
    }

    private static void check(byte[][] got, byte[][] want, boolean envelope, String what) {
        int offset = envelope ? 1 : 0;
        boolean ok = got.length == want.length + offset && (!envelope || got[0].length == 0);
        for (int j = 0; ok && j < want.length; j++) {
            ok = Arrays.equals(got[j + offset], want[j]);
        }
        if (!ok) {
            throw new IllegalStateException(what + ": got " + render(got) + ", expected "
                    + (envelope ? "[] + " : "") + render(want));
        }
    }

    private static byte[][] next(BlockingQueue<Object> events, String what) throws InterruptedException {
        Object o = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (o instanceof byte[][]) {
            return (byte[][]) o;
        }
        throw new IllegalStateException("waiting for " + what + ": " + describe(o, events));
    }

    private static String describe(Object o, BlockingQueue<Object> events) {
        if (o == null) {
            return "timeout after " + TIMEOUT_SECONDS + " s";
        }
        if (o == CLOSED) {
            Object more = poll(events, 1);
            return "connection closed" + (more instanceof Throwable ? " after " + oneLine((Throwable) more) : "");
        }
        if (o instanceof ZMTPHandshakeFailure) {
            // netty-zmtp fires the event, then rethrows the cause into exceptionCaught.
            Object more = poll(events, 1);
            return "handshake failure" + (more instanceof Throwable ? ": " + oneLine((Throwable) more) : "");
        }
        if (o instanceof Throwable) {
            return oneLine((Throwable) o);
        }
        return String.valueOf(o);
    }

    private static Object poll(BlockingQueue<Object> events, int seconds) {
        try {
            return events.poll(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void drain(BlockingQueue<Object> events) {
        events.clear();
    }

    private static String render(byte[][] m) {
        StringBuilder sb = new StringBuilder("[");
        for (int j = 0; j < m.length; j++) {
            if (j > 0) {
                sb.append(", ");
            }
            sb.append(m[j].length).append("B:").append(toHex(ByteBuffer.wrap(m[j], 0, Math.min(8, m[j].length))));
        }
        return sb.append(']').toString();
    }

    static String oneLine(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String first = t.toString();
        // Keep the protocol one line per event: the full trace goes to stderr.
        System.err.println(sw);
        return first.replace('\n', ' ').replace('\r', ' ');
    }

    private static String toHex(ByteBuffer b) {
        StringBuilder sb = new StringBuilder();
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) {
            sb.append(String.format("%02x", d.get() & 0xFF));
        }
        return sb.toString();
    }

    private static byte[] fromHex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    /** Turns what the Spotify pipeline delivers into queue entries: byte[][] per message, events, CLOSED. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        private final BlockingQueue<Object> events;

        Collector(BlockingQueue<Object> events) {
            this.events = events;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ZMTPMessage) {
                ZMTPMessage m = (ZMTPMessage) msg;
                try {
                    byte[][] frames = new byte[m.size()][];
                    for (int j = 0; j < m.size(); j++) {
                        ByteBuf f = m.frame(j);
                        frames[j] = new byte[f.readableBytes()];
                        f.getBytes(f.readerIndex(), frames[j]);
                    }
                    events.add(frames);
                } finally {
                    m.release();
                }
            } else {
                events.add("unexpected inbound object: " + msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ZMTPHandshakeSuccess || evt instanceof ZMTPHandshakeFailure) {
                events.add(evt);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // netty4-zmtp rethrows handshake errors and leaves closing to the user.
            events.add(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            events.add(CLOSED);
        }
    }
}
