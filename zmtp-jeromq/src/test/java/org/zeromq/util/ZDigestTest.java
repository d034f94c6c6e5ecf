package org.zeromq.util;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** SHA-1 vectors from FIPS 180-2's examples. */
class ZDigestTest {
    private static final String ABC_SHA1 = "A9993E364706816ABA3E25717850C26C9CD0D89D";
    private static final String EMPTY_SHA1 = "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709";

    @Test
    void shouldDigestDataGivenInPieces() {
        ZDigest digest = new ZDigest().update("a".getBytes(StandardCharsets.US_ASCII))
                .update("xbcx".getBytes(StandardCharsets.US_ASCII), 1, 2);
        assertThat(digest.string()).isEqualTo(ABC_SHA1);
        assertThat(digest.size()).isEqualTo(20);
    }

    @Test
    void shouldDigestAStreamThroughASmallBuffer() throws IOException {
        byte[] data = "abc".getBytes(StandardCharsets.US_ASCII);
        ZDigest digest = new ZDigest(new byte[1]).update(new ByteArrayInputStream(data));
        assertThat(ZData.strhex(digest.data())).isEqualTo(ABC_SHA1);
    }

    @Test
    void shouldDigestNothing() {
        assertThat(new ZDigest().string()).isEqualTo(EMPTY_SHA1);
    }

    @Test
    void shouldGiveTheSameDigestWhenAskedTwiceAndNotFinishItForTheSize() {
        ZDigest digest = new ZDigest();
        digest.update("ab".getBytes(StandardCharsets.US_ASCII));
        assertThat(digest.size()).isEqualTo(20);
        digest.update("c".getBytes(StandardCharsets.US_ASCII));
        byte[] first = digest.data();
        first[0] = 0; // a copy: changing it changes nothing
        assertThat(ZData.strhex(digest.data())).isEqualTo(ABC_SHA1);
        assertThat(digest.string()).isEqualTo(ABC_SHA1);
    }

    @Test
    void shouldStartANewDigestWithDataGivenAfterTheDigest() {
        ZDigest digest = new ZDigest().update(new byte[] {1, 2, 3});
        digest.data();
        digest.update("abc".getBytes(StandardCharsets.US_ASCII));
        assertThat(digest.string()).isEqualTo(ABC_SHA1);
    }
}
