package io.zmtp.codec.security;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Z85Test {
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

    @Test
    void shouldEncodeTheRfcHelloWorldExample() {
        byte[] bytes = HEX.parseHex("86 4f d2 6f b5 59 f7 5b");
        assertThat(CurveTestKeys.text()).contains("bytes 86 4f d2 6f b5 59 f7 5b").contains("-> \"HelloWorld\"");
        assertThat(Z85.encode(bytes)).isEqualTo("HelloWorld");
        assertThat(Z85.decode("HelloWorld")).isEqualTo(bytes);
    }

    @Test
    void shouldEncodeTheReferenceServerSecretKey() {
        byte[] key = HEX.parseHex("8e 0b dd 69 76 28 b9 1d 8f 24 55 87 ee 95 c5 b0"
                + " 4d 48 96 3f 79 25 98 77 b4 9c d9 06 3a ea d3 b7");
        assertThat(Z85.encode(key)).isEqualTo("JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6");
        assertThat(Z85.decode("JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6")).isEqualTo(key);
    }

    @Test
    void shouldEncodeEveryTestKeyAsItsZ85Form() {
        assertThat(Z85.encode(CurveTestKeys.CLIENT_PUBLIC)).isEqualTo(CurveTestKeys.CLIENT_PUBLIC_Z85);
        assertThat(Z85.encode(CurveTestKeys.CLIENT_SECRET)).isEqualTo(CurveTestKeys.CLIENT_SECRET_Z85);
        assertThat(Z85.encode(CurveTestKeys.SERVER_PUBLIC)).isEqualTo(CurveTestKeys.SERVER_PUBLIC_Z85);
        assertThat(Z85.encode(CurveTestKeys.SERVER_SECRET)).isEqualTo(CurveTestKeys.SERVER_SECRET_Z85);
        assertThat(Z85.decode(CurveTestKeys.SERVER_PUBLIC_Z85)).isEqualTo(CurveTestKeys.SERVER_PUBLIC);
    }

    @Test
    void shouldEncodeEmptyInputAsEmptyText() {
        assertThat(Z85.encode(new byte[0])).isEmpty();
        assertThat(Z85.decode("")).isEmpty();
    }

    @Test
    void shouldRejectInputThatIsNotAMultipleOfFourBytes() {
        assertThatThrownBy(() -> Z85.encode(new byte[3]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 (expected: a multiple of 4)");
    }

    @Test
    void shouldRejectTextThatIsNotAMultipleOfFiveCharacters() {
        assertThatThrownBy(() -> Z85.decode("Hello1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("6 (expected: a multiple of 5)");
    }

    @Test
    void shouldRejectCharactersOutsideTheAlphabet() {
        assertThatThrownBy(() -> Z85.decode("Hell\"World"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at 4");
        assertThatThrownBy(() -> Z85.decode("Hell\u00e9World"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\\u00e9");
        assertThatThrownBy(() -> Z85.decode("Hello Worl"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at 5");
    }

    @Test
    void shouldRejectAGroupAboveTwoToTheThirtyTwo() {
        // "%nSc0" is 2^32-1, the largest valid group; one more is out of range, and so is "#####" (85^5-1).
        assertThat(Z85.decode("%nSc0")).isEqualTo(new byte[] {-1, -1, -1, -1});
        assertThatThrownBy(() -> Z85.decode("%nSc1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4294967296");
        assertThatThrownBy(() -> Z85.decode("#####"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(expected: <= 4294967295)");
    }

    @Test
    void shouldRoundTripRandomData() {
        Random random = new Random(42);
        for (int n = 0; n <= 64; n += 4) {
            byte[] data = new byte[n];
            random.nextBytes(data);
            assertThat(Z85.decode(Z85.encode(data))).isEqualTo(data);
        }
    }
}
