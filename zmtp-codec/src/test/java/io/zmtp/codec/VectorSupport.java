package io.zmtp.codec;

import io.zmtp.testkit.ZmtpVector;
import io.zmtp.testkit.ZmtpVector.Direction;
import io.zmtp.testkit.ZmtpVectors;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs a handler against an input fed whole, one byte at a time, and split in two at every position. */
final class VectorSupport {
    private VectorSupport() {
    }

    /** What one run produced: bytes written, what the application saw, whether the channel is still open. */
    static final class Outcome {
        final String output;
        final List<String> log;
        final boolean open;
        final ZmtpHandshakeSuccessEvent success;
        final ZmtpHandshakeFailureEvent failure;
        final byte[] outputBytes;

        Outcome(byte[] output, List<String> log, boolean open, ZmtpHandshakeSuccessEvent success,
                ZmtpHandshakeFailureEvent failure) {
            this.outputBytes = output;
            this.output = Wire.hex(output);
            this.log = log;
            this.open = open;
            this.success = success;
            this.failure = failure;
        }
    }

    static Outcome run(ZmtpConfig config, List<byte[]> chunks, Consumer<TestPeer> after) {
        try (TestPeer peer = new TestPeer(config)) {
            for (byte[] chunk : chunks) {
                peer.feed(chunk);
            }
            after.accept(peer);
            List<ZmtpHandshakeSuccessEvent> s = peer.inbound(ZmtpHandshakeSuccessEvent.class);
            List<ZmtpHandshakeFailureEvent> f = peer.inbound(ZmtpHandshakeFailureEvent.class);
            assertThat(s.size() + f.size()).as("handshake outcomes %s", peer.log()).isLessThanOrEqualTo(1);
            return new Outcome(peer.outbound(), peer.log(), peer.channel.isOpen(), s.isEmpty() ? null : s.get(0),
                    f.isEmpty() ? null : f.get(0));
        }
    }

    /**
     * Feeds {@code input} whole, byte by byte, and split at every position into two writes; all runs must produce
     * the same bytes, the same application-visible sequence, and the same open/closed state. Returns the whole run.
     */
    static Outcome feedAllWays(ZmtpConfig config, byte[] input, Consumer<TestPeer> after) {
        Outcome whole = run(config, List.of(input), after);
        List<byte[]> single = new ArrayList<>();
        for (byte b : input) {
            single.add(new byte[] {b});
        }
        assertSameOutcome(whole, run(config, single, after), "one byte at a time");
        for (int i = 1; i < input.length; i++) {
            byte[] head = Arrays.copyOfRange(input, 0, i);
            byte[] tail = Arrays.copyOfRange(input, i, input.length);
            assertSameOutcome(whole, run(config, List.of(head, tail), after), "split at " + i);
        }
        return whole;
    }

    static Outcome feedAllWays(ZmtpConfig config, byte[] input) {
        return feedAllWays(config, input, p -> { });
    }

    private static void assertSameOutcome(Outcome expected, Outcome actual, String how) {
        assertThat(actual.output).as("bytes written, input fed %s", how).isEqualTo(expected.output);
        assertThat(actual.log).as("application events, input fed %s", how).isEqualTo(expected.log);
        assertThat(actual.open).as("channel open, input fed %s", how).isEqualTo(expected.open);
    }

    static List<ZmtpVector> load(String name) {
        return ZmtpVectors.load(name);
    }

    static byte[] libzmq(String vector) {
        return ZmtpVectors.bytesFrom(vector, Direction.LIBZMQ);
    }

    static byte[] raw(String vector) {
        return ZmtpVectors.bytesFrom(vector, Direction.RAW_PEER);
    }

    /** The blocks one side sent whose header contains (or, with a leading '!', lacks) the given text. */
    static byte[] blocks(String vector, Direction direction, String headerFilter) {
        boolean negate = headerFilter.startsWith("!");
        String text = negate ? headerFilter.substring(1) : headerFilter;
        return Wire.blocks(load(vector), direction, h -> h.contains(text) != negate);
    }
}
