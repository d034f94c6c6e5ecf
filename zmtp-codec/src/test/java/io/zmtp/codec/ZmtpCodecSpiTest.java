package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/** Application types read and written without ZmtpMessage, through ZmtpMessageReader and ZmtpMessageWriter. */
class ZmtpCodecSpiTest {

    /** An application type: a stock quote, sent as [symbol, 8-byte price]. */
    static final class Quote {
        final String symbol;
        final long price;

        Quote(String symbol, long price) {
            this.symbol = symbol;
            this.price = price;
        }
    }

    static final class QuoteWriter implements ZmtpMessageWriter<Quote> {
        @Override
        public Class<Quote> messageType() {
            return Quote.class;
        }

        @Override
        public void writeMessage(Quote q, ZmtpFrameSink frames) {
            frames.writeFrame(ascii(q.symbol), true);
            if (q.price < 0) {
                throw new IllegalArgumentException("negative price");
            }
            frames.beginFrame(8, false).writeLong(q.price);
        }

        @Override
        public int estimateSize(Quote q) {
            return 2 + q.symbol.length() + 2 + 8;
        }
    }

    /** Reads each message as a list of strings, straight from the frames. */
    static final class StringListReader implements ZmtpMessageReader {
        private List<String> frames = new ArrayList<>();
        int discarded;

        @Override
        public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
            frames.add(in.readCharSequence(length, StandardCharsets.UTF_8).toString());
            if (!more) {
                out.add(frames);
                frames = new ArrayList<>();
            }
        }

