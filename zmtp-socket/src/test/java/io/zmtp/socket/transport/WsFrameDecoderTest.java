package io.zmtp.socket.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link WsFrameDecoder} on an {@link EmbeddedChannel}: WebSocket frames in, ZMTP frame bytes (and pings and closes)
 * out, whatever the reads' boundaries, for both sides (a server's peer masks, a client's doesn't); what ZWS refuses
 * is refused from the header, with the close status to send, after the messages before it. The frames are built here
 * byte by byte (rfc 6455 section 5.2), independently of the decoder.
 */
class WsFrameDecoderTest {
    private static final int MAX_PAYLOAD = 100_000;
    private static final int FIN_BINARY = 0x82;
    private static final int KEY = 0x9A3C_51E7;

    private EmbeddedChannel channel;
    private UnpooledByteBufAllocator alloc;

    @AfterEach
    void finish() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldTurnEachBinaryMessageIntoAZmtpFrameWithItsFlags(boolean server) {
        PeerStream s = new PeerStream(server).binary(0x00, body(5)).binary(0x01, body(0)).binary(0x02, body(3))
                .binary(0x03, body(1)).binary(0xFC, body(2));
        List<String> out = decode(server, s.chunks(0));
        // MORE 0x01 -> 0x01, COMMAND 0x02 -> 0x04; the six other bits ignored, as libzmq ignores them.
        assertThat(out).containsExactly(zmtpHex(0x00, body(5)) + zmtpHex(0x01, body(0)) + zmtpHex(0x04, body(3))
                + zmtpHex(0x05, body(1)) + zmtpHex(0x00, body(2)));
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldHandTheSmallMessagesOfOneReadOnAsOneBuffer(boolean server) {
        PeerStream s = new PeerStream(server);
        for (int i = 0; i < 50; i++) {
            s.binary(i % 2, body(64));
        }
        channel = newChannel(server);
        read(s.bytes());
        ByteBuf first = channel.readInbound();
        try {
            assertThat(first.readableBytes()).isEqualTo(50 * (2 + 64));
            assertThat((Object) channel.readInbound()).as("one buffer for the read's 50 messages").isNull();
        } finally {
            first.release();
        }
        close();
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldDecodeTheSameWhereverTheStreamIsSplitInTwo(boolean server) {
        PeerStream s = mixed(server);
        List<String> whole = decode(server, s.chunks(0));
        assertThat(whole).isEqualTo(s.expected);
        for (int at = 1; at < s.bytes().length; at++) {
            assertThat(decode(server, s.splitAt(at))).as("split at %d", at).isEqualTo(s.expected);
        }
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldDecodeTheSameFedOneByteAtATimeOrInRandomReads(boolean server) {
        PeerStream s = mixed(server).binary(0x00, body(70_000)).binary(0x01, body(300)).binary(0x00, body(9));
        assertThat(decode(server, s.chunks(1))).isEqualTo(s.expected);
        for (int max : new int[] {3, 17, 200, 5000}) {
            assertThat(decode(server, s.chunks(max))).as("reads of up to %d bytes", max).isEqualTo(s.expected);
        }
    }

    @Test
    void shouldUnmaskWithTheKeyOfEachFrame() {
        PeerStream s = new PeerStream(true);
        s.key = 0;
        s.binary(0x00, body(11));
        s.key = 0xFFFF_FFFF;
        s.binary(0x00, body(11));
        s.key = 0x0102_0304;
        s.binary(0x00, body(2000));
        assertThat(decode(true, s.chunks(0))).isEqualTo(s.expected);
    }

    @Test
    void shouldPassPingsAndClosesOnInOrderAndDropPongs() {
        PeerStream s = new PeerStream(true).binary(0x00, body(4)).control(0x8A, body(3)).control(0x89, body(5))
                .binary(0x01, body(6)).control(0x88, closeBody(1000, "bye"));
        assertThat(decode(true, s.chunks(0))).containsExactly(zmtpHex(0x00, body(4)),
                "PING " + ByteBufUtil.hexDump(body(5)), zmtpHex(0x01, body(6)),
                "CLOSE " + ByteBufUtil.hexDump(closeBody(1000, "bye")));
    }

    @Test
    void shouldReadNothingAfterACloseFrame() {
        PeerStream s = new PeerStream(false).control(0x88, new byte[0]).binary(0x00, body(4));
        byte[] garbage = {(byte) 0xFF, (byte) 0xFF};
        List<byte[]> chunks = new ArrayList<>(s.chunks(0));
        chunks.add(garbage);
        assertThat(decode(false, chunks)).containsExactly("CLOSE ");
    }

    @Test
    void shouldRefuseAFragmentEvenWithAControlFrameBetweenItsParts() {
        PeerStream s = new PeerStream(true).binary(0x00, body(2));
        s.frame(0x02, payload(0x01, body(3)));          // FIN clear: the first fragment
        s.control(0x89, body(1));                         // a ping between the fragments
        s.frame(0x80, body(3));                           // the final continuation
        assertRefused(true, s.bytes(), WebSocketCloseStatus.PROTOCOL_ERROR, "fragmented",
                zmtpHex(0x00, body(2)));
    }

    @Test
    void shouldRefuseAContinuationOutOfTheBlue() {
        assertRefused(false, new PeerStream(false).frame(0x80, payload(0, body(1))).bytes(),
                WebSocketCloseStatus.PROTOCOL_ERROR, "fragmented");
    }

    @Test
    void shouldRefuseATextMessage() {
        assertRefused(true, new PeerStream(true).frame(0x81, body(2)).bytes(),
                WebSocketCloseStatus.INVALID_MESSAGE_TYPE, "text");
    }

    @ParameterizedTest(name = "server: {0}")
    @ValueSource(booleans = {true, false})
    void shouldRefuseTheWrongMaskingForTheSide(boolean server) {
        PeerStream wrong = new PeerStream(!server).binary(0x00, body(2));
        assertRefused(server, wrong.bytes(), WebSocketCloseStatus.PROTOCOL_ERROR, server ? "unmasked" : "masked");
    }

    @ParameterizedTest(name = "first byte 0x{0}")
    @ValueSource(ints = {0xC2, 0xA2, 0x92, 0x83, 0x87, 0x8B, 0x8F})
    void shouldRefuseReservedBitsAndOpcodes(int first) {
        assertRefused(true, new PeerStream(true).frame(first, payload(0, body(2))).bytes(),
                WebSocketCloseStatus.PROTOCOL_ERROR, "reserved");
    }

    @Test
    void shouldRefuseAnEmptyBinaryMessage() {
        assertRefused(false, new PeerStream(false).frame(FIN_BINARY, new byte[0]).bytes(),
                WebSocketCloseStatus.PROTOCOL_ERROR, "empty");
    }

    @Test
    void shouldRefuseAControlFrameThatIsFragmentedOrOver125Bytes() {
        assertRefused(true, new PeerStream(true).frame(0x09, body(1)).bytes(), WebSocketCloseStatus.PROTOCOL_ERROR,
                "control frame");
        assertRefused(true, new PeerStream(true).frame(0x89, body(126)).bytes(), WebSocketCloseStatus.PROTOCOL_ERROR,
                "over 125");
    }

    @Test
    void shouldRefuseABadCloseFrame() {
        assertRefused(true, new PeerStream(true).control(0x88, new byte[] {3}).bytes(),
                WebSocketCloseStatus.PROTOCOL_ERROR, "1 byte");
        assertRefused(true, new PeerStream(true).control(0x88, closeBody(1005, "")).bytes(),
                WebSocketCloseStatus.PROTOCOL_ERROR, "status");
        byte[] badUtf8 = {0x03, (byte) 0xE8, (byte) 0xC3, 0x28};
        assertRefused(true, new PeerStream(true).control(0x88, badUtf8).bytes(),
                WebSocketCloseStatus.INVALID_PAYLOAD_DATA, "UTF-8");
    }

    @Test
    void shouldRefuseAnOversizedMessageFromItsHeaderAlone() {
        // A 64-bit length one over the limit, and nothing of the payload: refused without waiting for it.
        byte[] header = {(byte) FIN_BINARY, 127, 0, 0, 0, 0, 0, (byte) ((MAX_PAYLOAD + 1) >> 16),
                (byte) ((MAX_PAYLOAD + 1) >> 8), (byte) (MAX_PAYLOAD + 1)};
        assertRefused(false, header, WebSocketCloseStatus.MESSAGE_TOO_BIG, "bytes (expected: <= " + MAX_PAYLOAD);
        byte[] negative = {(byte) FIN_BINARY, 127, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0};
        assertRefused(false, negative, WebSocketCloseStatus.MESSAGE_TOO_BIG, "9223372036854775808 bytes");
    }

    @Test
    void shouldTakeAMessageOfExactlyTheLimit() {
        PeerStream s = new PeerStream(true).binary(0x00, body(MAX_PAYLOAD - 1));
        assertThat(decode(true, s.chunks(0))).isEqualTo(s.expected);
    }

    @Test
    void shouldDeliverTheMessagesBeforeARefusedFrameAndSkipWhatFollows() {
        channel = newChannel(true);
        byte[] bytes = new PeerStream(true).binary(0x00, body(3)).frame(0x81, body(1)).binary(0x00, body(3)).bytes();
        assertThatThrownBy(() -> read(bytes))
                .isInstanceOf(CorruptedWebSocketFrameException.class);
        assertThat(drain()).containsExactly(zmtpHex(0x00, body(3)));
        read(new PeerStream(true).binary(0x00, body(3)).bytes());
        assertThat(drain()).as("nothing read after the refused frame").isEmpty();
        close();
    }

    @Test
    void shouldCopyAReadOnlyReadBeforeRewritingIt() {
        PeerStream s = new PeerStream(true).binary(0x00, body(10)).binary(0x00, body(10));
        byte[] bytes = s.bytes();
        byte[] before = bytes.clone();
        channel = newChannel(true);
        channel.writeInbound(Unpooled.wrappedBuffer(bytes).asReadOnly());
        assertThat(drain()).isEqualTo(s.expected);
        assertThat(bytes).isEqualTo(before);
        close();
    }

    // --- the peer's side, written independently of the decoder

    /** Two of every size class a message can take, around every boundary of both encodings, and control frames. */
    private static PeerStream mixed(boolean server) {
        PeerStream s = new PeerStream(server);
        int[] sizes = {0, 1, 7, 8, 9, 123, 124, 125, 126, 254, 255, 256, 257, 300, 1023, 1024, 1100};
        for (int size : sizes) {
            s.binary(size % 3 == 0 ? 0x01 : 0x00, body(size));
        }
        s.control(0x89, body(4));
        s.control(0x8A, body(2));
        for (int i = sizes.length - 1; i >= 0; i--) {
            s.binary(0x02, body(sizes[i]));
        }
        return s;
    }

    /** A peer's byte stream and what the decoder must make of it. */
    private static final class PeerStream {
        final boolean masked;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final List<String> expected = new ArrayList<>();
        int key = KEY;

        PeerStream(boolean masked) {
            this.masked = masked;
        }

        PeerStream binary(int wsFlags, byte[] body) {
            frame(FIN_BINARY, payload(wsFlags, body));
            int flags = ((wsFlags & 1) != 0 ? 0x01 : 0) | ((wsFlags & 2) != 0 ? 0x04 : 0);
            appendExpected(zmtpHex(flags, body));
            return this;
        }

        PeerStream control(int first, byte[] payload) {
            frame(first, payload);
            if (first == 0x89) {
                expected.add("PING " + ByteBufUtil.hexDump(payload));
            } else if (first == 0x88) {
                expected.add("CLOSE " + ByteBufUtil.hexDump(payload));
            }
            return this;
        }

        /** Any frame: the first byte as given, the shortest length encoding, masked as the side is. */
        PeerStream frame(int first, byte[] payload) {
            out.write(first);
            int maskBit = masked ? 0x80 : 0;
            if (payload.length <= 125) {
                out.write(maskBit | payload.length);
            } else if (payload.length <= 0xFFFF) {
                out.write(maskBit | 126);
                out.write(payload.length >> 8);
                out.write(payload.length);
            } else {
                out.write(maskBit | 127);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    out.write((int) ((long) payload.length >> shift));
                }
            }
            byte[] p = payload.clone();
            if (masked) {
                byte[] k = {(byte) (key >> 24), (byte) (key >> 16), (byte) (key >> 8), (byte) key};
                out.writeBytes(k);
                for (int i = 0; i < p.length; i++) {
                    p[i] ^= k[i & 3];
                }
            }
            out.writeBytes(p);
            return this;
        }

        private void appendExpected(String zmtp) {
            int last = expected.size() - 1;
            if (last >= 0 && !expected.get(last).startsWith("PING") && !expected.get(last).startsWith("CLOSE")) {
                expected.set(last, expected.get(last) + zmtp);
            } else {
                expected.add(zmtp);
            }
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        List<byte[]> splitAt(int at) {
            byte[] b = bytes();
            return List.of(Arrays.copyOfRange(b, 0, at), Arrays.copyOfRange(b, at, b.length));
        }

        /** Reads of 1 to {@code max} bytes (a fixed pseudo-random sequence), or the whole stream for 0. */
        List<byte[]> chunks(int max) {
            byte[] b = bytes();
            if (max == 0) {
                return List.of(b);
            }
            List<byte[]> chunks = new ArrayList<>();
            long seed = 42;
            for (int i = 0; i < b.length; ) {
                seed = seed * 6364136223846793005L + 1442695040888963407L;
                int n = Math.min(b.length - i, 1 + (int) ((seed >>> 33) % max));
                chunks.add(Arrays.copyOfRange(b, i, i + n));
                i += n;
            }
            return chunks;
        }
    }

    private static byte[] payload(int wsFlags, byte[] body) {
        byte[] p = new byte[body.length + 1];
        p[0] = (byte) wsFlags;
        System.arraycopy(body, 0, p, 1, body.length);
        return p;
    }

    /** Bytes that differ from position to position, so that a byte moved to the wrong place shows. */
    private static byte[] body(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + size);
        }
        return b;
    }

    private static byte[] closeBody(int status, String reason) {
        byte[] r = reason.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] b = new byte[2 + r.length];
        b[0] = (byte) (status >> 8);
        b[1] = (byte) status;
        System.arraycopy(r, 0, b, 2, r.length);
        return b;
    }

