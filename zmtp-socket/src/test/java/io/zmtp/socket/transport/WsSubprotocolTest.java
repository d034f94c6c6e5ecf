package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.zmtp.codec.ZmtpConfig;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.ZmtpVersion;
import io.zmtp.codec.mechanism.PlainMechanism;
import io.zmtp.codec.security.ZmtpAuthResult;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Which subprotocols a socket offers and accepts, and what the chosen one feeds the codec. */
class WsSubprotocolTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    @Test
    void nullOffersTheMechanismThenTheBareFormAsLibzmq() {
        assertThat(WsSubprotocol.offered(ZmtpConfig.builder(ZmtpSocketType.SUB).build()))
                .isEqualTo("ZWS2.0/NULL,ZWS2.0");
    }

    @Test
    void plainOffersOnlyItsOwn() {
        ZmtpConfig plain = ZmtpConfig.builder(ZmtpSocketType.PUSH).mechanism(PlainMechanism.client("u", "p")).build();
        assertThat(WsSubprotocol.offered(plain)).isEqualTo("ZWS2.0/PLAIN");
    }

    @Test
    void theBareFormNeedsANullHandshakeThatAsksNobodyAType20AndZmtp20() {
        assertThat(WsSubprotocol.acceptsBare(ZmtpConfig.builder(ZmtpSocketType.ROUTER).build())).isTrue();
        assertThat(WsSubprotocol.acceptsBare(ZmtpConfig.builder(ZmtpSocketType.ROUTER).zapDomain("global").build()))
                .isFalse();
        assertThat(WsSubprotocol.acceptsBare(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                .authenticator(r -> CompletableFuture.completedFuture(ZmtpAuthResult.allow())).build())).isFalse();
        assertThat(WsSubprotocol.acceptsBare(ZmtpConfig.builder(ZmtpSocketType.CLIENT).build())).isFalse();
        assertThat(WsSubprotocol.acceptsBare(ZmtpConfig.builder(ZmtpSocketType.ROUTER)
                .acceptedVersions(EnumSet.of(ZmtpVersion.ZMTP_30, ZmtpVersion.ZMTP_31)).build())).isFalse();
    }

    @Test
    void theBareFormFeedsTheCodecAZmtp20GreetingUpToItsIdentityFrame() {
        ZmtpConfig pull = ZmtpConfig.builder(ZmtpSocketType.PULL).build();
        ByteBuf g = WsSubprotocol.peerGreeting(ALLOC, pull, true);
        try {
            // Signature FF ... 7F, revision 01, a type PULL takes (PUSH, 2.0 code 08).
            assertThat(ByteBufUtil.hexDump(g)).isEqualTo("ff00000000000000007f" + "01" + "08");
        } finally {
            g.release();
        }
        assertThat(WsSubprotocol.ourGreetingToSwallow(true)).isEqualTo(12);
        assertThat(WsSubprotocol.codecConfig(pull, true).acceptedVersions()).containsExactly(ZmtpVersion.ZMTP_20);
        assertThat(WsSubprotocol.codecConfig(pull, false)).isSameAs(pull);
    }

    @Test
    void aMechanismFeedsTheCodecAZmtp30Greeting() {
        ByteBuf g = WsSubprotocol.peerGreeting(ALLOC, ZmtpConfig.builder(ZmtpSocketType.PULL).build(), false);
        try {
            assertThat(g.readableBytes()).isEqualTo(64);
            assertThat(g.getByte(10)).isEqualTo((byte) 3);
            assertThat(g.getByte(11)).isZero();
            assertThat(g.toString(12, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("NULL");
        } finally {
            g.release();
        }
        assertThat(WsSubprotocol.ourGreetingToSwallow(false)).isEqualTo(64);
    }
}
