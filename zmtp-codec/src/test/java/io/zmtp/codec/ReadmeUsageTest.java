package io.zmtp.codec;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The usage shown in README.md, kept compiling and passing. Between the "// README:" markers is what the README
 * quotes, as it is (indentation aside): {@link #shouldQuoteTheSnippetsInTheReadmeAsTheyAreHere} checks it.
 */
class ReadmeUsageTest {

    @Test
    void shouldEchoAMultipartMessageBetweenARouterAndADealer() throws Exception {
        EventLoopGroup group = new NioEventLoopGroup(1);
        try {
            // README: server
            ZmtpConfig routerConfig = ZmtpConfig.builder(ZmtpSocketType.ROUTER).build();
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(routerConfig));
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<ZmtpMessage>() {
                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ZmtpMessage msg) {
                                    // The message is released when this method returns: retain what you keep.
                                    ctx.writeAndFlush(msg.retain());
                                }
                            });
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            // README: end

            BlockingQueue<Object> events = new ArrayBlockingQueue<>(16);
            // README: client
            ZmtpConfig dealerConfig = ZmtpConfig.builder(ZmtpSocketType.DEALER)
                    .identity("client-1".getBytes(StandardCharsets.US_ASCII))
                    .build();
            Channel client = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new ZmtpHandshakeHandler(dealerConfig));
                            ch.pipeline().addLast(new SimpleChannelInboundHandler<ZmtpMessage>() {
                                @Override
                                public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                    if (evt instanceof ZmtpHandshakeSuccessEvent) {
                                        ZmtpHandshakeSuccessEvent hs = (ZmtpHandshakeSuccessEvent) evt;
                                        // e.g. ZMTP/3.1, ROUTER, the peer's address and metadata
                                        events.add(hs.version() + " " + hs.peerSocketType());
                                    }
                                    ctx.fireUserEventTriggered(evt);
                                }

                                @Override
                                protected void channelRead0(ChannelHandlerContext ctx, ZmtpMessage msg) {
                                    events.add(msg.frameString(0) + "|" + msg.frameString(1));
                                }
                            });
                        }
                    })
                    .connect(server.localAddress()).sync().channel();

            // Writes made before the handshake completes are held and sent right after it.
            client.writeAndFlush(ZmtpMessage.of("hello", "world"));
            // README: end

            assertThat(events.poll(scaledSeconds(10), TimeUnit.SECONDS)).isEqualTo("ZMTP/3.1 ROUTER");
            assertThat(events.poll(scaledSeconds(10), TimeUnit.SECONDS)).isEqualTo("hello|world");
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void shouldQuoteTheSnippetsInTheReadmeAsTheyAreHere() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        Path source = Path.of("src/test/java/io/zmtp/codec/ReadmeUsageTest.java");
        for (String name : List.of("server", "client")) {
            assertThat(readme).as(name).contains("```java\n" + snippet(source, name) + "```\n");
        }
    }

    /** The lines between "// README: name" and "// README: end" in a source file, without their common indent. */
    static String snippet(Path source, String name) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
            String t = line.trim();
            if (t.equals("// README: " + name)) {
                in = true;
            } else if (in && t.equals("// README: end")) {
                break;
            } else if (in) {
                lines.add(line);
            }
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
