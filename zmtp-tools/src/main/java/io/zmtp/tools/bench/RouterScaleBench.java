package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One ROUTER, many DEALERs, in one JVM: a ROUTER bound on tcp://127.0.0.1 in a context of its own, {@code --peers}
 * DEALER sockets connected to it from a second context. Measures what a peer costs: the time until the ROUTER has
 * completed every handshake ({@link ZmtpSocketEvent.Type#HANDSHAKE_SUCCEEDED}), heap used after a GC and the
 * process's resident set ({@code VmRSS}) before the DEALERs exist and once all are connected, and then the
 * request/reply rate with each DEALER keeping {@code --inflight} requests outstanding while one thread echoes them
 * on the ROUTER. Both ends are in this process, so a figure "per peer" is a DEALER socket and its connection plus
 * the ROUTER's peer and its connection.
 *
 * <p>The DEALERs are driven without a thread each: a reply completes the DEALER's {@code receiveAsync}, whose
 * callback sends the next request and asks for the next reply, as an application holding many sockets would.
 */
@Command(name = "router-scale", mixinStandardHelpOptions = true,
        description = "One ROUTER and N DEALERs on zmtp-socket over tcp://127.0.0.1 in one JVM: connect time, heap "
                + "and resident memory per peer, then the request/reply rate, a line per second.")
public final class RouterScaleBench implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(100);

    @Mixin
    BenchOptions options;

    @Option(names = "--peers", defaultValue = "1000",
            description = "DEALER sockets connected to the ROUTER (default: ${DEFAULT-VALUE}).")
    int peers;

    @Option(names = "--inflight", defaultValue = "4",
            description = "Requests each DEALER keeps outstanding (default: ${DEFAULT-VALUE}).")
    int inflight;

    @Option(names = "--connect-timeout", defaultValue = "300",
            description = "Seconds to wait for every handshake (default: ${DEFAULT-VALUE}).")
    int connectTimeoutSeconds;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (peers < 1 || inflight < 1 || connectTimeoutSeconds < 1) {
                throw new IllegalArgumentException("--peers >= 1, --inflight >= 1, --connect-timeout >= 1 expected "
                        + "(got " + peers + ", " + inflight + ", " + connectTimeoutSeconds + ")");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench router-scale: " + e.getMessage());
            return 2;
        }
        LongAdder handshakes = new LongAdder();
        LongAdder replies = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        List<ZmtpSocket> dealers = new ArrayList<>(peers);
        try (ZmtpContext routerContext = options.context.newContext();
             ZmtpContext dealerContext = options.context.newContext();
             ZmtpSocket router = routerContext.socket(ZmtpSocketType.ROUTER)) {
            // Every DEALER's requests must fit the ROUTER's queues, or it would drop replies (HWM per peer).
            router.setOption(ZmtpSocketOption.SNDHWM, Math.max(1000, 2 * inflight));
            router.setOption(ZmtpSocketOption.RCVHWM, Math.max(1000, 2 * inflight));
            router.setOption(ZmtpSocketOption.LINGER, 0);
            router.monitor(e -> {
                if (e.type() == ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED) {
                    handshakes.increment();
                }
            });
            String endpoint = router.bind("tcp://127.0.0.1:*");
            System.out.printf("zmtp bench router-scale: %d DEALER -> ROUTER over %s, %d x %d B frames per request, "
                            + "%d in flight per DEALER, %d I/O thread(s) per side, %s, socket layer, %d s%n", peers,
                    endpoint, options.frames, options.size, inflight, options.context.ioThreads(),
                    routerContext.isNativeTransport() ? "epoll" : "nio", options.durationSeconds);
            Memory before = Memory.measure();
            System.out.printf("before: heap %,d KiB after GC, RSS %s%n", before.heapBytes / 1024,
                    kib(before.rssBytes));
            try {
                long start = System.nanoTime();
                for (int i = 0; i < peers; i++) {
                    ZmtpSocket dealer = dealerContext.socket(ZmtpSocketType.DEALER);
                    dealers.add(dealer);
                    dealer.setOption(ZmtpSocketOption.LINGER, 0);
                    dealer.connect(endpoint);
                }
                long created = System.nanoTime();
                if (!awaitHandshakes(handshakes, start)) {
                    System.err.printf("zmtp bench router-scale: %d of %d handshakes within %d s%n", handshakes.sum(),
                            peers, connectTimeoutSeconds);
                    return 1;
                }
                long connected = System.nanoTime();
                Memory after = Memory.measure();
                System.out.printf("connected: %d peers in %,d ms (connect calls took %,d ms); %,.0f handshakes/s%n",
                        peers, TimeUnit.NANOSECONDS.toMillis(connected - start),
                        TimeUnit.NANOSECONDS.toMillis(created - start),
                        peers * 1e9 / (connected - start));
                System.out.printf("after: heap %,d KiB after GC, RSS %s; per peer: heap %,d B, RSS %s%n",
                        after.heapBytes / 1024, kib(after.rssBytes), (after.heapBytes - before.heapBytes) / peers,
                        before.rssBytes < 0 ? "n/a" : String.format("%,d B", (after.rssBytes - before.rssBytes) / peers));

                Thread server = new Thread(() -> serve(router, running), "bench-router");
                server.start();
                ByteBuf payload = Payload.shared(options.size);
                for (ZmtpSocket dealer : dealers) {
                    for (int i = 0; i < inflight; i++) {
                        dealer.send(request(payload));
                    }
                    awaitReplies(dealer, payload, replies, running);
                }
                long sum = 0;
                ProgressPrinter printer = new ProgressPrinter(System.out, replies);
                for (int s = 0; s < options.durationSeconds; s++) {
                    sum += printer.awaitAndPrint("");
                }
                running.set(false);
                server.join();
                System.out.printf("average: %,d requests/s over %d s with %d peers (%d in flight each); connect %,d ms; "
                                + "per peer: heap %,d B, RSS %s%n", sum / options.durationSeconds,
                        options.durationSeconds, peers, inflight, TimeUnit.NANOSECONDS.toMillis(connected - start),
                        (after.heapBytes - before.heapBytes) / peers,
                        before.rssBytes < 0 ? "n/a" : String.format("%,d B", (after.rssBytes - before.rssBytes) / peers));
            } finally {
                running.set(false);
                dealers.forEach(ZmtpSocket::close);
            }
        }
        return 0;
    }

    private boolean awaitHandshakes(LongAdder handshakes, long start) throws InterruptedException {
        long deadline = start + TimeUnit.SECONDS.toNanos(connectTimeoutSeconds);
        long nextReport = start + TimeUnit.SECONDS.toNanos(1);
        while (handshakes.sum() < peers) {
            long now = System.nanoTime();
            if (now - deadline > 0) {
                return false;
            }
            if (now - nextReport > 0) {
                System.out.printf("  %ds: %,d of %,d handshaken%n", TimeUnit.NANOSECONDS.toSeconds(now - start),
                        handshakes.sum(), peers);
                nextReport += TimeUnit.SECONDS.toNanos(1);
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Echoes each request to the DEALER it came from (the routing id the ROUTER prepended addresses it). */
    private static void serve(ZmtpSocket router, AtomicBoolean running) {
        while (running.get()) {
            ZmtpMessage request = router.receive(POLL);
            if (request != null) {
                router.send(request);
            }
        }
    }

    /**
     * Takes the DEALER's replies as they come: each one counted, released and answered with the next request. A
     * reply that is already there completes {@code receiveAsync} on this thread, so those are taken in a loop here
     * rather than by recursion; the first that isn't continues in its callback.
     */
    private void awaitReplies(ZmtpSocket dealer, ByteBuf payload, LongAdder replies, AtomicBoolean running) {
        while (running.get()) {
            CompletableFuture<ZmtpMessage> next = dealer.receiveAsync().toCompletableFuture();
            if (!next.isDone()) {
                next.whenComplete((reply, failure) -> {
                    if (reply != null && answer(dealer, reply, payload, replies, running)) {
                        awaitReplies(dealer, payload, replies, running);
                    }
                });
                return;
            }
            ZmtpMessage reply = next.getNow(null);
            if (reply == null || !answer(dealer, reply, payload, replies, running)) {
                return;
            }
        }
    }

    private boolean answer(ZmtpSocket dealer, ZmtpMessage reply, ByteBuf payload, LongAdder replies,
                           AtomicBoolean running) {
        reply.release();
        replies.increment();
        if (!running.get()) {
            return false;
        }
        // Never blocks: the DEALER has at most --inflight requests queued, far below its SNDHWM.
        return dealer.trySend(request(payload));
    }

    private ZmtpMessage request(ByteBuf payload) {
        ZmtpMessage m = ZmtpMessage.create();
        for (int i = 0; i < options.frames; i++) {
            m.add(payload.duplicate());
        }
        return m;
    }

    private static String kib(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%,d KiB", bytes / 1024);
    }

    /** Heap in use after a full GC, and the process's resident set from /proc (Linux; -1 elsewhere). */
    private record Memory(long heapBytes, long rssBytes) {
        static Memory measure() throws InterruptedException {
            for (int i = 0; i < 3; i++) {
                System.gc();
                Thread.sleep(100);
            }
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            return new Memory(heap, rss());
        }

        private static long rss() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        String[] parts = line.trim().split("\\s+");
                        return Long.parseLong(parts[1]) * 1024;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // Not Linux: no /proc.
            }
            return -1;
        }
    }
}
