package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ProgressPrinter;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/** Pieces the perf tools share. */
final class PerfSupport {
    /**
     * How long the request/reply tools wait for the next message once traffic has started, and how long rr_server
     * lingers: on loopback a healthy peer is never this quiet, so a stalled run fails instead of hanging.
     */
    static final Duration STALL = Duration.ofSeconds(30);

    private PerfSupport() {
    }

    /**
     * A socket of {@code type} with libzmq's defaults (HWM 1000 each way, infinite LINGER, so close waits until
     * everything queued is written). A PUB is opened as an XPUB so that, once bound or connected, the tool can wait
     * for the subscriber's subscription before it sends (libzmq's tools sleep instead), and with XPUB_NODROP, so a
     * throughput test that counts every message waits at the HWM instead of dropping. A SUB subscribes to
     * everything.
     */
    static ZmtpSocket open(ZmtpContext context, ZmtpSocketType type) {
        ZmtpSocket socket = context.socket(type == ZmtpSocketType.PUB ? ZmtpSocketType.XPUB : type);
        if (type == ZmtpSocketType.PUB) {
            socket.setOption(ZmtpSocketOption.XPUB_NODROP, true);
        } else if (type == ZmtpSocketType.SUB) {
            socket.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
        }
        return socket;
    }

    /** For a socket {@link #open}ed as PUB: blocks until a subscriber's subscription arrives. */
    static void awaitSubscriber(ZmtpSocket publisher) {
        publisher.receive().release();
    }

    /**
     * The type a tool's {@code --type} names, or {@code fallback} if none was given; one outside {@code allowed} (the
     * first of which is the default) is refused.
     */
    static ZmtpSocketType checkType(ZmtpSocketType given, ZmtpSocketType fallback, ZmtpSocketType... allowed) {
        ZmtpSocketType type = given == null ? fallback : given;
        if (!Arrays.asList(allowed).contains(type)) {
            throw new PerfException("--type " + type + " (expected: " + Arrays.stream(allowed)
                    .map(ZmtpSocketType::name).collect(Collectors.joining(", ")) + ")");
        }
        return type;
    }

    /** libzmq's check: the tools fail on a message of another size. */
    static void checkSize(ZmtpMessage message, int expected) {
        long size = message.contentLength();
        if (size != expected || message.size() != 1) {
            message.release();
            throw new PerfException("message of incorrect size received: " + size + " B in " + message.size()
                    + " frame(s) (expected: " + expected + " B in 1 frame)");
        }
    }

    static void checkArguments(int size, long count) {
        if (size < 0) {
            throw new PerfException("message size: " + size + " (expected: >= 0)");
        }
        if (count < 1) {
            throw new PerfException("count: " + count + " (expected: >= 1)");
        }
    }

    static void checkWarmup(long warmupCount) {
        if (warmupCount < 0) {
            throw new PerfException("warmup-count: " + warmupCount + " (expected: >= 0)");
        }
    }

    /** A counter the owner thread bumps with a plain ordered store, and a progress line on stderr each second. */
    static final class Progress implements AutoCloseable {
        private final AtomicLong count = new AtomicLong();
        private final Thread thread;
        private long local;

        Progress(LongFunction<String> suffix) {
            thread = ProgressPrinter.startBackground(System.err, count::get, suffix);
        }

        Progress() {
            this(rate -> "");
        }

        void increment() {
            count.lazySet(++local);
        }

        @Override
        public void close() {
            thread.interrupt();
        }
    }

    /** A failure the tools report as one line on stderr and exit status 1. */
    static final class PerfException extends RuntimeException {
        PerfException(String message) {
            super(message);
        }
    }
}
