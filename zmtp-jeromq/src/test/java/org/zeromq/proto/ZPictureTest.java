package org.zeromq.proto;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;
import org.zeromq.ZMsg;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pictures between two PAIR sockets over inproc: what one side sends, frame by frame, and what the other reads. */
class ZPictureTest {
    private final ZContext context = new ZContext();
    private final ZMQ.Socket sender = context.createSocket(SocketType.PAIR);
    private final ZMQ.Socket receiver = context.createSocket(SocketType.PAIR);
    private final ZPicture pictures = new ZPicture();

    ZPictureTest() {
        receiver.bind("inproc://pictures");
        sender.connect("inproc://pictures");
    }

    @AfterEach
    void close() {
        context.close();
    }

    private static String text(ZFrame frame) {
        return frame.getString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendATextPictureAsOneFramePerValue() {
        ZMsg tail = ZMsg.newStringMsg("t1", "t2");
        ZFrame frame = new ZFrame("frame");
        assertThat(sender.sendPicture("i1248sbfzm", -7, 0x1FF, 0x1FFFF, 7, 1L << 40, "str",
                new byte[] {1, 2}, frame, tail)).isTrue();
        ZMsg msg = ZMsg.recvMsg(receiver);
        assertThat(msg.size()).isEqualTo(11);
        assertThat(text(msg.pop())).isEqualTo("-7");
        assertThat(text(msg.pop())).isEqualTo("255");
        assertThat(text(msg.pop())).isEqualTo("65535");
        assertThat(text(msg.pop())).isEqualTo("7");
        assertThat(text(msg.pop())).isEqualTo("1099511627776");
        assertThat(text(msg.pop())).isEqualTo("str");
        assertThat(msg.pop().getData()).containsExactly(1, 2);
        assertThat(text(msg.pop())).isEqualTo("frame");
        assertThat(msg.pop().size()).isZero();
        assertThat(text(msg.pop())).isEqualTo("t1");
        assertThat(text(msg.pop())).isEqualTo("t2");
        // The arguments are left as they were.
        assertThat(tail.size()).isEqualTo(2);
        assertThat(text(frame)).isEqualTo("frame");
    }

    @Test
    void shouldReadATextPictureIntoJeromqsTypes() {
        ZMsg tail = ZMsg.newStringMsg("rest", "of it");
        sender.sendPicture("i1248sbcfzm", 42, 200, 60000, -2, -3L, "s", new byte[] {9}, new byte[0],
                new ZFrame("f"), tail);
        Object[] got = receiver.recvPicture("i1248sbcfzm");
        assertThat(got).hasSize(11);
        assertThat(got[0]).isEqualTo(42);
        assertThat(got[1]).isEqualTo(200);
        assertThat(got[2]).isEqualTo(60000);
        assertThat(got[3]).isEqualTo(-2);
        assertThat(got[4]).isEqualTo(-3L);
        assertThat(got[5]).isEqualTo("s");
        assertThat((byte[]) got[6]).containsExactly(9);
        assertThat((byte[]) got[7]).isEmpty();
        assertThat(text((ZFrame) got[8])).isEqualTo("f");
        assertThat(((ZFrame) got[9]).size()).isZero();
        assertThat((ZMsg) got[10]).extracting(ZPictureTest::text).containsExactly("rest", "of it");
    }

    @Test
    void shouldReadCzmqsUnsignedTextForFourBytesAsTheSameBits() {
        ZMsg.newStringMsg("4294967295", "300").send(sender);
        Object[] got = pictures.recvPicture(receiver, "41");
        assertThat(got[0]).isEqualTo(-1);
        assertThat(got[1]).isEqualTo(300 & 0xFF);
    }

    @Test
    void shouldEncodeABinaryPictureInOneFrameThenTheFrames() {
        ZMsg tail = ZMsg.newStringMsg("m");
        assertThat(sender.sendBinaryPicture("124sbfm", 0x101, 0x0203, 0x04050607, "ab", new byte[] {8},
                new ZFrame("f"), tail)).isTrue();
        ZMsg msg = ZMsg.recvMsg(receiver);
        assertThat(msg.size()).isEqualTo(3);
        assertThat(msg.pop().getData()).containsExactly(
                0x01,                   // 1: low 8 bits
                0x02, 0x03,             // 2
                0x04, 0x05, 0x06, 0x07, // 4
                2, 'a', 'b',            // s: 1-byte length, UTF-8
                0, 0, 0, 1, 8);         // b: 4-byte length, bytes
        assertThat(text(msg.pop())).isEqualTo("f");
        assertThat(text(msg.pop())).isEqualTo("m");
        assertThat(tail.size()).isEqualTo(1);
    }

    @Test
    void shouldReadABinaryPictureBack() {
        String longString = "L".repeat(300);
        sender.sendBinaryPicture("1248sSbcfm", 255, 65535, 123456, Long.MIN_VALUE, "caf\u00e9", longString,
                new byte[] {1}, new byte[0], new ZFrame("frame"), null);
        Object[] got = receiver.recvBinaryPicture("1248sSbcfm");
        assertThat(got[0]).isEqualTo(255);
        assertThat(got[1]).isEqualTo(65535);
        assertThat(got[2]).isEqualTo(123456);
        assertThat(got[3]).isEqualTo(Long.MIN_VALUE);
        assertThat(got[4]).isEqualTo("caf\u00e9");
        assertThat(got[5]).isEqualTo(longString);
        assertThat((byte[]) got[6]).containsExactly(1);
        assertThat((byte[]) got[7]).isEmpty();
        assertThat(text((ZFrame) got[8])).isEqualTo("frame");
        // A null m is sent as one empty frame.
        assertThat((ZMsg) got[9]).hasSize(1);
    }

    @Test
    void shouldBuildTheBinaryMessageWithoutASocket() {
        ZMsg msg = pictures.msgBinaryPicture("8", 1L);
        assertThat(msg.size()).isEqualTo(1);
        assertThat(msg.getFirst().getData()).containsExactly(0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(new ZNeedle(msg.getFirst()).getNumber8()).isEqualTo(1L);
    }

    @Test
    void shouldRefusePicturesWithUnknownCharactersOrMNotLast() {
        assertThatThrownBy(() -> pictures.sendPicture(sender, "x", 1)).isInstanceOfSatisfying(ZMQException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EPROTO.getCode()));
        assertThatThrownBy(() -> pictures.msgBinaryPicture("z")).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> pictures.msgBinaryPicture("m1", null, 1)).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> pictures.recvPicture(receiver, "S")).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> pictures.recvBinaryPicture(receiver, "i")).isInstanceOf(ZMQException.class);
    }

    @Test
    void shouldRefuseANonEmptyFrameWhereThePictureHasZ() {
        ZMsg.newStringMsg("1", "not empty").send(sender);
        assertThatThrownBy(() -> receiver.recvPicture("iz")).isInstanceOfSatisfying(ZMQException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EPROTO.getCode()));
    }

    @Test
    void shouldRefuseABinaryFrameShorterThanThePicture() {
        sender.send(new byte[] {5, 'a'});
        assertThatThrownBy(() -> receiver.recvBinaryPicture("s")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldReturnNullWhenNoMessageComesInTime() {
        receiver.setReceiveTimeOut(1);
        assertThat(receiver.recvPicture("s")).isNull();
        assertThat(receiver.recvBinaryPicture("s")).isNull();
    }
}