        @Override
        public void discard() {
            discarded++;
            frames.clear();
        }
    }

    @Test
    void shouldWriteApplicationTypeThroughCustomEncoder() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageWriter(new QuoteWriter()).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            assertThat(p.write(new Quote("ACME", 0x0102030405060708L)).isSuccess()).isTrue();
            p.write(ZmtpMessage.of("plain")); // ZmtpMessages still work
            assertThat(hex(p.outbound())).isEqualTo(hex(concat(hex("01 04"), ascii("ACME"),
                    hex("00 08 01 02 03 04 05 06 07 08"), message(ascii("plain")))));
        }
    }

    @Test
    void shouldFailOnlyTheWriteWhoseEncodingThrowsAndKeepTheBatch() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageWriter(new QuoteWriter()).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            ChannelFuture good = p.channel.write(new Quote("A", 1));
            ChannelFuture bad = p.channel.write(new Quote("B", -1));
            ChannelFuture after = p.channel.write(new Quote("C", 3));
            p.channel.flush();
            assertThat(bad.cause()).hasMessage("negative price");
            assertThat(good.isSuccess()).isTrue();
            assertThat(after.isSuccess()).isTrue();
            assertThat(hex(p.outbound())).isEqualTo(hex(concat(hex("01 01 41 00 08 00 00 00 00 00 00 00 01"),
                    hex("01 01 43 00 08 00 00 00 00 00 00 00 03"))));
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldReadApplicationTypeThroughCustomDecoder() {
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageReader(StringListReader::new).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(concat(message(ascii("a"), ascii(""), ascii("ccc")), Wire.command("X", ascii("1")),
                    message(ascii("d"))));
            assertThat(p.inbound).hasSize(3);
            assertThat(p.inbound.get(0)).isEqualTo(List.of("a", "", "ccc"));
            assertThat(p.inbound.get(1)).isInstanceOf(ZmtpCommand.class); // commands bypass message decoders
            assertThat(p.inbound.get(2)).isEqualTo(List.of("d"));
        }
    }

    @Test
    void shouldDiscardPartialMessageOfCustomDecoderOnProtocolError() {
        StringListReader decoder = new StringListReader();
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageReader(() -> decoder).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(Wire.frame(1, ascii("part")), hex("08 00"));
            assertThat(p.protocolError()).isNotNull();
            assertThat(decoder.discarded).isPositive();
            assertThat(decoder.frames).isEmpty();
        }
    }

    @Test
    void shouldCloseWhenCustomDecoderConsumesWrongLength() {
        ZmtpMessageReader sloppy = new ZmtpMessageReader() {
            @Override
            public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more,
                                    List<Object> out) {
                in.skipBytes(Math.max(0, length - 1));
            }

            @Override
            public void discard() {
            }
        };
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageReader(() -> sloppy).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.feed(message(ascii("abc")));
            assertThat(p.protocolError().cause()).isInstanceOf(ZmtpCodecException.class);
            assertThat(p.channel.isOpen()).isFalse();
        }
    }

    /**
     * A reader that hands messages to the application itself (as the socket layer's does): it records them where the
     * pipeline's end records commands, so the order the two reach the application in shows.
     */
    private static ZmtpMessageReader delivering(List<Object> seen) {
        return new ZmtpMessageReader() {
            @Override
            public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
                seen.add(in.readCharSequence(length, StandardCharsets.US_ASCII).toString());
            }

            @Override
            public void discard() {
            }
        };
    }

    @Test
    void shouldKeepACommandInItsPlaceAmongMessagesAReaderDeliversItself() {
        List<Object> seen = new ArrayList<>();
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.XPUB).messageReader(() -> delivering(seen)).build();
        try (TestPeer p = TestPeer.handshaken(config, ZmtpSocketType.XSUB, 1)) {
            p.channel.pipeline().addBefore("recorder", "commands", new io.netty.channel.ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (msg instanceof ZmtpCommand) {
                        seen.add(((ZmtpCommand) msg).name());
                    }
                    ctx.fireChannelRead(msg);
                }
            });
            // One read: a message, a SUBSCRIBE, a message.
            p.feed(concat(message(ascii("first")), Wire.command("SUBSCRIBE", ascii("topic")), message(ascii("last"))));
            assertThat(seen).containsExactly("first", "SUBSCRIBE", "last");
        }
    }

    /**
     * With auto-read off (a socket at its receive high-water mark), a read that completed a message asks for no
     * further read, even though nothing went down the pipeline; one that left a frame incomplete does.
     */
    @Test
    void shouldNotKeepReadingAPausedChannelWhoseReaderDeliversItself() {
        List<Object> seen = new ArrayList<>();
        ZmtpConfig config = ZmtpConfig.builder(DEALER).messageReader(() -> delivering(seen)).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            int[] reads = {0};
            p.channel.pipeline().addFirst(new io.netty.channel.ChannelOutboundHandlerAdapter() {
                @Override
                public void read(ChannelHandlerContext ctx) {
                    reads[0]++;
                    ctx.read();
                }
            });
            p.channel.config().setAutoRead(false);
            reads[0] = 0;
            p.feed(message(ascii("whole")));
            assertThat(seen).containsExactly("whole");
            assertThat(reads[0]).as("reads asked for after a complete message").isZero();
            byte[] next = message(ascii("split"));
            p.feed(java.util.Arrays.copyOf(next, 3));
            assertThat(reads[0]).as("reads asked for after part of a frame").isEqualTo(1);
            p.feed(java.util.Arrays.copyOfRange(next, 3, next.length));
            assertThat(seen).containsExactly("whole", "split");
        }
    }

    @Test
    void shouldHandMessagesToAConsumerAndCommandsDownThePipeline() {
        List<ZmtpMessage> consumed = new ArrayList<>();
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.XPUB)
                .messageReader(() -> new DefaultZmtpMessageReader(consumed::add)).build();
        try (TestPeer p = TestPeer.handshaken(config, ZmtpSocketType.XSUB, 1)) {
            p.feed(concat(message(ascii("one"), ascii("two")), Wire.command("SUBSCRIBE", ascii("t")),
                    message(ascii("three"))));
            assertThat(consumed).extracting(ZmtpMessage::toStrings)
                    .containsExactly(List.of("one", "two"), List.of("three"));
            assertThat(p.inbound).singleElement().isInstanceOf(ZmtpCommand.class);
            consumed.forEach(ZmtpMessage::release);
        }
    }
}
