package io.zmtp.codec;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import static io.zmtp.codec.ZmtpSocketType.DEALER;
import static io.zmtp.codec.ZmtpSocketType.PAIR;
import static io.zmtp.codec.ZmtpSocketType.PUB;
import static io.zmtp.codec.ZmtpSocketType.PULL;
import static io.zmtp.codec.ZmtpSocketType.PUSH;
import static io.zmtp.codec.ZmtpSocketType.REP;
import static io.zmtp.codec.ZmtpSocketType.REQ;
import static io.zmtp.codec.ZmtpSocketType.ROUTER;
import static io.zmtp.codec.ZmtpSocketType.SUB;
import static io.zmtp.codec.ZmtpSocketType.XPUB;
import static io.zmtp.codec.ZmtpSocketType.XSUB;
import static org.assertj.core.api.Assertions.assertThat;

class ZmtpSocketTypeTest {

    /** ZMTP.md section 5.1 (rfc 37 = libzmq check_socket_type), transcribed row by row. */
    private static final Map<ZmtpSocketType, Set<ZmtpSocketType>> TABLE = new EnumMap<>(ZmtpSocketType.class);

    static {
        TABLE.put(REQ, EnumSet.of(REP, ROUTER));
        TABLE.put(REP, EnumSet.of(REQ, DEALER));
        TABLE.put(DEALER, EnumSet.of(REP, DEALER, ROUTER));
        TABLE.put(ROUTER, EnumSet.of(REQ, DEALER, ROUTER));
        TABLE.put(PUB, EnumSet.of(SUB, XSUB));
        TABLE.put(XPUB, EnumSet.of(SUB, XSUB));
        TABLE.put(SUB, EnumSet.of(PUB, XPUB));
        TABLE.put(XSUB, EnumSet.of(PUB, XPUB));
        TABLE.put(PUSH, EnumSet.of(PULL));
        TABLE.put(PULL, EnumSet.of(PUSH));
        TABLE.put(PAIR, EnumSet.of(PAIR));
        TABLE.put(ZmtpSocketType.STREAM, EnumSet.noneOf(ZmtpSocketType.class));
        // rfc 37's table for the thread-safe types (libzmq's check_socket_type with drafts on).
        TABLE.put(ZmtpSocketType.CLIENT, EnumSet.of(ZmtpSocketType.SERVER));
        TABLE.put(ZmtpSocketType.SERVER, EnumSet.of(ZmtpSocketType.CLIENT));
        TABLE.put(ZmtpSocketType.RADIO, EnumSet.of(ZmtpSocketType.DISH));
        TABLE.put(ZmtpSocketType.DISH, EnumSet.of(ZmtpSocketType.RADIO));
        TABLE.put(ZmtpSocketType.GATHER, EnumSet.of(ZmtpSocketType.SCATTER));
        TABLE.put(ZmtpSocketType.SCATTER, EnumSet.of(ZmtpSocketType.GATHER));
        TABLE.put(ZmtpSocketType.PEER, EnumSet.of(ZmtpSocketType.PEER));
        TABLE.put(ZmtpSocketType.CHANNEL, EnumSet.of(ZmtpSocketType.CHANNEL));
    }

    @Test
    void shouldMatchCompatibilityTableForEveryPair() {
        assertThat(TABLE.keySet()).containsExactlyInAnyOrder(ZmtpSocketType.values());
        for (ZmtpSocketType us : ZmtpSocketType.values()) {
            for (ZmtpSocketType peer : ZmtpSocketType.values()) {
                assertThat(us.isCompatibleWith(peer)).as("%s with %s", us, peer)
                        .isEqualTo(TABLE.get(us).contains(peer));
            }
        }
    }

    @Test
    void shouldBeSymmetric() {
        for (ZmtpSocketType a : ZmtpSocketType.values()) {
            for (ZmtpSocketType b : ZmtpSocketType.values()) {
                assertThat(a.isCompatibleWith(b)).as("%s/%s", a, b).isEqualTo(b.isCompatibleWith(a));
            }
        }
    }

    @Test
    void shouldUseZmtp20CodesOfRfc15AndLibzmq() {
        int[] expected = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A};
        ZmtpSocketType[] types = {PAIR, PUB, SUB, REQ, REP, DEALER, ROUTER, PULL, PUSH, XPUB, XSUB};
        for (int i = 0; i < types.length; i++) {
            assertThat(types[i].zmtp20Code()).isEqualTo(expected[i]);
            assertThat(ZmtpSocketType.fromZmtp20Code(expected[i])).isEqualTo(types[i]);
        }
        assertThat(ZmtpSocketType.fromZmtp20Code(0x0B)).isNull();
        assertThat(ZmtpSocketType.fromZmtp20Code(-1)).isNull();
        assertThat(ZmtpSocketType.fromZmtp20Code(0xFF)).isNull();
    }

    /** The lookup is a table of its own, not the enum's declaration order: every byte maps as the codes say. */
    @Test
    void shouldMapEveryZmtp20CodeToTheTypeCarryingIt() {
        for (int code = 0; code <= 0xFF; code++) {
            ZmtpSocketType carrying = null;
            for (ZmtpSocketType t : ZmtpSocketType.values()) {
                if (t.zmtp20Code() == code) {
                    assertThat(carrying).as("two types with code 0x%02x", code).isNull();
                    carrying = t;
                }
            }
            assertThat(ZmtpSocketType.fromZmtp20Code(code)).as("code 0x%02x", code).isEqualTo(carrying);
        }
        assertThat(ZmtpSocketType.fromZmtp20Code(Integer.MIN_VALUE)).isNull();
        assertThat(ZmtpSocketType.fromZmtp20Code(0x100)).isNull();
    }

    @Test
    void shouldParseWireNamesExactlyAndUserNamesLeniently() {
        for (ZmtpSocketType t : ZmtpSocketType.values()) {
            assertThat(ZmtpSocketType.fromWireName(t.wireName())).isEqualTo(t);
            assertThat(new String(t.wireName())).isEqualTo(t.name());
            assertThat(ZmtpSocketType.parse(" " + t.name().toLowerCase() + " ")).isEqualTo(t);
        }
        assertThat(ZmtpSocketType.fromWireName(Wire.ascii("Dealer"))).isNull();
        assertThat(ZmtpSocketType.fromWireName(Wire.ascii("Client"))).isNull();
        assertThat(ZmtpSocketType.fromWireName(Wire.ascii("DGRAM"))).as("libzmq's udp-only draft type").isNull();
        assertThat(ZmtpSocketType.fromWireName(null)).isNull();
    }
}
