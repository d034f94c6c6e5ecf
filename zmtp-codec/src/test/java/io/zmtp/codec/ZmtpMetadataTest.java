package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZmtpMetadataTest {

    private static ZmtpMetadata decode(byte[] bytes) {
        return ZmtpMetadata.decode(Unpooled.wrappedBuffer(bytes));
    }

    private static byte[] encode(ZmtpMetadata md) {
        ByteBuf buf = Unpooled.buffer();
        try {
            md.encode(buf);
            assertThat(buf.readableBytes()).isEqualTo(md.encodedLength());
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void shouldEncodeReqReadyPropertiesExactlyAsLibzmq() {
        ZmtpMetadata md = ZmtpMetadata.builder().socketType(ZmtpSocketType.REQ).identity(new byte[0]).build();
        // Vector a, READY body after the name: Socket-Type=REQ, Identity=''.
        assertThat(encode(md)).isEqualTo(hex("0b 53 6f 63 6b 65 74 2d 54 79 70 65 00 00 00 03 52 45 51"
                + " 08 49 64 65 6e 74 69 74 79 00 00 00 00"));
    }

    @Test
    void shouldDecodeWhatItEncodesInOrder() {
        ZmtpMetadata md = ZmtpMetadata.builder().socketType(ZmtpSocketType.ROUTER).identity(ascii("client-1"))
                .property("X-App", "v1").property("X.b+_-9", new byte[] {0, (byte) 0xFF}).build();
        ZmtpMetadata back = decode(encode(md));
        assertThat(back.asMap().keySet()).containsExactly("Socket-Type", "Identity", "X-App", "X.b+_-9");
        assertThat(back.socketType()).isEqualTo(ZmtpSocketType.ROUTER);
        assertThat(back.identity()).isEqualTo(ascii("client-1"));
        assertThat(back.string("X-App")).isEqualTo("v1");
        assertThat(back.value("X.b+_-9")).isEqualTo(new byte[] {0, (byte) 0xFF});
        assertThat(encode(back)).isEqualTo(encode(md));
    }

    @Test
    void shouldLookUpNamesCaseInsensitivelyButMatchSocketTypeValueExactly() {
        ZmtpMetadata md = decode(Wire.properties("socket-type", "PUB", "IDENTITY", "me"));
        assertThat(md.string("Socket-Type")).isEqualTo("PUB");
        assertThat(md.identity()).isEqualTo(ascii("me"));
        assertThat(md.socketType()).isEqualTo(ZmtpSocketType.PUB);
        assertThat(decode(Wire.properties("Socket-Type", "pub")).socketType()).isNull();
    }

    @Test
    void shouldReturnEmptyIdentityAndNullsForMissingProperties() {
        ZmtpMetadata md = decode(new byte[0]);
        assertThat(md).isSameAs(ZmtpMetadata.EMPTY);
        assertThat(md.isEmpty()).isTrue();
        assertThat(md.identity()).isEmpty();
        assertThat(md.value("Socket-Type")).isNull();
        assertThat(md.socketType()).isNull();
    }

    @Test
    void shouldKeepFirstPositionAndLastValueOfRepeatedProperty() {
        ZmtpMetadata md = ZmtpMetadata.builder().property("A", "1").property("B", "2").property("A", "3").build();
        assertThat(md.asMap().keySet()).containsExactly("A", "B");
        assertThat(md.string("A")).isEqualTo("3");
    }

    @Test
    void shouldNotExposeInternalArrays() {
        byte[] value = ascii("abc");
        ZmtpMetadata md = ZmtpMetadata.builder().property("K", value).build();
        value[0] = 'x';
        md.value("K")[1] = 'x';
        assertThat(md.string("K")).isEqualTo("abc");
    }

    @Test
    void shouldRejectMalformedMetadata() {
        byte[] good = Wire.properties("Socket-Type", "DEALER");
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            assertThatThrownBy(() -> decode(truncated)).as("cut at %d", cut).isInstanceOf(ZmtpCodecException.class);
        }
        assertThatThrownBy(() -> decode(concat(good, hex("00")))).isInstanceOf(ZmtpCodecException.class);
        assertThatThrownBy(() -> decode(concat(hex("00 00 00 00 00")))).isInstanceOf(ZmtpCodecException.class);
        assertThatThrownBy(() -> decode(concat(hex("01"), ascii(" "), hex("00 00 00 00"))))
                .isInstanceOf(ZmtpCodecException.class);
        assertThatThrownBy(() -> decode(concat(hex("01"), ascii("A"), hex("ff ff ff ff"), ascii("x"))))
                .isInstanceOf(ZmtpCodecException.class);
    }

    @Test
    void shouldRejectInvalidNamesAndIdentitiesWhenBuilding() {
        assertThatThrownBy(() -> ZmtpMetadata.builder().property("", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZmtpMetadata.builder().property("a b", "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZmtpMetadata.builder().property("n".repeat(256), "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ZmtpMetadata.builder().identity(new byte[256]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldAnnounceIdentityOnlyForReqDealerRouterLikeLibzmq() {
        for (ZmtpSocketType type : ZmtpSocketType.values()) {
            ZmtpMetadata md = ZmtpConfig.builder(type).properties(ZmtpMetadata.builder().property("X-A", "1").build())
                    .build().localMetadata();
            boolean identity = type == ZmtpSocketType.REQ || type == ZmtpSocketType.DEALER
                    || type == ZmtpSocketType.ROUTER;
            if (identity) {
                assertThat(md.asMap().keySet()).as("%s", type).containsExactly("Socket-Type", "Identity", "X-A");
            } else {
                assertThat(md.asMap().keySet()).as("%s", type).containsExactly("Socket-Type", "X-A");
            }
            assertThat(md.socketType()).isEqualTo(type);
        }
    }
}