    /** A ZMTP frame (23/ZMTP "Framing"): flags, a 1-byte size up to 255 or the LONG flag and an 8-byte size, body. */
    private static String zmtpHex(int flags, byte[] body) {
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        if (body.length <= 255) {
            z.write(flags);
            z.write(body.length);
        } else {
            z.write(flags | 0x02);
            for (int shift = 56; shift >= 0; shift -= 8) {
                z.write((int) ((long) body.length >> shift));
            }
        }
        z.writeBytes(body);
        return ByteBufUtil.hexDump(z.toByteArray());
    }

    // --- the decoder's side

    /**
     * A channel with the decoder, on a heap allocator of its own: its count of the memory in use shows a buffer not
     * released (a slice kept too long), without the paranoid leak detector's stack trace on every access, which a
     * stream fed byte by byte would make thousands of.
     */
    private EmbeddedChannel newChannel(boolean server) {
        alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(alloc);
        ch.pipeline().addLast(new WsFrameDecoder(server, MAX_PAYLOAD));
        return ch;
    }

    private void read(byte[] bytes) {
        channel.writeInbound(alloc.heapBuffer(bytes.length).writeBytes(bytes));
    }

    /** Closes the channel; every buffer the decoder made or was given must have been released. */
    private void close() {
        channel.finishAndReleaseAll();
        channel = null;
        assertThat(alloc.metric().usedHeapMemory()).as("heap memory in use after the channel closed").isZero();
    }

