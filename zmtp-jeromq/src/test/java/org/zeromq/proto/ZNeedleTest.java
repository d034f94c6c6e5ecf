package org.zeromq.proto;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZNeedleTest {
    @Test
    void shouldWriteNumbersInNetworkByteOrder() {
        byte[] frame = new byte[15];
        ZNeedle needle = new ZNeedle(frame);
        needle.putNumber1(0x1FF);
        needle.putNumber2(0x10203);
        needle.putNumber4(0x04050607);
        needle.putNumber8(0x08090A0B0C0D0E0FL);
        assertThat(frame).containsExactly(
                0xFF,                                   // 1 byte, low 8 bits
                0x02, 0x03,                             // 2 bytes, low 16 bits
                0x04, 0x05, 0x06, 0x07,                 // 4 bytes
                0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F); // 8 bytes
        assertThat(needle).hasToString("ZNeedle [position=15, ceiling=15]");
    }

    @Test
    void shouldReadNumbersAsUnsignedUpToFourBytes() {
        ZNeedle needle = new ZNeedle(new byte[] {
                (byte) 0xFE, (byte) 0xFF, (byte) 0xFE, (byte) 0x80, 0, 0, 1,
                (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE});
        assertThat(needle.getNumber1()).isEqualTo(254);
        assertThat(needle.getNumber2()).isEqualTo(65534);
        // An unsigned 32-bit number above 2^31-1 comes back as a negative int, as in JeroMQ.
        assertThat(needle.getNumber4()).isEqualTo(0x80000001);
        assertThat(needle.getNumber8()).isEqualTo(-2L);
    }

    @Test
    void shouldWriteShortAndLongStringsWithTheirLengthInUtf8Bytes() {
        byte[] frame = new byte[1 + 3 + 4 + 2];
        ZNeedle needle = new ZNeedle(frame);
        needle.putShortString("\u00e9a"); // 2 bytes + 1 in UTF-8
        needle.putLongString("b\u0000");
        assertThat(frame).containsExactly(3, 0xC3, 0xA9, 'a', 0, 0, 0, 2, 'b', 0);
        ZNeedle reader = new ZNeedle(frame);
        assertThat(reader.getShortString()).isEqualTo("\u00e9a");
        assertThat(reader.getLongString()).isEqualTo("b\u0000");
    }

    @Test
    void shouldPickShortOrLongByLengthButReadShortWithGetString() {
        String longest = "s".repeat(255);
        String tooLong = "l".repeat(256);
        byte[] frame = new byte[1 + 255 + 4 + 256];
        ZNeedle needle = new ZNeedle(frame);
        needle.putString(longest);
        needle.putString(tooLong);
        ZNeedle reader = new ZNeedle(frame);
        assertThat(reader.getString()).isEqualTo(longest);
        assertThat(reader.getLongString()).isEqualTo(tooLong);
        assertThatThrownBy(() -> new ZNeedle(new byte[300]).putShortString(tooLong))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("256");
    }

    @Test
    void shouldWriteAndReadBlocks() {
        byte[] frame = new byte[3];
        new ZNeedle(frame).putBlock(new byte[] {1, 2, 3, 4}, 3);
        assertThat(frame).containsExactly(1, 2, 3);
        ZNeedle reader = new ZNeedle(frame);
        assertThat(reader.getBlock(2)).containsExactly(1, 2);
        assertThat(reader.getBlock(1)).containsExactly(3);
        assertThat(reader.getBlock(0)).isEmpty();
    }

    @Test
    void shouldWriteListsAndMapsOfStringsWithACountFirst() {
        byte[] frame = new byte[64];
        ZNeedle needle = new ZNeedle(frame);
        needle.putList(List.of("a", "bc"));
        Map<String, String> map = new LinkedHashMap<>();
        map.put("k", "v");
        map.put("empty", "");
        needle.putMap(map);
        needle.putList(null);
        needle.putMap(null);
        assertThat(Arrays.copyOf(frame, 6)).containsExactly(2, 1, 'a', 2, 'b', 'c');
        assertThat(Arrays.copyOfRange(frame, 6, 11)).containsExactly(2, 3, 'k', '=', 'v');

        ZNeedle reader = new ZNeedle(frame);
        assertThat(reader.getList()).containsExactly("a", "bc");
        assertThat(reader.getMap()).containsExactlyInAnyOrderEntriesOf(map);
        assertThat(reader.getList()).isEmpty();
        assertThat(reader.getMap()).isEmpty();
    }

    @Test
    void shouldRefuseWhatAListOrMapCannotHold() {
        ZNeedle needle = new ZNeedle(new byte[1024]);
        assertThatThrownBy(() -> needle.putList(java.util.Collections.nCopies(256, "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> needle.putMap(Map.of("a=b", "c"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> needle.putMap(Map.of("a", "b=c"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(needle).hasToString("ZNeedle [position=0, ceiling=1024]");
    }

    @Test
    void shouldRefuseToReadOrWritePastTheEndAndStayPut() {
        ZNeedle needle = new ZNeedle(new byte[3]);
        assertThatThrownBy(() -> needle.putNumber4(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 bytes");
        assertThatThrownBy(() -> needle.putBlock(new byte[4], 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> needle.putShortString("abc")).isInstanceOf(IllegalArgumentException.class);
        needle.putNumber2(7);
        assertThatThrownBy(needle::getNumber2).isInstanceOf(IllegalArgumentException.class);
        assertThat(needle).hasToString("ZNeedle [position=2, ceiling=3]");
    }

    @Test
    void shouldRefuseAStringLongerThanWhatIsLeftOfTheFrame() {
        // A peer's frame claims a 200-byte string, and a 4 GiB one, in 5 bytes.
        ZNeedle shortString = new ZNeedle(new byte[] {(byte) 200, 'a', 'b'});
        assertThatThrownBy(shortString::getString).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("200");
        assertThat(shortString).hasToString("ZNeedle [position=0, ceiling=3]");
        ZNeedle longString = new ZNeedle(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 'x'});
        assertThatThrownBy(longString::getLongString).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZNeedle(new byte[2]).getBlock(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRefuseAMapEntryWithoutAnEqualsSign() {
        byte[] frame = {1, 3, 'a', 'b', 'c'};
        assertThatThrownBy(() -> new ZNeedle(frame).getMap()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("abc");
        assertThat(new String(frame, 2, 3, StandardCharsets.US_ASCII)).isEqualTo("abc");
    }

    @Test
    void shouldWriteIntoTheFramesOwnBytes() {
        org.zeromq.ZFrame frame = new org.zeromq.ZFrame(new byte[2]);
        new ZNeedle(frame).putNumber2(0xABCD);
        assertThat(frame.getData()).containsExactly(0xAB, 0xCD);
        assertThat(new ZNeedle(new org.zeromq.ZFrame((byte[]) null))).hasToString("ZNeedle [position=0, ceiling=0]");
    }
}
