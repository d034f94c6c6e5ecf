package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPeer;
import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * PUB fan-out in one JVM: one PUB bound on tcp://127.0.0.1 in a context of its own, {@code --subscribers} SUB sockets
 * (subscribed to everything) connected to it from a second context, as a publishing process and a subscribing one
 * would be. One thread publishes as fast as {@code send} returns; a PUB never blocks, so what a subscriber's
 * connection can't take is dropped at SNDHWM, and those drops are read from the PUB's peers
 * ({@link ZmtpPeer#droppedCount()}). {@code --receivers} threads take the SUBs' messages, each polling its share of
 * the subscribers.
 *
 * <p>Prints a line a second with the messages delivered to all subscribers together, and a summary with the total,
 * the rate per subscriber (mean, and the slowest and fastest subscriber's) and the drops.
 */
@Command(name = "fanout", mixinStandardHelpOptions = true,
        description = "PUB -> N SUB fan-out on zmtp-socket over tcp://127.0.0.1 in one JVM: messages delivered per "
                + "second across all subscribers, and the PUB's drops at SNDHWM, a line per second.")
public final class FanoutBench implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Mixin
    BenchOptions options;

    @Option(names = "--subscribers", defaultValue = "10",
            description = "SUB sockets connected to the PUB (default: ${DEFAULT-VALUE}).")
    int subscribers;

    @Option(names = "--receivers", defaultValue = "1",
            description = "Threads receiving from the SUB sockets, each polling its share (default: ${DEFAULT-VALUE}).")
    int receivers;

    @Option(names = "--sndhwm", defaultValue = "1000",
            description = "The PUB's SNDHWM per subscriber; 0 = unlimited (default: ${DEFAULT-VALUE}).")
    int sndhwm;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (subscribers < 1 || receivers < 1 || receivers > subscribers || sndhwm < 0) {
                throw new IllegalArgumentException("--subscribers >= 1, 1 <= --receivers <= --subscribers, "
                        + "--sndhwm >= 0 expected (got " + subscribers + ", " + receivers + ", " + sndhwm + ")");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench fanout: " + e.getMessage());
            return 2;
        }
        AtomicLongArray delivered = new AtomicLongArray(subscribers);
        LongAdder total = new LongAdder();
        LongAdder published = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        List<ZmtpSocket> subs = new ArrayList<>();
        try (ZmtpContext pubContext = options.context.newContext();
             ZmtpContext subContext = options.context.newContext();
             ZmtpSocket pub = pubContext.socket(ZmtpSocketType.PUB)) {
            pub.setOption(ZmtpSocketOption.SNDHWM, sndhwm);
            pub.setOption(ZmtpSocketOption.LINGER, 0);
            String endpoint = pub.bind("tcp://127.0.0.1:*");
            try {
                for (int i = 0; i < subscribers; i++) {
                    ZmtpSocket sub = subContext.socket(ZmtpSocketType.SUB);
                    subs.add(sub);
                    sub.setOption(ZmtpSocketOption.LINGER, 0);
                    sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
                    sub.connect(endpoint);
                }
                if (!awaitSubscribers(pub)) {
                    System.err.printf("zmtp bench fanout: only %d of %d subscribers connected within 60 s%n",
                            connected(pub), subscribers);
                    return 1;
                }
                for (int r = 0; r < receivers; r++) {
                    int first = r;
                    threads.add(new Thread(() -> receive(subs, first, delivered, total, running),
                            "bench-receiver-" + r));
                }
                ByteBuf payload = Payload.shared(options.size);
                int frames = options.frames;
                threads.add(new Thread(() -> {
                    while (running.get()) {
                        ZmtpMessage message = ZmtpMessage.create();
                        for (int f = 0; f < frames; f++) {
                            message.add(payload.duplicate());
                        }
                        pub.send(message);
                        published.increment();
                    }
                }, "bench-publisher"));
                threads.forEach(Thread::start);
                System.out.printf("zmtp bench fanout: PUB -> %d SUB over %s, %d x %d B frames per message, SNDHWM %d, "
                                + "%d I/O thread(s) per side, %d receiving thread(s), %s, socket layer, %d s%n",
                        subscribers, endpoint, options.frames, options.size, sndhwm, options.context.ioThreads(),
                        receivers, pubContext.isNativeTransport() ? "epoll" : "nio", options.durationSeconds);
                printRates(total, published, pub, delivered);
                running.set(false);
                for (Thread t : threads) {
                    t.join();
                }
            } finally {
                subs.forEach(ZmtpSocket::close);
            }
        }
        return 0;
    }

    /**
     * Waits until the PUB has every subscriber connected, then a little more for their subscriptions (sent right
     * after the handshake) to arrive: messages published before a subscription arrives are filtered, not dropped.
     */
    private boolean awaitSubscribers(ZmtpSocket pub) throws InterruptedException {
        long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        while (connected(pub) < subscribers) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        Thread.sleep(200);
        return true;
    }

    private static int connected(ZmtpSocket pub) {
        int n = 0;
        for (ZmtpPeer peer : pub.peers()) {
            if (peer.state() == ZmtpPeer.State.CONNECTED) {
                n++;
            }
        }
        return n;
    }

    /**
     * Receives from subscribers {@code first}, {@code first + receivers}, ...: takes what each has ready in turn,
     * and waits on a poller only when a whole round found nothing.
     */
    private void receive(List<ZmtpSocket> subs, int first, AtomicLongArray delivered, LongAdder total,
                         AtomicBoolean running) {
        List<ZmtpSocket> mine = new ArrayList<>();
        List<Integer> index = new ArrayList<>();
        for (int i = first; i < subs.size(); i += receivers) {
            mine.add(subs.get(i));
            index.add(i);
        }
        int n = mine.size();
        ZmtpSocket[] sockets = mine.toArray(new ZmtpSocket[0]);
        int[] slots = index.stream().mapToInt(Integer::intValue).toArray();
        long[] counts = new long[n];
        try (ZmtpPoller poller = new ZmtpPoller()) {
            for (ZmtpSocket s : sockets) {
                poller.register(s, ZmtpPoller.Interest.IN);
            }
            while (running.get()) {
                long round = 0;
                for (int i = 0; i < n; i++) {
                    // Up to a burst per subscriber per round, so one busy subscriber can't starve the others.
                    long got = 0;
                    ZmtpMessage m;
                    while (got < 256 && (m = sockets[i].tryReceive()) != null) {
                        m.release();
                        got++;
                    }
                    if (got > 0) {
                        counts[i] += got;
                        delivered.lazySet(slots[i], counts[i]);
                        total.add(got);
                        round += got;
                    }
                }
                if (round == 0) {
                    poller.poll(POLL);
                }
            }
        }
    }

    private void printRates(LongAdder total, LongAdder published, ZmtpSocket pub, AtomicLongArray delivered)
            throws InterruptedException {
        ProgressPrinter printer = new ProgressPrinter(System.out, total);
        long[] last = new long[2];
        long sum = 0;
        for (int s = 0; s < options.durationSeconds; s++) {
            sum += printer.awaitAndPrint(rate -> {
                long p = published.sum();
                long d = dropped(pub);
                String line = String.format("    per subscriber: %,d/s    published: %,d/s    dropped: %,d/s",
                        rate / subscribers, p - last[0], d - last[1]);
                last[0] = p;
                last[1] = d;
                return line;
            });
        }
        long seconds = options.durationSeconds;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < subscribers; i++) {
            long c = delivered.get(i);
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        long drops = dropped(pub);
        System.out.printf("average: %,d messages/s delivered over %d s to %d subscribers, %,d/s per subscriber "
                        + "(slowest %,d/s, fastest %,d/s); published %,d/s; dropped at SNDHWM %,d (%,d per subscriber)%n",
                sum / seconds, seconds, subscribers, sum / seconds / subscribers, min / seconds, max / seconds,
                published.sum() / seconds, drops, drops / subscribers);
    }

    private static long dropped(ZmtpSocket pub) {
        long d = 0;
        for (ZmtpPeer peer : pub.peers()) {
            d += peer.droppedCount();
        }
        return d;
    }
}