    /** What a fresh decoder makes of these reads: ZMTP bytes joined across buffers, pings and closes between. */
    private List<String> decode(boolean server, List<byte[]> reads) {
        channel = newChannel(server);
        Transcript t = new Transcript();
        for (byte[] r : reads) {
            read(r);
            drainInto(t);
        }
        close();
        return t.done();
    }

    private List<String> drain() {
        Transcript t = new Transcript();
        drainInto(t);
        return t.done();
    }

    private void drainInto(Transcript t) {
        for (Object o; (o = channel.readInbound()) != null; ) {
            try {
                if (o instanceof ByteBuf) {
                    ByteBuf b = (ByteBuf) o;
                    b.getBytes(b.readerIndex(), t.bytes, b.readableBytes());
                } else if (o instanceof PingWebSocketFrame) {
                    t.add("PING " + ByteBufUtil.hexDump(((PingWebSocketFrame) o).content()));
                } else if (o instanceof CloseWebSocketFrame) {
                    t.add("CLOSE " + ByteBufUtil.hexDump(((CloseWebSocketFrame) o).content()));
                } else {
                    t.add("UNEXPECTED " + o);
                }
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            } finally {
                ReferenceCountUtil.release(o);
            }
        }
    }

    /** ZMTP bytes of consecutive buffers as one hex string (where the reads cut them is not the decoder's to keep). */
    private static final class Transcript {
        final List<String> parts = new ArrayList<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        void add(String control) {
            flush();
            parts.add(control);
        }

        private void flush() {
            if (bytes.size() > 0) {
                parts.add(ByteBufUtil.hexDump(bytes.toByteArray()));
                bytes.reset();
            }
        }

        List<String> done() {
            flush();
            return parts;
        }
    }

    private void assertRefused(boolean server, byte[] bytes, WebSocketCloseStatus status, String reason,
                               String... deliveredFirst) {
        channel = newChannel(server);
        assertThatThrownBy(() -> read(bytes))
                .isInstanceOf(CorruptedWebSocketFrameException.class)
                .hasMessageContaining(reason)
                .satisfies(e -> assertThat(((CorruptedWebSocketFrameException) e).closeStatus()).isEqualTo(status));
        assertThat(drain()).containsExactly(deliveredFirst);
        close();
    }
}
