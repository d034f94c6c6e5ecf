package io.zmtp.codec;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.DecoderException;
import io.zmtp.codec.mechanism.NullMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanism;
import io.zmtp.codec.mechanism.ZmtpMechanismFactory;
import io.zmtp.testkit.ZmtpVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;

import static io.zmtp.codec.VectorSupport.feedAllWays;
import static io.zmtp.codec.VectorSupport.libzmq;
import static io.zmtp.codec.VectorSupport.load;
import static io.zmtp.codec.VectorSupport.raw;
import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.frame10;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.repeat;
import static io.zmtp.codec.Wire.withPadding;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ZMTP 1.0 and 2.0 peers (vectors d1-d4, where the raw peer is the old one and libzmq the 3.x side). Our staged
 * handler in libzmq's role must write libzmq's bytes; our handler restricted to 1.0 or 2.0 in the raw peer's role must
 * write the raw peer's bytes (2.0 greeting padding aside: we put identity length + 1 there, the raw peer 0).
 */
class ZmtpDowngradeTest {

    private static ZmtpConfig.Builder config(ZmtpSocketType type) {
        return ZmtpConfig.builder(type);
    }

    /** d1's 310-byte frame, of which the capture shows the first 16 bytes, rebuilt. */
    private static byte[] d1LongFrame() {
        ZmtpVector shown = load("d1_downgrade_zmtp10").stream().filter(b -> b.header().equals("16 bytes"))
                .findFirst().orElseThrow();
        byte[] full = frame10(0, repeat('Z', 300));
        assertThat(full).startsWith(shown.bytes()).hasSize(310);
        return full;
    }

    private static byte[] d1Libzmq() {
        List<ZmtpVector> v = load("d1_downgrade_zmtp10");
        return concat(v.get(1).bytes(), v.get(2).bytes(), d1LongFrame(), v.get(4).bytes());
    }

    // ---- our staged handler in libzmq's role ----

