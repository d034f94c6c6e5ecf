package io.zmtp.socket;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpHandshakeHandler;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;
import io.zmtp.codec.ZmtpMessage;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/** What the tcp tests (*IT) share: receiving as text, byte arrays from text, and {@link RawPeer}. */
public final class SocketTestSupport {
    /** How long a test waits for something that should happen. */
    public static final Duration WAIT = scaled(Duration.ofSeconds(5));

    private SocketTestSupport() {
    }

    /** Receives within WAIT and returns the frames joined by "|"; releases the message. */
    public static String recv(ZmtpSocket s) {
        ZmtpMessage m = s.receive(WAIT);
        assertThat(m).as("message on " + s).isNotNull();
        return text(m);
    }

    /** The frames joined by "|"; releases the message. */
    public static String text(ZmtpMessage m) {
        try {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < m.size(); i++) {
                sb.append(i > 0 ? "|" : "").append(m.frameString(i));
            }
            return sb.toString();
        } finally {
            m.release();
        }
    }

    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Sends from {@code pub} until {@code sub} gets a message (subscriptions propagate asynchronously). */
    public static String awaitFirst(ZmtpSocket pub, ZmtpSocket sub, String topicMessage) {
        String first = retry(() -> {
            pub.send(ZmtpMessage.of(topicMessage));
            ZmtpMessage m = sub.receive(Duration.ofMillis(25));
            return m == null ? null : text(m);
        });
        if (first == null) {
            throw new AssertionError("subscription never took effect within " + WAIT);
        }
        return first;
    }

    /**
     * Calls {@code attempt} until it returns something other than null, for at most WAIT, and returns that (null if
     * it never did): for a test that sends until the other side, connecting or subscribing in the background, gets one.
     * Each attempt waits a little itself (a receive with a short timeout).
     */
    public static <T> T retry(Supplier<T> attempt) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        T result;
        do {
            result = attempt.get();
        } while (result == null && System.nanoTime() - deadline < 0);
        return result;
    }

    /**
     * Whether {@code condition} holds within WAIT, looking every 10 ms: for what a socket does in the background (a
     * connection coming up, an event reaching a listener).
     */
    public static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return condition.getAsBoolean();
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Receives and releases until nothing arrives for 50 ms. */
    public static void drain(ZmtpSocket s) {
        ZmtpMessage m;
        while ((m = s.receive(Duration.ofMillis(50))) != null) {
            m.release();
        }
    }

    /**
     * A peer on the bare codec, for tests that need to send what our sockets never would (a PULL that sends, raw
     * SUBSCRIBE/CANCEL commands) or to see exactly what a socket sent. What arrives is kept as text: messages as their
     * frames joined by "|", commands as "NAME:body".
     */
    public static final class RawPeer implements AutoCloseable {

        private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        private final ZmtpConfig config;
        public final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final BlockingQueue<Channel> handshaken = new LinkedBlockingQueue<>();
        private Channel server;

        public RawPeer(ZmtpConfig config) {
            this.config = config;
        }

        private ChannelInitializer<Channel> initializer() {
            return new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new ZmtpHandshakeHandler(config), new ChannelInboundHandlerAdapter() {
                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt instanceof ZmtpHandshakeSuccessEvent) {
                                handshaken.add(ctx.channel());
                            }
                            ReferenceCountUtil.release(evt);
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            try {
                                received.add(render(msg));
                            } finally {
                                ReferenceCountUtil.release(msg);
                            }
                        }
                    });
                }
            };
        }

        private static String render(Object msg) {
            if (msg instanceof ZmtpCommand) {
                ZmtpCommand c = (ZmtpCommand) msg;
                return c.name() + ":" + c.content().toString(StandardCharsets.ISO_8859_1);
            }
            ZmtpMessage m = (ZmtpMessage) msg;
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < m.size(); i++) {
                sb.append(i > 0 ? "|" : "").append(m.frame(i).toString(StandardCharsets.ISO_8859_1));
            }
            return sb.toString();
        }

        /** Listens on 127.0.0.1 and returns the endpoint to connect a socket to. */
        public String listen() {
            server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childHandler(initializer())
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
            return "tcp://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
        }

        /** Connects to a socket bound at {@code endpoint} (tcp://127.0.0.1:port) and waits for the handshake. */
        public Channel connect(String endpoint) {
            startConnect(endpoint);
            return awaitHandshake();
        }

        /** Starts connecting to a socket bound at {@code endpoint}, without waiting; see {@link #awaitHandshake}. */
        public void startConnect(String endpoint) {
            int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
            new Bootstrap().group(group).channel(NioSocketChannel.class).handler(initializer())
                    .connect(new InetSocketAddress("127.0.0.1", port));
        }

        public Channel awaitHandshake() {
            try {
                Channel ch = handshaken.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(ch).as("handshake with the socket").isNotNull();
                return ch;
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        public String next() {
            try {
                String s = received.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                assertThat(s).as("something from the socket").isNotNull();
                return s;
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public void close() {
            if (server != null) {
                server.close().syncUninterruptibly();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /**
     * The lines between "// PREFIX: name" and "// PREFIX: end" in a source file, without their common indent: a
     * snippet a document quotes as it is (README.md's with prefix README, docs/sockets.md's with guide).
     */
    public static String snippet(Path source, String prefix, String name) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
            String t = line.trim();
            if (t.equals("// " + prefix + ": " + name)) {
                in = true;
            } else if (in && t.equals("// " + prefix + ": end")) {
                break;
            } else if (in) {
                lines.add(line);
            }
        }
        if (lines.isEmpty()) {
            throw new AssertionError("no snippet \"" + name + "\" in " + source);
        }
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return out.toString();
    }
}
