package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.zmtp.codec.Wire.ascii;
import static io.zmtp.codec.Wire.command;
import static io.zmtp.codec.Wire.concat;
import static io.zmtp.codec.Wire.hex;
import static io.zmtp.codec.Wire.message;
import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static org.assertj.core.api.Assertions.assertThat;

/** ZMTP 3.1 heartbeats, driven with EmbeddedChannel's virtual time (frozen, advanced by hand). */
class ZmtpHeartbeatTest {

    private static ZmtpConfig.Builder dealer() {
        return ZmtpConfig.builder(DEALER);
    }

    private static byte[] ping(int ttl, byte[] context) {
        return command("PING", concat(new byte[] {(byte) (ttl >> 8), (byte) ttl}, context));
    }

    @Test
    void shouldAnswerPingWithPongEchoingContext() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(hex("04 0f 04 50 49 4e 47 00 00 63 74 78 2d 31 32 33 34"));
            assertThat(p.outbound()).isEqualTo(hex("04 0d 04 50 4f 4e 47 63 74 78 2d 31 32 33 34"));
        }
    }

    @Test
    void shouldTruncatePongContextTo16Bytes() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(ping(0, ascii("0123456789abcdefXYZW")));
            assertThat(p.outbound()).isEqualTo(command("PONG", ascii("0123456789abcdef")));
        }
    }

    /**
     * A peer that floods PINGs and never reads its socket: each PONG used to be written whatever happened to the one
     * before, so the outbound buffer grew by a PONG per PING without limit (issue 23: +8.6 GiB). One PONG is in
     * flight at a time, as in libzmq; the newest PING waiting behind it is answered when it has gone out.
     */
    @Test
    void shouldKeepAtMostOnePongPendingWhilePeerDoesNotRead() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            List<Object> held = new ArrayList<>();
            List<ChannelPromise> promises = new ArrayList<>();
            // Nearest the wire: takes what is written and never completes it, like a socket whose peer doesn't read.
            p.channel.pipeline().addFirst("stuck-wire", new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    held.add(msg);
                    promises.add(promise);
                }
            });
            for (int i = 0; i < 10_000; i++) {
                p.feed(ping(0, ascii("ctx-" + i)));
            }
            assertThat(held).hasSize(1);
            assertThat(bytesOf(held.get(0))).isEqualTo(command("PONG", ascii("ctx-0")));

            // The first PONG reaches the socket: the newest PING waiting is answered, the ones between are not.
            promises.get(0).setSuccess();
            p.channel.runPendingTasks();
            assertThat(held).hasSize(2);
            assertThat(bytesOf(held.get(1))).isEqualTo(command("PONG", ascii("ctx-9999")));

            promises.get(1).setSuccess();
            p.channel.runPendingTasks();
            assertThat(held).hasSize(2);
            p.feed(ping(0, ascii("again")));
            assertThat(held).hasSize(3);
            assertThat(bytesOf(held.get(2))).isEqualTo(command("PONG", ascii("again")));
            promises.get(2).setSuccess();
            held.forEach(ReferenceCountUtil::release);
        }
    }

    @Test
    void shouldReleaseWaitingPongContextWhenConnectionCloses() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            List<Object> held = new ArrayList<>();
            p.channel.pipeline().addFirst("stuck-wire", new ChannelOutboundHandlerAdapter() {
                @Override
                public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                    held.add(msg);
                }
            });
            p.feed(ping(0, ascii("first")), ping(0, ascii("waiting")));
            assertThat(held).hasSize(1);
            p.channel.close();
            // The leak detector (paranoid, LeakCheckExtension) fails the class if the waiting context leaked.
            held.forEach(ReferenceCountUtil::release);
        }
    }

    private static byte[] bytesOf(Object written) {
        return ByteBufUtil.getBytes((ByteBuf) written);
    }

    @Test
    void shouldAnswerPingWithoutContextWithEmptyPong() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(ping(25, new byte[0]));
            assertThat(p.outbound()).isEqualTo(hex("04 05 04 50 4f 4e 47"));
        }
    }

    @Test
    void shouldNotDeliverPingOrPongToApplication() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(concat(ping(0, ascii("c")), command("PONG", ascii("c")), message(ascii("after"))));
            assertThat(p.log()).containsExactly("msg[6166746572]");
        }
    }

    @Test
    void shouldSendPingWithTtlEveryInterval() {
        ZmtpConfig config = dealer().heartbeatIntervalMillis(300).heartbeatTtlMillis(2500)
                .heartbeatTimeoutMillis(5000).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.advance(299);
            assertThat(p.outbound()).isEmpty();
            p.advance(1);
            // Vector f: 04 07 04 PING, ttl 25 deciseconds, no context.
            assertThat(p.outbound()).isEqualTo(hex("04 07 04 50 49 4e 47 00 19"));
            p.feed(message(ascii("traffic")));
            p.advance(300);
            assertThat(p.outbound()).isEqualTo(hex("04 07 04 50 49 4e 47 00 19"));
            assertThat(p.log()).containsExactly("msg[74726166666963]");
        }
    }

    @Test
    void shouldSendNoPingsWithoutInterval() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.advance(3_600_000);
            assertThat(p.outbound()).isEmpty();
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldSendPingsToZmtp30PeerAsLibzmqDoes() {
        ZmtpConfig config = dealer().heartbeatIntervalMillis(100).heartbeatTimeoutMillis(5000).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 0)) {
            p.advance(100);
            assertThat(p.outbound()).isEqualTo(hex("04 07 04 50 49 4e 47 00 00"));
        }
    }

    @Test
    void shouldCloseSilentZmtp30PeerAfterPingTimeout() {
        ZmtpConfig config = dealer().heartbeatIntervalMillis(100).heartbeatTimeoutMillis(300).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 0)) {
            p.advance(100);
            p.advance(299);
            assertThat(p.channel.isOpen()).isTrue();
            p.advance(1);
            assertThat(p.channel.isOpen()).isFalse();
            assertThat(p.protocolError().cause().getMessage()).contains("heartbeat expired");
        }
    }

    @Test
    void shouldSendNoPingsToZmtp20Peer() {
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.PULL).heartbeatIntervalMillis(100)
                .onlyVersion(ZmtpVersion.ZMTP_20).build();
        try (TestPeer p = new TestPeer(config)) {
            // A 2.0 PUSH: signature, revision 1, socket type, empty identity frame.
            p.feed(concat(Wire.signature(1), hex("01 08 00 00")));
            assertThat(p.success().version()).isEqualTo(ZmtpVersion.ZMTP_20);
            p.outbound();
            p.advance(1000);
            assertThat(p.outbound()).isEmpty();
            assertThat(p.channel.isOpen()).isTrue();
        }
    }

    @Test
    void shouldCloseWhenNothingArrivesWithinTimeoutAfterPing() {
        ZmtpConfig config = dealer().heartbeatIntervalMillis(1000).heartbeatTimeoutMillis(1500).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.advance(1000); // PING; timeout due at 2500
            p.advance(1499);
            assertThat(p.channel.isOpen()).isTrue();
            p.advance(1);
            assertThat(p.channel.isOpen()).isFalse();
            assertThat(p.protocolError().cause().getMessage()).contains("heartbeat expired");
        }
    }

    @Test
    void shouldKeepConnectionWhileTrafficArrivesAfterPings() {
        ZmtpConfig config = dealer().heartbeatIntervalMillis(1000).heartbeatTimeoutMillis(1500).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.advance(1000); // PING #1; timeout would fire at 2500
            p.feed(command("PONG", new byte[0])); // traffic cancels it
            p.advance(1000); // PING #2 at 2000; new timeout at 3500
            p.advance(1000); // PING #3 at 3000; timeout already running
            assertThat(p.channel.isOpen()).isTrue();
            p.advance(500);
            assertThat(p.channel.isOpen()).isFalse();
            assertThat(p.inbound(ZmtpProtocolErrorEvent.class)).hasSize(1);
        }
    }

    /** What a message reader hands the application itself (the socket layer's does) is traffic too. */
    @Test
    void shouldCountMessagesThatNeverReachThePipelineAsTraffic() {
        ZmtpMessageReader swallowing = new ZmtpMessageReader() {
            @Override
            public void readFrame(ChannelHandlerContext ctx, ByteBuf in, int length, boolean more, List<Object> out) {
                in.skipBytes(length);
            }

            @Override
            public void discard() {
            }
        };
        ZmtpConfig config = dealer().heartbeatIntervalMillis(1000).heartbeatTimeoutMillis(1500)
                .messageReader(() -> swallowing).build();
        try (TestPeer p = TestPeer.handshaken(config, DEALER, 1)) {
            p.advance(1000); // PING #1; timeout would fire at 2500
            p.feed(message(ascii("traffic"))); // never reaches the heartbeat handler's channelRead
            p.advance(1000); // PING #2 at 2000; new timeout at 3500
            p.advance(1000);
            assertThat(p.channel.isOpen()).isTrue();
            p.advance(500);
            assertThat(p.channel.isOpen()).isFalse();
        }
    }

    @Test
    void shouldCloseWhenPeerIsSilentForItsPingTtl() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(ping(10, new byte[0])); // ttl 1 s
            p.advance(999);
            assertThat(p.channel.isOpen()).isTrue();
            p.advance(1);
            assertThat(p.channel.isOpen()).isFalse();
            assertThat(p.protocolError().cause().getMessage()).contains("TTL");
        }
    }

    @Test
    void shouldNotCloseOnPingTtlWhileTrafficArrives() {
        try (TestPeer p = TestPeer.handshaken(DEALER, DEALER)) {
            p.feed(ping(10, new byte[0]));
            p.advance(900);
            p.feed(message(ascii("x")));
            p.advance(900);
            assertThat(p.channel.isOpen()).isTrue();
        }
    }
}
