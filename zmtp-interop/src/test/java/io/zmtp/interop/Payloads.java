package io.zmtp.interop;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deterministic message stream both sides of an interop test compute: a line-for-line port of
 * {@code src/test/python/payloads.py}, so a Python peer and this class agree on every byte without exchanging them.
 *
 * <p>Message {@code i} of a seed has 1 to 3 frames. Frame {@code f} has a size drawn from {@link #SIZES} (frame 0 of
 * every 1000th message, {@code i % 1000 == 999}, is 1 MiB) and is the slice of a seeded 2 MiB pattern at an offset
 * drawn from (seed, i, f): a lost, reordered, shifted or corrupted frame never compares equal.
 */
final class Payloads {
    static final int[] SIZES = {0, 1, 10, 100, 255, 256, 1000, 8191, 8192, 65536};
    static final int BIG = 1 << 20;
    static final int PATTERN_LENGTH = 2 << 20;
    /** First frame of every message on a PUB/SUB stream; what the subscriber subscribes to. */
    static final byte[] TOPIC = "data".getBytes(US_ASCII);
    /** Topic of messages that a subscriber to {@link #TOPIC} must never receive. */
    static final byte[] SKIP_TOPIC = "skip".getBytes(US_ASCII);
    /** Topic of the warm-up messages a publisher sends until the subscriber says its subscription arrived. */
    static final byte[] WARMUP_TOPIC = "data-warmup".getBytes(US_ASCII);

    private static final Map<Integer, Payloads> BY_SEED = new ConcurrentHashMap<>();
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[BIG]);

    private final int seed;
    private final byte[] pattern;

    private Payloads(int seed) {
        this.seed = seed;
        pattern = new byte[PATTERN_LENGTH];
        for (int k = 0; k < PATTERN_LENGTH; k++) {
            pattern[k] = (byte) (k + 37 * (k >> 8) + 101 * (k >> 16) + 59 * seed);
        }
    }

    static Payloads of(int seed) {
        return BY_SEED.computeIfAbsent(seed, Payloads::new);
    }

    /** 32-bit FNV-1a over 32-bit words with a final fold, as {@code payloads.mix}. */
    static long mix(long... values) {
        long h = 0x811C9DC5L;
        for (long v : values) {
            h = ((h ^ (v & 0xFFFFFFFFL)) * 0x01000193L) & 0xFFFFFFFFL;
        }
        return h ^ (h >>> 16);
    }

    int frameCount(int i) {
        return 1 + (int) (mix(seed, i) % 3);
    }

    int size(int i, int f) {
        return f == 0 && i % 1000 == 999 ? BIG : SIZES[(int) (mix(seed, i, f, 1) % SIZES.length)];
    }

    int offset(int i, int f) {
        return (int) (mix(seed, i, f, 2) % BIG);
    }

    /** Message {@code i}; its frames wrap the shared pattern (read-only use, nothing is copied). */
    ZmtpMessage message(int i) {
        int n = frameCount(i);
        ByteBuf[] frames = new ByteBuf[n];
        for (int f = 0; f < n; f++) {
            frames[f] = Unpooled.wrappedBuffer(pattern, offset(i, f), size(i, f));
        }
        return ZmtpMessage.wrap(frames);
    }

    /** {@code topic} followed by the frames of message {@code i}. */
    ZmtpMessage message(byte[] topic, int i) {
        return message(i).addFirst(Unpooled.wrappedBuffer(topic));
    }

    /** Hands the frames of message {@code i} to {@code consumer} (array, offset, length, more), for JeroMQ peers. */
    void forEachFrame(int i, FrameConsumer consumer) {
        int n = frameCount(i);
        for (int f = 0; f < n; f++) {
            consumer.accept(pattern, offset(i, f), size(i, f), f < n - 1);
        }
    }

    interface FrameConsumer {
        void accept(byte[] array, int offset, int length, boolean more);
    }

    /** Fails unless frames {@code first..} of {@code message} are message {@code i}. */
    void check(int i, ZmtpMessage message, int first) {
        int n = frameCount(i);
        if (message.size() - first != n) {
            throw new AssertionError("message " + i + ": " + (message.size() - first) + " frames (expected " + n
                    + "): " + message);
        }
        byte[] scratch = SCRATCH.get();
        for (int f = 0; f < n; f++) {
            ByteBuf frame = message.frame(first + f);
            int size = size(i, f);
            if (frame.readableBytes() != size) {
                throw new AssertionError("message " + i + " frame " + f + ": " + frame.readableBytes()
                        + " bytes (expected " + size + ")");
            }
            // One bulk copy per frame: with PARANOID leak detection every ByteBuf access records a stack trace.
            frame.getBytes(frame.readerIndex(), scratch, 0, size);
            checkBytes(i, f, scratch, 0, size);
        }
    }

    /** Fails unless {@code frames} are message {@code i} (for JeroMQ peers). */
    void check(int i, List<byte[]> frames) {
        int n = frameCount(i);
        if (frames.size() != n) {
            throw new AssertionError("message " + i + ": " + frames.size() + " frames (expected " + n + ")");
        }
        for (int f = 0; f < n; f++) {
            byte[] frame = frames.get(f);
            if (frame.length != size(i, f)) {
                throw new AssertionError("message " + i + " frame " + f + ": " + frame.length
                        + " bytes (expected " + size(i, f) + ")");
            }
            checkBytes(i, f, frame, 0, frame.length);
        }
    }

    private void checkBytes(int i, int f, byte[] actual, int from, int length) {
        int offset = offset(i, f);
        if (!Arrays.equals(actual, from, from + length, pattern, offset, offset + length)) {
            int at = Arrays.mismatch(actual, from, from + length, pattern, offset, offset + length);
            throw new AssertionError("message " + i + " frame " + f + ": content differs at byte " + at + " of "
                    + length);
        }
    }

    /** Total payload bytes of messages {@code 0..count-1}. */
    long totalBytes(int count) {
        long total = 0;
        for (int i = 0; i < count; i++) {
            for (int f = 0, n = frameCount(i); f < n; f++) {
                total += size(i, f);
            }
        }
        return total;
    }
}
