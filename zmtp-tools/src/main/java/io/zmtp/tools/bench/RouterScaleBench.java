package io.zmtp.tools.bench;

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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One ROUTER, many DEALERs: a ROUTER bound on tcp://127.0.0.1 in a context of its own, {@code --peers} DEALER sockets
 * connected to it from a second context ({@link DealerFleet}), in this JVM or, with {@code --dealer-process}, in a
 * child JVM (the ROUTER's process then holds one descriptor per peer instead of two, which is what lets 10,000 peers
 * fit under a 20,000-descriptor limit). Measures what a peer costs: the time until the ROUTER has completed every
 * handshake ({@link ZmtpSocketEvent.Type#HANDSHAKE_SUCCEEDED}), heap used after a GC and resident set before the
 * DEALERs exist and once all are connected, for each process; then the rate at which one thread on the ROUTER echoes
 * requests while each DEALER keeps {@code --inflight} outstanding.
 *
 * <p>With {@code --active N} only N of the DEALERs, spread evenly over the fleet, send requests; the rest stay
 * connected and silent. That is the shape where a ROUTER's cost per message can depend on how many quiet peers it
 * holds (its fair queue visiting pipes with nothing to read), which a fleet of busy peers cannot show.
 *
 * <p>In one JVM a figure "per peer" is a DEALER socket and its connection plus the ROUTER's peer and its connection;
 * with {@code --dealer-process} the two sides are reported apart.
 */
@Command(name = "router-scale", mixinStandardHelpOptions = true,
        description = "One ROUTER and N DEALERs on zmtp-socket over tcp://127.0.0.1: connect time, heap and resident "
                + "memory per peer, then the request/reply rate, a line per second.")
public final class RouterScaleBench implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(100);
    private static final String CHILD = "dealers: ";

    @Mixin
    BenchOptions options;

    @Option(names = "--peers", defaultValue = "1000",
            description = "DEALER sockets connected to the ROUTER (default: ${DEFAULT-VALUE}).")
    int peers;

    @Option(names = "--inflight", defaultValue = "4",
            description = "Requests each DEALER keeps outstanding (default: ${DEFAULT-VALUE}).")
    int inflight;

    @Option(names = "--active", paramLabel = "N",
            description = "DEALERs that send requests, spread evenly over the fleet; the others stay connected and "
                    + "silent (default: all of them).")
    Integer active;

    @Option(names = "--connect-timeout", defaultValue = "120",
            description = "Seconds to wait for every handshake (default: ${DEFAULT-VALUE}).")
    int connectTimeoutSeconds;

    @Option(names = "--dealer-process",
            description = "Run the DEALERs in a child JVM (same class path and JVM options) instead of this one.")
    boolean dealerProcess;

    /** The child's side of --dealer-process: connect to this endpoint, report, and serve lines from stdin. */
    @Option(names = "--dealer-side", hidden = true)
    String dealerSide;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (peers < 1 || inflight < 1 || connectTimeoutSeconds < 1) {
                throw new IllegalArgumentException("--peers >= 1, --inflight >= 1, --connect-timeout >= 1 expected "
                        + "(got " + peers + ", " + inflight + ", " + connectTimeoutSeconds + ")");
            }
            if (active != null && (active < 1 || active > peers)) {
                throw new IllegalArgumentException("--active between 1 and --peers (" + peers + ") expected (got "
                        + active + ")");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench router-scale: " + e.getMessage());
            return 2;
        }
        return dealerSide != null ? runDealerSide() : runRouter();
    }

    /** How many DEALERs send: {@code --active}, or all of them. */
    private int senders() {
        return active != null ? active : peers;
    }

    private int runRouter() throws Exception {
        LongAdder handshakes = new LongAdder();
        LongAdder echoed = new LongAdder();
        AtomicBoolean running = new AtomicBoolean(true);
        try (ZmtpContext routerContext = options.context.newContext();
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
                            + "%d in flight per DEALER%s, %d I/O thread(s) per side, DEALERs in %s, %s, socket "
                            + "layer, %d s%n", peers, endpoint, options.frames, options.size, inflight, sendingNote(),
                    options.context.ioThreads(), dealerProcess ? "a child JVM" : "this JVM",
                    routerContext.ioTransport(), options.durationSeconds);
            ProcessMemory before = ProcessMemory.measure();
            System.out.println("before: " + before.describe());
            Dealers dealers = dealerProcess ? new ChildDealers(endpoint) : new LocalDealers(endpoint);
            try {
                long start = dealers.startConnecting();
                if (!awaitHandshakes(handshakes, start)) {
                    System.err.printf("zmtp bench router-scale: %d of %d handshakes within %d s%n", handshakes.sum(),
                            peers, connectTimeoutSeconds);
                    return 1;
                }
                long connectMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                ProcessMemory after = ProcessMemory.measure();
                System.out.printf("connected: %d peers in %,d ms; %,.0f handshakes/s%n", peers, connectMillis,
                        peers * 1000.0 / Math.max(1, connectMillis));
                String perPeer = after.describeGrowth(before, peers);
                ProcessMemory[] child = dealers.memory();
                if (child != null) {
                    perPeer = "ROUTER process " + perPeer + "; DEALER process " + child[1].describeGrowth(child[0], peers);
                    System.out.println("after: ROUTER process " + after.describe() + "; DEALER process "
                            + child[1].describe());
                } else {
                    System.out.println("after: " + after.describe());
                }
                System.out.println("per peer: " + perPeer);

                Thread server = new Thread(() -> serve(router, running, echoed), "bench-router");
                server.start();
                dealers.startRequests();
                long sum = 0;
                ProgressPrinter printer = new ProgressPrinter(System.out, echoed);
                for (int s = 0; s < options.durationSeconds; s++) {
                    sum += printer.awaitAndPrint("");
                }
                running.set(false);
                server.join();
                // Anything new goes at the end of the line: scripts read it by its first fields.
                System.out.printf("average: %,d requests/s over %d s with %d peers (%d in flight each); connect %,d ms; "
                                + "per peer: %s%s%n", sum / options.durationSeconds, options.durationSeconds, peers,
                        inflight, connectMillis, perPeer, senders() < peers
                                ? "; sending: " + senders() + " of " + peers + " peers" : "");
            } finally {
                running.set(false);
                dealers.close();
            }
        }
        return 0;
    }

    /** Said in the header only when some DEALERs are silent, so the default run prints what it always did. */
    private String sendingNote() {
        return senders() < peers ? " (" + senders() + " of them sending, the rest silent)" : "";
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
    private static void serve(ZmtpSocket router, AtomicBoolean running, LongAdder echoed) {
        while (running.get()) {
            ZmtpMessage request = router.receive(POLL);
            if (request != null) {
                router.send(request);
                echoed.increment();
            }
        }
    }

    /** The DEALER side, wherever it runs. */
    private interface Dealers extends AutoCloseable {
        /** Starts connecting every DEALER; returns the {@link System#nanoTime()} the first connect began at. */
        long startConnecting() throws Exception;

        /** The DEALER process's memory before and after connecting; null if the DEALERs share this process. */
        ProcessMemory[] memory() throws Exception;

        void startRequests() throws Exception;

        @Override
        void close() throws Exception;
    }

    private final class LocalDealers implements Dealers {
        private final String endpoint;
        private final ZmtpContext context = options.context.newContext();
        private final DealerFleet fleet;

        LocalDealers(String endpoint) {
            this.endpoint = endpoint;
            this.fleet = new DealerFleet(context, inflight, options.frames, Payload.shared(options.size));
        }

        @Override
        public long startConnecting() {
            long start = System.nanoTime();
            fleet.connect(endpoint, peers);
            return start;
        }

        @Override
        public ProcessMemory[] memory() {
            return null;
        }

        @Override
        public void startRequests() {
            fleet.start(senders());
        }

        @Override
        public void close() {
            fleet.close();
            context.close();
        }
    }

    /**
     * A child JVM running {@link #runDealerSide()}: it answers on its stdout with "dealers: before heap=N rss=N" as it
     * starts connecting, "dealers: connected heap=N rss=N" once all its DEALERs have handshaken, and takes "go" (start
     * requests) and end of input (close and exit) on its stdin.
     */
    private final class ChildDealers implements Dealers {
        private final Process process;
        private final BufferedReader out;
        private final PrintStream in;
        private ProcessMemory before;

        ChildDealers(String endpoint) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add("io.zmtp.tools.Zmtp");
            command.addAll(List.of("bench", "router-scale", "--dealer-side", endpoint, "--peers", "" + peers,
                    "--active", "" + senders(), "--inflight", "" + inflight, "--size", "" + options.size,
                    "--frames", "" + options.frames, "--connect-timeout", "" + connectTimeoutSeconds));
            command.addAll(options.context.asArguments());
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        }

        private String expect(String what) throws IOException {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(CHILD + what + " ")) {
                    return line.substring(CHILD.length() + what.length() + 1);
                }
                System.out.println("  (child) " + line);
            }
            throw new IOException("the DEALER process ended before it said '" + what + "'");
        }

        @Override
        public long startConnecting() throws IOException {
            before = ProcessMemory.decode(expect("before"));
            return System.nanoTime();
        }

        @Override
        public ProcessMemory[] memory() throws IOException {
            return new ProcessMemory[] {before, ProcessMemory.decode(expect("connected"))};
        }

        @Override
        public void startRequests() {
            in.println("go");
        }

        @Override
        public void close() throws InterruptedException {
            in.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private int runDealerSide() throws Exception {
        try (ZmtpContext context = options.context.newContext();
             DealerFleet fleet = new DealerFleet(context, inflight, options.frames, Payload.shared(options.size))) {
            System.out.println(CHILD + "before " + ProcessMemory.measure().encode());
            fleet.connect(dealerSide, peers);
            if (!fleet.awaitConnected(connectTimeoutSeconds, TimeUnit.SECONDS)) {
                System.err.println("zmtp bench router-scale: DEALERs not all connected within " + connectTimeoutSeconds
                        + " s");
                return 1;
            }
            System.out.println(CHILD + "connected " + ProcessMemory.measure().encode());
            BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = stdin.readLine()) != null) {
                if (line.equals("go")) {
                    fleet.start(senders());
                }
            }
            fleet.stop();
        }
        return 0;
    }
}
