package io.zmtp.tools.cat;

import io.zmtp.codec.ZmtpMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

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
}
