package io.zmtp.tools.cat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameTextTest {

    @Test
    void shouldShowBinaryFramesEscapedAndReadThemBack() {
        ZmtpMessage m = ZmtpMessage.ofBytes(new byte[] {0, 0x6b, (byte) 0x8b}, new byte[0], "a\\b|c".getBytes());
        try {
            String line = FrameText.format(m, "|");
            assertThat(line).isEqualTo("\\x00k\\x8b||a\\x5cb\\x7cc");
        } finally {
            m.release();
        }
    }

    @Test
    void shouldSplitALineIntoFramesOnTheDelimiter() {
        ZmtpMessage m = FrameText.parse("\\x00\\x01id||hello world", "|");
        try {
            assertThat(m.size()).isEqualTo(3);
            assertThat(m.frameBytes(0)).containsExactly(0, 1, 'i', 'd');
            assertThat(m.frameBytes(1)).isEmpty();
            assertThat(m.frameString(2)).isEqualTo("hello world");
        } finally {
            m.release();
        }
    }

    @Test
    void shouldLeadAThreadSafeTypesLineWithTheUnsignedRoutingIdOrTheEscapedGroup() {
        ZmtpMessage fromClient = ZmtpMessage.of("a|b").routingId(-2);
        ZmtpMessage inGroup = ZmtpMessage.of("x|y").group("we|ather\u00e9");
        ZmtpMessage single = ZmtpMessage.of("p|q");
        try {
            assertThat(FrameText.format(ZmtpSocketType.SERVER, fromClient, "|")).isEqualTo("4294967294|a|b");
            assertThat(FrameText.format(ZmtpSocketType.DISH, inGroup, "|")).isEqualTo("we\\x7cather\\xc3\\xa9|x|y");
            assertThat(FrameText.format(ZmtpSocketType.GATHER, single, "|")).isEqualTo("p|q");
        } finally {
            fromClient.release();
            inGroup.release();
            single.release();
        }
    }

    @Test
    void shouldReadAThreadSafeTypesLineAsOneFrameAfterWhatLeadsIt() {
        ZmtpMessage reply = FrameText.parse(ZmtpSocketType.PEER, "4294967294|a|b", "|");
        ZmtpMessage published = FrameText.parse(ZmtpSocketType.RADIO, "we\\x7cather|x||y", "|");
        ZmtpMessage asIs = FrameText.parse(ZmtpSocketType.CHANNEL, "p|q\\x00", "|");
        try {
            assertThat(reply.routingId()).isEqualTo(-2);
            assertThat(reply.size()).isEqualTo(1);
            assertThat(reply.frameString(0)).isEqualTo("a|b");
            assertThat(published.group()).isEqualTo("we|ather");
            assertThat(published.frameString(0)).isEqualTo("x||y");
            assertThat(asIs.size()).isEqualTo(1);
            assertThat(asIs.frameBytes(0)).containsExactly('p', '|', 'q', 0);
        } finally {
            reply.release();
            published.release();
            asIs.release();
        }
        assertThatThrownBy(() -> FrameText.parse(ZmtpSocketType.SERVER, "0|x", "|"))
                .isInstanceOf(FrameText.BadLineException.class).hasMessageContaining("routing id '0'");
        assertThatThrownBy(() -> FrameText.parse(ZmtpSocketType.SERVER, "no id", "|"))
                .isInstanceOf(FrameText.BadLineException.class).hasMessageContaining("ID|BODY");
        assertThatThrownBy(() -> FrameText.parse(ZmtpSocketType.RADIO, "|body", "|"))
                .isInstanceOf(FrameText.BadLineException.class).hasMessageContaining("group of 0 bytes");
    }
}