    @Test
    void shouldDowngradeToZmtp10AnonymousPeerLikeLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUSH).build(), raw("d1_downgrade_zmtp10"), p -> {
            p.write(ZmtpMessage.of("abc"));
            p.write(ZmtpMessage.ofBytes(repeat('Z', 300)));
            p.write(ZmtpMessage.of("a", "b"));
        });
        assertThat(o.output).isEqualTo(hex(d1Libzmq()));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_10);
        assertThat(o.success.mechanism()).isEqualTo("NULL");
        assertThat(o.success.peerSocketType()).isNull();
        assertThat(o.success.peerIdentity()).isEmpty();
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldDowngradeToZmtp10AndCompleteOwnIdentityFrameLikeLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.DEALER).identity(ascii("ID1")).build(),
                raw("d2_downgrade_zmtp10_identity"), p -> p.write(ZmtpMessage.of("q")));
        assertThat(o.output).isEqualTo(hex(libzmq("d2_downgrade_zmtp10_identity")));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_10);
        assertThat(o.success.peerIdentity()).isEqualTo(ascii("PEER"));
    }

    @Test
    void shouldDowngradeToZmtp20PullLikeLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUSH).build(), raw("d3_downgrade_zmtp20"),
                p -> p.write(ZmtpMessage.of("abc")));
        assertThat(o.output).isEqualTo(hex(libzmq("d3_downgrade_zmtp20")));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_20);
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.PULL);
        assertThat(o.success.peerIdentity()).isEmpty();
        assertThat(o.log).containsExactly(TestPeer.describe(o.success));
    }

    @Test
    void shouldDowngradeToZmtp20SubAndDecodeItsSubscriptionMessage() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PUB).build(), raw("d4_downgrade_zmtp20_pubsub"),
                p -> p.write(ZmtpMessage.of("abc")));
        assertThat(o.output).isEqualTo(hex(libzmq("d4_downgrade_zmtp20_pubsub")));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.SUB);
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[016162]");
    }

    @Test
    void shouldAnnounceXpubAsPubToZmtp20Peer() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.XPUB).build())) {
            p.feed(raw("d4_downgrade_zmtp20_pubsub"));
            assertThat(p.outbound()).isEqualTo(Arrays.copyOf(libzmq("d4_downgrade_zmtp20_pubsub"), 14));
        }
    }

    // ---- our 1.0-only / 2.0-only handler in the raw peer's role ----

    @Test
    void shouldSpeakZmtp10OnlyAsAnonymousPeerOfLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_10).build(),
                d1Libzmq());
        assertThat(o.output).isEqualTo(hex(raw("d1_downgrade_zmtp10")));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_10);
        assertThat(o.success.peerIdentity()).isEmpty();
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[616263]",
                "msg[" + hex(repeat('Z', 300)) + "]", "msg[61, 62]");
    }

    @Test
    void shouldSpeakZmtp10OnlyWithIdentityAsPeerOfLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.DEALER).identity(ascii("PEER"))
                .onlyVersion(ZmtpVersion.ZMTP_10).build(), libzmq("d2_downgrade_zmtp10_identity"));
        assertThat(o.output).isEqualTo(hex(raw("d2_downgrade_zmtp10_identity")));
        assertThat(o.success.peerIdentity()).isEqualTo(ascii("ID1"));
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[71]");
    }

    @Test
    void shouldSpeakZmtp20OnlyAsPullPeerOfLibzmq() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_20).build(),
                libzmq("d3_downgrade_zmtp20"));
        assertThat(o.output).isEqualTo(hex(withPadding(raw("d3_downgrade_zmtp20"), 1)));
        assertThat(o.success.version()).isEqualTo(ZmtpVersion.ZMTP_20);
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.PUSH);
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[616263]");
    }

    @Test
    void shouldWriteSubscribeCommandAsMessageToZmtp20Publisher() {
        VectorSupport.Outcome o = feedAllWays(config(ZmtpSocketType.SUB).onlyVersion(ZmtpVersion.ZMTP_20).build(),
                libzmq("d4_downgrade_zmtp20_pubsub"),
                p -> p.write(ZmtpCommand.subscribe(Unpooled.copiedBuffer(ascii("ab")))));
        assertThat(o.output).isEqualTo(hex(withPadding(raw("d4_downgrade_zmtp20_pubsub"), 1)));
        assertThat(o.success.peerSocketType()).isEqualTo(ZmtpSocketType.PUB);
        assertThat(o.log).containsExactly(TestPeer.describe(o.success), "msg[616263]");
    }

    @Test
    void shouldWriteCancelAsMessageAndRefuseOtherCommandsOnZmtp20() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.SUB).onlyVersion(ZmtpVersion.ZMTP_20).build())) {
            p.feed(libzmq("d4_downgrade_zmtp20_pubsub"));
            p.outbound();
            p.write(ZmtpCommand.cancel(Unpooled.copiedBuffer(ascii("ab"))));
            assertThat(p.outbound()).isEqualTo(hex("00 03 00 61 62"));
            assertThat(p.write(ZmtpCommand.ping(0, new byte[0])).cause()).isInstanceOf(ZmtpCodecException.class);
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    // ---- identities of 1 and 255 bytes, both directions ----

    @ParameterizedTest(name = "{0}: staged side identity {1} bytes, old side {2} bytes")
    @CsvSource({"ZMTP_10, 1, 1", "ZMTP_10, 255, 255", "ZMTP_10, 1, 255", "ZMTP_10, 255, 1", "ZMTP_10, 0, 254",
            "ZMTP_10, 254, 0", "ZMTP_20, 1, 1", "ZMTP_20, 255, 255", "ZMTP_20, 1, 255", "ZMTP_20, 255, 1",
            "ZMTP_20, 0, 128"})
    void shouldExchangeIdentitiesWithOldVersionPeer(ZmtpVersion version, int stagedLength, int oldLength) {
        byte[] stagedId = repeat('S', stagedLength);
        byte[] oldId = repeat('o', oldLength);
        if (oldLength > 0) {
            oldId[oldLength - 1] = (byte) 0xFE; // non-ASCII byte at the end
        }
        try (TestPeer staged = new TestPeer(config(ZmtpSocketType.DEALER).identity(stagedId).build());
             TestPeer old = new TestPeer(config(ZmtpSocketType.ROUTER).identity(oldId).onlyVersion(version)
                     .build())) {
            TestPeer.pump(staged, old);

            assertThat(staged.success().version()).isEqualTo(version);
            assertThat(old.success().version()).isEqualTo(version);
            assertThat(staged.success().peerIdentity()).isEqualTo(oldId);
            assertThat(old.success().peerIdentity()).isEqualTo(stagedId);
            if (version == ZmtpVersion.ZMTP_20) {
                assertThat(staged.success().peerSocketType()).isEqualTo(ZmtpSocketType.ROUTER);
                assertThat(old.success().peerSocketType()).isEqualTo(ZmtpSocketType.DEALER);
            }

            staged.write(ZmtpMessage.ofBytes(new byte[0], repeat('x', 300)));
            old.write(ZmtpMessage.of("y"));
            TestPeer.pump(staged, old);
            assertThat(old.log()).endsWith("msg[, " + hex(repeat('x', 300)) + "]");
            assertThat(staged.log()).endsWith("msg[79]");
        }
    }

    // ---- limits and refusals ----

    @Test
    void shouldCloseOnZmtp10LongFrameAboveMaxMessageSizeBeforeItsBody() {
        ZmtpConfig config = config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_10).maxMessageSize(1000).build();
        for (long length : new long[] {1L << 40, 1002, Long.MIN_VALUE}) {
            try (TestPeer p = new TestPeer(config)) {
                p.feed(hex("01 00"));
                p.success();
                p.feed(concat(hex("ff"), Wire.u64(length), hex("00")));
                assertThat(p.channel.isOpen()).as("length %s", length).isFalse();
                // Too large (TooLongFrameException), or a length with the top bit set read as invalid.
                assertThat(p.protocolError().cause()).isInstanceOf(DecoderException.class);
                assertThat(p.inbound(ZmtpMessage.class)).isEmpty();
            }
        }
    }

    @Test
    void shouldCloseOnZmtp10FrameLengthThatWouldWrapTheMessageTotal() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_10).build())) {
            p.feed(hex("01 00"));
            p.success();
            p.feed(frame10(1, repeat('m', 100)), concat(hex("ff"), Wire.u64(Long.MAX_VALUE - 50), hex("01")));
            assertThat(p.channel.isOpen()).isFalse();
            assertThat(p.protocolError().cause()).isInstanceOf(ZmtpMessageTooLargeException.class);
            assertThat(p.inbound(ZmtpMessage.class)).isEmpty();
        }
    }

    @Test
    void shouldAcceptZmtp10FrameOfExactlyMaxMessageSize() {
        ZmtpConfig config = config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_10).maxMessageSize(1000).build();
        try (TestPeer p = new TestPeer(config)) {
            p.feed(hex("01 00"), frame10(0, repeat('m', 1000)));
            assertThat(p.inbound(ZmtpMessage.class)).hasSize(1);
        }
    }

    @Test
    void shouldCloseOnZmtp10FrameWithReservedFlags() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PULL).onlyVersion(ZmtpVersion.ZMTP_10).build())) {
            p.feed(hex("01 00"), hex("02 7f 61"));
            assertThat(p.protocolError().cause()).isInstanceOf(ZmtpCodecException.class);
            assertThat(p.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldRefuseZmtp10PeerWhenVersionNotAccepted() {
        ZmtpConfig config = config(ZmtpSocketType.PUSH)
                .acceptedVersions(EnumSet.of(ZmtpVersion.ZMTP_20, ZmtpVersion.ZMTP_30, ZmtpVersion.ZMTP_31)).build();
        for (byte[] greeting : List.of(raw("d1_downgrade_zmtp10"), raw("d2_downgrade_zmtp10_identity"))) {
            try (TestPeer p = new TestPeer(config)) {
                p.feed(greeting);
                assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
                assertThat(p.channel.isOpen()).isFalse();
                // Nothing after our signature: no identity body sent to a refused 1.0 peer.
                assertThat(p.outbound()).isEqualTo(Wire.signature(1));
            }
        }
    }

    @Test
    void shouldRefuseZmtp20PeerWhenOnly3xAccepted() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PUSH).onlyVersion(ZmtpVersion.ZMTP_31).build())) {
            p.feed(raw("d3_downgrade_zmtp20"));
            assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
            assertThat(p.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldRefuseZmtp20PeerWithIncompatibleSocketTypeWithoutError() {
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PUSH).build())) {
            p.feed(hex("ff 00 00 00 00 00 00 00 00 7f 01 01 00 00"));
            assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.INCOMPATIBLE_SOCKET_TYPE);
            // 2.0 has no ERROR command: our greeting only.
            assertThat(p.outbound()).isEqualTo(hex("ff 00 00 00 00 00 00 00 01 7f 03 08 00 00"));
        }
    }

    @Test
    void shouldAcceptZmtp20PublisherThatSendsTheSubscriberCodeAsNettyZmtp04Does() {
        // netty-zmtp 0.4.0 writes PUB as 02 and SUB as 01 in its 2.0 greeting; its PUB must still reach our SUB.
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.SUB).build())) {
            p.feed(hex("ff 00 00 00 00 00 00 00 00 7f 01 02 00 00"));
            assertThat(p.success().version()).isEqualTo(ZmtpVersion.ZMTP_20);
        }
    }

    @Test
    void shouldRefuseDowngradeWhenMechanismIsNotNull() {
        ZmtpMechanismFactory plain = new ZmtpMechanismFactory() {
            @Override
            public String name() {
                return "PLAIN";
            }

            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                throw new AssertionError("constructing the handler must fail before any mechanism is created");
            }
        };
        ZmtpMechanismFactory lazy = new ZmtpMechanismFactory() {
            @Override
            public String name() {
                return "PLAIN";
            }

            @Override
            public ZmtpMechanism create(ZmtpMetadata localMetadata) {
                ZmtpMechanism nul = new NullMechanism(localMetadata);
                return new ZmtpMechanism() {
                    @Override
                    public String name() {
                        return "PLAIN";
                    }

                    @Override
                    public boolean isServer() {
                        return false;
                    }

                    @Override
                    public List<ZmtpCommand> start() {
                        return nul.start();
                    }

                    @Override
                    public List<ZmtpCommand> handle(ZmtpCommand command) {
                        return nul.handle(command);
                    }

                    @Override
                    public boolean isComplete() {
                        return nul.isComplete();
                    }

                    @Override
                    public ZmtpMetadata peerMetadata() {
                        return nul.peerMetadata();
                    }
                };
            }
        };
        assertThatThrownBy(() -> new ZmtpHandshakeHandler(config(ZmtpSocketType.PUSH).mechanism(plain)
                .onlyVersion(ZmtpVersion.ZMTP_10).build())).isInstanceOf(IllegalArgumentException.class);
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PUSH).mechanism(lazy).build())) {
            p.feed(raw("d1_downgrade_zmtp10"));
            ZmtpHandshakeFailureEvent f = p.failure();
            assertThat(f.reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
            assertThat(f.message()).contains("PLAIN");
            assertThat(p.outbound()).isEqualTo(Wire.signature(1));
        }
        try (TestPeer p = new TestPeer(config(ZmtpSocketType.PUSH).mechanism(lazy).build())) {
            p.feed(raw("d3_downgrade_zmtp20"));
            assertThat(p.failure().reason()).isEqualTo(ZmtpHandshakeFailureReason.VERSION_REFUSED);
            assertThat(p.outbound()).isEqualTo(concat(Wire.signature(1), hex("03")));
        }
    }
}
