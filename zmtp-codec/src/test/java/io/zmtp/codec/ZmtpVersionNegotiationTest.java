package io.zmtp.codec;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Which 3.x minor version a connection settles on. */
class ZmtpVersionNegotiationTest {

    @Test
    void shouldAnnounceAndTalk30WhenConfiguredForOnly30() {
        ZmtpConfig config = ZmtpConfig.builder(ZmtpSocketType.SUB)
                .acceptedVersions(EnumSet.of(ZmtpVersion.ZMTP_30)).build();
        try (TestPeer peer = new TestPeer(config)) {
            peer.feed(Wire.rawGreeting(1), Wire.ready("Socket-Type", "PUB"));
            assertThat(peer.success().version()).isEqualTo(ZmtpVersion.ZMTP_30);
            byte[] written = peer.outbound();
            assertThat(written[11]).as("minor version in our greeting").isEqualTo((byte) 0);
        }
    }

    @Test
    void shouldTalk31WithA31PeerByDefault() {
        try (TestPeer peer = new TestPeer(ZmtpConfig.builder(ZmtpSocketType.SUB).build())) {
            peer.feed(Wire.rawGreeting(1), Wire.ready("Socket-Type", "PUB"));
            assertThat(peer.success().version()).isEqualTo(ZmtpVersion.ZMTP_31);
            assertThat(peer.outbound()[11]).isEqualTo((byte) 1);
        }
    }
}
