package org.zeromq.util;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ZDataTest {
    private static String printed(String prefix, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ZData(data).print(new PrintStream(out, true, StandardCharsets.UTF_8), prefix);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void shouldShowPrintableAsciiAsTextAndAnythingElseAsHex() {
        assertThat(ZData.toString("Hello, World ~".getBytes(StandardCharsets.US_ASCII))).isEqualTo("Hello, World ~");
        assertThat(ZData.toString(new byte[] {'a', 0x0A, 'b'})).isEqualTo("610A62");
        assertThat(ZData.toString(new byte[] {(byte) 0xC3, (byte) 0xA9})).isEqualTo("C3A9");
        assertThat(new ZData(new byte[] {0x00, (byte) 0xFF, 0x1F}).toString()).isEqualTo("00FF1F");
        assertThat(ZData.toString(null)).isEmpty();
        assertThat(ZData.toString(new byte[0])).isEmpty();
    }

    @Test
    void shouldWriteUpperCaseHexTwoCharactersAByte() {
        assertThat(ZData.strhex(new byte[] {0x01, (byte) 0xAB, 0x7F, (byte) 0x80})).isEqualTo("01AB7F80");
        assertThat(new ZData("AZ".getBytes(StandardCharsets.US_ASCII)).strhex()).isEqualTo("415A");
        assertThat(ZData.strhex(null)).isEmpty();
    }

    @Test
    void shouldCompareWithATextAsUtf8() {
        byte[] data = "caf\u00e9".getBytes(StandardCharsets.UTF_8);
        assertThat(ZData.streq(data, "caf\u00e9")).isTrue();
        assertThat(new ZData(data).streq("cafe")).isFalse();
        assertThat(ZData.streq(null, "")).isFalse();
    }

    @Test
    void shouldBeEqualByContent() {
        ZData a = new ZData(new byte[] {1, 2, 3});
        assertThat(a).isEqualTo(new ZData(new byte[] {1, 2, 3})).hasSameHashCodeAs(new ZData(new byte[] {1, 2, 3}));
        assertThat(a).isNotEqualTo(new ZData(new byte[] {1, 2}));
        assertThat(a.equals(new byte[] {1, 2, 3})).isTrue();
        assertThat(a.equals(new byte[] {3, 2, 1})).isFalse();
        assertThat(a.equals((Object) null)).isFalse();
    }

    @Test
    void shouldPrintTextWithItsSizeAndCutItAtSeventyCharacters() {
        assertThat(printed("D: ", "hello\tthere".getBytes(StandardCharsets.US_ASCII))).isEqualTo("D: [011] hello\tthere\n");
        String longText = "x".repeat(71);
        assertThat(printed(null, longText.getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("[071] " + "x".repeat(70) + "...\n");
    }

    @Test
    void shouldPrintBinaryAsHexAndCutItAtThirtyFiveBytes() {
        assertThat(printed("", new byte[] {'a', 0x00, (byte) 0xFE})).isEqualTo("[003] 6100FE\n");
        byte[] big = new byte[36];
        assertThat(printed(null, big)).isEqualTo("[036] " + "00".repeat(35) + "...\n");
    }

    @Test
    void shouldPrintNothingForNullData() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ZData.print(new PrintStream(out), "p", null, 0);
        assertThat(out.size()).isZero();
    }
}
