package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPeer;
import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
 *
 * <p>With {@code --radio}, the same with one RADIO and {@code --subscribers} DISHes joined to one group, every message
 * sent to that group; the report is the same, a DISH counting as a subscriber. {@code --endpoint} is passed through
 * as it is given: over tcp (or ipc) the publisher binds it and the subscribers connect to what the bind returns;
 * over udp ({@code --radio} only) it goes the other way, as libzmq has it: each DISH binds the endpoint and the RADIO
 * connects to each distinct endpoint those binds return (one for a multicast group, one per DISH for
 * {@code udp://127.0.0.1:*}). A udp RADIO hears no JOIN and sees no handshake, so the run starts after a fixed
 * 0.5 s, and what the network loses is not counted as dropped: the delivered rate against the published one shows it.
 */
@Command(name = "fanout", mixinStandardHelpOptions = true,
        description = {"PUB -> N SUB (--radio: RADIO -> N DISH) fan-out on zmtp-socket over tcp://127.0.0.1 (or "
                + "--endpoint) in one JVM: messages delivered per second across all subscribers, and the "
                + "publisher's drops at SNDHWM, a line per second.",
            "--radio: the DISHes join one group, and every message goes to it. Over udp (--endpoint udp://...) each "
                + "DISH binds the endpoint and the RADIO connects to each endpoint bound; losses in the network "
                + "are not counted as drops."})
public final class FanoutBench implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** The group every RADIO message goes to and every DISH joins. */
    static final String GROUP = "fanout";

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

    @Option(names = "--radio", description = "RADIO -> DISHes joined to the group '" + GROUP + "' instead of PUB -> "
            + "SUBs; single-part messages (--frames 1).")
    boolean radio;

    @Option(names = "--endpoint", defaultValue = "tcp://127.0.0.1:*", paramLabel = "<endpoint>",
            description = "Where the publisher binds and the subscribers connect (default: ${DEFAULT-VALUE}); a "
                    + "udp:// one (--radio only) is bound by each DISH and connected to by the RADIO, e.g. "
                    + "udp://127.0.0.1:* or a multicast group udp://239.0.0.1:5555.")
    String endpoint;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (subscribers < 1 || receivers < 1 || receivers > subscribers || sndhwm < 0) {
                throw new IllegalArgumentException("--subscribers >= 1, 1 <= --receivers <= --subscribers, "
                        + "--sndhwm >= 0 expected (got " + subscribers + ", " + receivers + ", " + sndhwm + ")");
            }
            if (udp() && !radio) {
                throw new IllegalArgumentException("udp:// carries RADIO and DISH only: add --radio");
            }
            if (endpoint.startsWith("inproc://")) {
                throw new IllegalArgumentException("inproc:// reaches only its own context, and the publisher and the "
                        + "subscribers have one each");
            }
            if (radio && options.frames != 1) {
                throw new IllegalArgumentException("--radio sends single-part messages (got --frames "
                        + options.frames + ")");
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
             ZmtpSocket pub = pubContext.socket(radio ? ZmtpSocketType.RADIO : ZmtpSocketType.PUB)) {
            pub.setOption(ZmtpSocketOption.SNDHWM, sndhwm);
            pub.setOption(ZmtpSocketOption.LINGER, 0);
            String bound = udp() ? null : pub.bind(endpoint);
            Set<String> dishEndpoints = new LinkedHashSet<>();
            try {
                for (int i = 0; i < subscribers; i++) {
                    ZmtpSocket sub = subContext.socket(radio ? ZmtpSocketType.DISH : ZmtpSocketType.SUB);
                    subs.add(sub);
                    sub.setOption(ZmtpSocketOption.LINGER, 0);
                    if (radio) {
                        sub.join(GROUP);
                    } else {
                        sub.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
                    }
                    if (bound != null) {
                        sub.connect(bound);
                    } else {
                        dishEndpoints.add(sub.bind(endpoint));
                    }
                }
                dishEndpoints.forEach(pub::connect);
                if (!awaitSubscribers(pub) || !awaitFirstDelivery(pub, subs)) {
                    System.err.printf("zmtp bench fanout: only %d of %d subscribers connected and heard a message "
                            + "within 60 s%n", connected(pub), subscribers);
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
                        if (radio) {
                            message.group(GROUP);
                        }
                        pub.send(message);
                        published.increment();
                    }
                }, "bench-publisher"));
                threads.forEach(Thread::start);
                String over = bound != null ? bound : dishEndpoints.size() == 1 ? dishEndpoints.iterator().next()
                        : endpoint + " (" + dishEndpoints.size() + " endpoints bound)";
                System.out.printf("zmtp bench fanout: %s -> %d %s over %s, %d x %d B frames per message, SNDHWM %d, "
                                + "%d I/O thread(s) per side, %d receiving thread(s), %s, socket layer, %d s%n",
                        radio ? "RADIO" : "PUB", subscribers, radio ? "DISH (group " + GROUP + ")" : "SUB", over,
                        options.frames, options.size, sndhwm, options.context.ioThreads(),
                        receivers, pubContext.ioTransport(), options.durationSeconds);
                printRates(total, published, pub, delivered);
                running.set(false);
                for (Thread t : threads) {
                    t.join();
                }
            } finally {
                subs.forEach(ZmtpSocket::close);
            }
        } catch (ZmtpSocketException e) {
            // An endpoint the socket layer refuses (a transport it lacks, an address in use): one line, not a trace.
            System.err.println("zmtp bench fanout: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /**
     * Waits until the PUB has every subscriber connected (their subscriptions, sent right after the handshake, are
     * waited for by {@link #awaitFirstDelivery}).
     */
    private boolean awaitSubscribers(ZmtpSocket pub) throws InterruptedException {
        if (udp()) {
            // No handshake, no JOIN: nothing to wait for but the DISHes' sockets being open, which bind did.
            Thread.sleep(500);
            return true;
        }
        long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        while (connected(pub) < subscribers) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /**
     * Over tcp, publishes probes until every subscriber has received one, then drains them all: a subscription
     * (JOIN) that reaches the publisher late on a loaded machine would otherwise count as a subscriber that got
     * nothing. Over udp there is no JOIN to wait for ({@link #awaitSubscribers}).
     */
    private boolean awaitFirstDelivery(ZmtpSocket pub, List<ZmtpSocket> subs) throws InterruptedException {
        if (udp()) {
            return true;
        }
        boolean[] heard = new boolean[subs.size()];
        int left = subs.size();
        long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
        while (left > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            ZmtpMessage probe = ZmtpMessage.of("probe");
            if (radio) {
                probe.group(GROUP);
            }
            pub.trySend(probe);
            Thread.sleep(1);
            for (int i = 0; i < subs.size(); i++) {
                for (ZmtpMessage m; (m = subs.get(i).tryReceive()) != null; ) {
                    m.release();
                    if (!heard[i]) {
                        heard[i] = true;
                        left--;
                    }
                }
            }
        }
        // Probes still on their way: let them arrive, and take them out of the count.
        Thread.sleep(50);
        for (ZmtpSocket sub : subs) {
            for (ZmtpMessage m; (m = sub.tryReceive()) != null; ) {
                m.release();
            }
        }
        return true;
    }

    private boolean udp() {
        return endpoint.startsWith("udp://");
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
                        + "(slowest %,d/s, fastest %,d/s); published %,d/s; dropped at SNDHWM %,d (%,d per subscriber); "
                        + "the slowest subscriber received %,d%n",
                sum / seconds, seconds, subscribers, sum / seconds / subscribers, min / seconds, max / seconds,
                published.sum() / seconds, drops, drops / subscribers, min);
    }

    private static long dropped(ZmtpSocket pub) {
        long d = 0;
        for (ZmtpPeer peer : pub.peers()) {
            d += peer.droppedCount();
        }
        return d;
    }
}
