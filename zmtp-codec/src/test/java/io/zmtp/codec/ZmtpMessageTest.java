package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZmtpMessageTest {

    private static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(Wire.ascii(s));
    }

    @Test
    void shouldReleaseEveryFrameWhenReleased() {
        ByteBuf a = buf("a");
        ByteBuf b = buf("b");
        ZmtpMessage m = ZmtpMessage.wrap(a, b);
        m.retain();
        assertThat(m.release()).isFalse();
        assertThat(a.refCnt()).isEqualTo(1);
        assertThat(m.release()).isTrue();
        assertThat(a.refCnt()).isZero();
        assertThat(b.refCnt()).isZero();
        assertThat(m.toString()).contains("released");
    }

    @Test
    void shouldPrependEnvelopeFramesAndKeepOrder() {
        ZmtpMessage m = ZmtpMessage.of("body");
        try {
            for (int i = 0; i < 10; i++) {
                m.addFirst(buf("e" + i));
            }
            m.add(buf("tail"));
            assertThat(m.size()).isEqualTo(12);
            assertThat(m.frameString(0)).isEqualTo("e9");
            assertThat(m.frameString(9)).isEqualTo("e0");
            assertThat(m.frameString(10)).isEqualTo("body");
            assertThat(m.frameString(11)).isEqualTo("tail");
            assertThat(m.contentLength()).isEqualTo(10 * 2 + 4 + 4);
        } finally {
            m.release();
        }
    }

    @Test
    void shouldHandRemovedFirstFrameToCaller() {
        ByteBuf id = buf("id");
        ZmtpMessage m = ZmtpMessage.wrap(id, buf(""), buf("x"));
        ByteBuf removed = m.removeFirst();
        assertThat(removed).isSameAs(id);
        assertThat(m.size()).isEqualTo(2);
        assertThat(m.frame(0).readableBytes()).isZero();
        m.addFirst(buf("new"));
        assertThat(m.frameString(0)).isEqualTo("new");
        m.release();
        assertThat(removed.refCnt()).isEqualTo(1);
        removed.release();
    }

    @Test
    void shouldRemoveAllFramesThenFailOnEmpty() {
        ZmtpMessage m = ZmtpMessage.of("a", "b");
        List<ByteBuf> removed = new ArrayList<>();
        removed.add(m.removeFirst());
        removed.add(m.removeFirst());
        assertThat(m.size()).isZero();
        assertThatThrownBy(m::removeFirst).isInstanceOf(IndexOutOfBoundsException.class);
        m.add(buf("c"));
        assertThat(m.frameString(0)).isEqualTo("c");
        m.release();
        removed.forEach(ByteBuf::release);
    }

    /** A one-frame message keeps its frame in a field until a second frame or an envelope needs an array. */
    @Test
    void shouldGoFromOneFrameToManyAndBackToNone() {
        ByteBuf body = buf("body");
        ZmtpMessage m = ZmtpMessage.wrap(body);
        assertThat(m.size()).isEqualTo(1);
        assertThat(m.frame(0)).isSameAs(body);
        assertThat(m.contentLength()).isEqualTo(4);
        assertThat(m.removeFirst()).isSameAs(body);
        assertThat(m.size()).isZero();
        assertThat(m.contentLength()).isZero();
        assertThatThrownBy(() -> m.frame(0)).isInstanceOf(IndexOutOfBoundsException.class);
        m.add(body);
        m.addFirst(buf("id"));
        m.add(buf("tail"));
        assertThat(m.toStrings()).containsExactly("id", "body", "tail");
        assertThat(m.toString()).isEqualTo("ZmtpMessage[\"id\", \"body\", \"tail\"]");
        m.release();
        assertThat(body.refCnt()).isZero();

        ByteBuf only = buf("x");
        ZmtpMessage one = ZmtpMessage.wrap(only);
        one.addFirst(buf("envelope"));
        assertThat(one.toStrings()).containsExactly("envelope", "x");
        one.release();
        assertThat(only.refCnt()).isZero();
    }

    @Test
    void shouldCountReferencesAndRefuseWhatNettyRefuses() {
        ByteBuf frame = buf("a");
        ZmtpMessage m = ZmtpMessage.wrap(frame);
        assertThat(m.retain(2).refCnt()).isEqualTo(3);
        assertThat(m.release(2)).isFalse();
        assertThatThrownBy(() -> m.release(2)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> m.retain(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.release(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.retain(Integer.MAX_VALUE)).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(m.refCnt()).isEqualTo(1);
        assertThat(frame.refCnt()).as("the message's count, not its frames'").isEqualTo(1);
        assertThat(m.release()).isTrue();
        assertThat(frame.refCnt()).isZero();
        assertThatThrownBy(m::retain).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void shouldRefuseUseAfterRelease() {
        ZmtpMessage m = ZmtpMessage.of("a");
        m.release();
        assertThatThrownBy(() -> m.add(Unpooled.EMPTY_BUFFER)).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> m.addFirst(Unpooled.EMPTY_BUFFER))
                .isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(m::removeFirst).isInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(m::release).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void shouldCheckFrameIndexAndRefuseEmptyWrap() {
        ZmtpMessage m = ZmtpMessage.ofBytes(new byte[] {1});
        try {
            assertThatThrownBy(() -> m.frame(1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> m.frame(-1)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(m.frameBytes(0)).containsExactly(1);
        } finally {
            m.release();
        }
        assertThatThrownBy(ZmtpMessage::wrap).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldGrowWhenAddingManyFrames() {
        ZmtpMessage m = ZmtpMessage.create();
        try {
            for (int i = 0; i < 100; i++) {
                m.add(buf(Integer.toString(i)));
            }
            assertThat(m.size()).isEqualTo(100);
            assertThat(m.frameString(99)).isEqualTo("99");
            assertThat(m.toString()).startsWith("ZmtpMessage[\"0\", \"1\"");
        } finally {
            m.release();
        }
    }

    @Test
    void shouldReportCommandFieldsAndBuildStandardCommands() {
        ZmtpCommand error = ZmtpCommand.error("x".repeat(300));
        try {
            assertThat(error.errorReason()).hasSize(255);
        } finally {
            error.release();
        }
        assertThatThrownBy(() -> ZmtpCommand.ping(0, new byte[17])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZmtpCommand.ping(65536, new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZmtpCommand("", Unpooled.EMPTY_BUFFER))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCopyEveryFrameOutAsStringsAndByteArraysThatOutliveTheMessage() {
        ZmtpMessage m = ZmtpMessage.of("héllo", "", "world");
        List<String> strings = m.toStrings();
        List<byte[]> arrays = m.toByteArrays();
        m.release();
        assertThat(strings).containsExactly("héllo", "", "world");
        assertThat(arrays).hasSize(3);
        assertThat(new String(arrays.get(0), StandardCharsets.UTF_8)).isEqualTo("héllo");
        assertThat(arrays.get(1)).isEmpty();
    }
}
