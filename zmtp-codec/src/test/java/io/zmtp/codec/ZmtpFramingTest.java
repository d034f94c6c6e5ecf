package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.frame;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.longFrame;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.Wire.repeat;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/** ZMTP 3.x frames after the handshake, both directions. */
class ZmtpFramingTest {

    @Test
    void shouldDecodeShortFrame() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("00 03 61 62 63"));
            assertThat(p.log()).containsExactly("msg[616263]");
        }
    }

    @Test
    void shouldAcceptLongFormForSmallSizes() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(longFrame(0x01, ascii("a")), longFrame(0, new byte[0]), longFrame(0, ascii("abc")));
            p.feed(longFrame(0x04, Wire.commandBody("SUBSCRIBE", ascii("t"))));
            assertThat(p.log()).containsExactly("msg[61, ]", "msg[616263]", "cmd SUBSCRIBE 74");
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldDecodeLongFrameMultipart() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(concat(frame(0x01, ascii("A")), frame(0, repeat('B', 300))));
            assertThat(p.log()).containsExactly("msg[41, " + hex(repeat('B', 300)) + "]");
        }
    }

    @Test
    void shouldDecodeZeroLengthFrames() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("01 00 01 00 00 00"), hex("00 00"));
            assertThat(p.log()).containsExactly("msg[, , ]", "msg[]");
            ZmtpMessage m = p.inbound(ZmtpMessage.class).get(0);
            assertThat(m.size()).isEqualTo(3);
            assertThat(m.contentLength()).isZero();
        }
    }

    @Test
    void shouldDeliverCommandsBetweenMessagesInOrder() {
        try (TestPeer p = TestPeer.handshaken(ZmtpSocketType.PUB, ZmtpSocketType.SUB)) {
            p.feed(concat(message(ascii("one"), ascii("two")), Wire.command("SUBSCRIBE", ascii("abc")),
                    message(ascii("three")), Wire.command("CANCEL", ascii("abc")), Wire.command("X", new byte[0])));
            assertThat(p.log()).containsExactly("msg[6f6e65, 74776f]", "cmd SUBSCRIBE 616263", "msg[7468726565]",
                    "cmd CANCEL 616263", "cmd X ");
        }
    }

    @Test
    void shouldEncodeShortFormUpTo255BytesAndLongFormAbove() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.write(ZmtpMessage.ofBytes(new byte[0], repeat('x', 255), repeat('y', 256), ascii("z")));
            assertThat(hex(p.outbound())).isEqualTo(hex(concat(
                    hex("01 00"),
                    hex("01 ff"), repeat('x', 255),
                    hex("03 00 00 00 00 00 00 01 00"), repeat('y', 256),
                    hex("00 01"), ascii("z"))));
        }
    }

    @Test
    void shouldEncodeCommandsAsCommandFrames() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.write(ZmtpCommand.ping(25, new byte[0]));
            p.write(ZmtpCommand.pong(Unpooled.copiedBuffer(ascii("ctx-1234"))));
            p.write(new ZmtpCommand("X", Unpooled.copiedBuffer(repeat('q', 300))));
            assertThat(hex(p.outbound())).isEqualTo(hex(concat(
                    hex("04 07 04 50 49 4e 47 00 19"),
                    hex("04 0d 04 50 4f 4e 47 63 74 78 2d 31 32 33 34"),
                    hex("06 00 00 00 00 00 00 01 2e 01 58"), repeat('q', 300))));
        }
    }

    @Test
    void shouldSendLargeFrameAsCompositeWithoutCopyAndDecodeItIntact() {
        byte[] payload = new byte[1024 * 1024];
        new Random(42).nextBytes(payload);
        ByteBuf frame = Unpooled.buffer(payload.length).writeBytes(payload);
        frame.retain(); // ours, to watch the codec's references
        try (TestPeer sender = TestPeer.handshaken(DEALER, DEALER);
             TestPeer receiver = TestPeer.handshaken(DEALER, DEALER)) {
            assertThat(sender.write(ZmtpMessage.wrap(Unpooled.copiedBuffer(ascii("hdr")), frame)).isSuccess())
                    .isTrue();
            ByteBuf wire = sender.channel.readOutbound();
            try {
                assertThat(wire).isInstanceOf(CompositeByteBuf.class);
                // The message gave up its reference; the composite holds one on the caller's buffer (no copy).
                assertThat(frame.refCnt()).isEqualTo(2);
                assertThat(wire.readableBytes()).isEqualTo(2 + 3 + 9 + payload.length);
                assertThat(ByteBufUtil.getBytes(wire, 0, 14)).isEqualTo(hex("01 03 68 64 72 02 00 00 00 00 00 10 00 00"));
                receiver.channel.writeInbound(wire.retain());
            } finally {
                wire.release();
            }
            assertThat(receiver.inbound(ZmtpMessage.class)).hasSize(1);
            ZmtpMessage got = receiver.inbound(ZmtpMessage.class).get(0);
            assertThat(got.frameString(0)).isEqualTo("hdr");
            assertThat(got.frameBytes(1)).isEqualTo(payload);
            assertThat((Object) sender.channel.readOutbound()).isNull();
        } finally {
            assertThat(frame.refCnt()).isEqualTo(1);
            frame.release();
        }
    }

    @Test
    void shouldDecodeMessageFramesAsSlicesOfTheReadBuffer() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            byte[] wire = message(ascii("hello"), ascii("world"));
            p.channel.writeInbound(Unpooled.wrappedBuffer(wire));
            ZmtpMessage m = p.inbound(ZmtpMessage.class).get(0);
            // Same backing array as the read buffer: the codec sliced it instead of copying.
            for (int i = 0; i < 2; i++) {
                assertThat(m.frame(i).hasArray()).isTrue();
                assertThat(m.frame(i).array()).isSameAs(wire);
            }
            assertThat(m.frame(0).arrayOffset() + m.frame(0).readerIndex()).isEqualTo(2);
            assertThat(m.frame(1).arrayOffset() + m.frame(1).readerIndex()).isEqualTo(9);
            assertThat(m.frameString(1)).isEqualTo("world");
        }
    }

    @Test
    void shouldPassOtherObjectsThroughTheEncoderUntouched() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            ByteBuf raw = Unpooled.copiedBuffer(hex("00 01 61"));
            assertThat(p.write(raw).isSuccess()).isTrue();
            ByteBuf out = p.channel.readOutbound();
            try {
                assertThat(out).isSameAs(raw);
                assertThat(out.refCnt()).isEqualTo(1);
                assertThat(ByteBufUtil.getBytes(out)).isEqualTo(hex("00 01 61"));
            } finally {
                out.release();
            }
        }
    }

    @Test
    void shouldWriteMessageWithoutFramesAsOneEmptyFrameAndReleaseIt() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            ZmtpMessage empty = ZmtpMessage.create();
            assertThat(p.write(empty).isSuccess()).isTrue();
            assertThat(empty.refCnt()).isZero();
            assertThat(p.outbound()).isEqualTo(hex("00 00"));
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldFailWriteOfReleasedMessageAndKeepTheConnection() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            ZmtpMessage gone = ZmtpMessage.of("x");
            gone.release();
            assertThat(p.write(gone).cause()).isInstanceOf(IllegalReferenceCountException.class);
            assertThat(p.write(ZmtpMessage.of("y")).isSuccess()).isTrue();
            assertThat(p.outbound()).isEqualTo(hex("00 01 79"));
            assertThat(p.channel.isOpen()).isTrue();
        }
    }
}
