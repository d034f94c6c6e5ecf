package io.zmtp.socket;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;

/**
 * The victim of {@link HostileCommandsIT}: a real socket in its own JVM, so that its resident memory is its own and a
 * defect that eats the heap kills the victim, not the test. {@link #main} is the child: it binds one socket, serves
 * it (see {@link #serve}), and answers one-line requests on stdin with one line starting {@code "@ "} on stdout
 * (anything else the child prints, such as a log line, is skipped). The rest of the class is the test's handle on it.
 */
final class VictimProcess implements AutoCloseable {
    /** The child's heap and direct memory: small, so that an unbounded defect ends in an OutOfMemoryError quickly. */
    static final String MAX_HEAP = "-Xmx192m";
    static final String MAX_DIRECT = "-XX:MaxDirectMemorySize=192m";

    private static final AtomicInteger STARTS = new AtomicInteger();

    final String endpoint;
    /** The CURVE server's public key (Z85), or null under NULL. */
    final String serverKey;
    final Path log;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private volatile String lastOutput = "";

    /** Memory as the child sees it, in bytes; {@code direct} is what Netty's allocator has taken from the OS. */
    record Memory(long heap, long direct, long rss, long hwm) {
        Memory minus(Memory before) {
            return new Memory(heap - before.heap, direct - before.direct, rss - before.rss, hwm - before.hwm);
        }
    }

    private VictimProcess(Process process, Path log) throws IOException {
        this.process = process;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("@ ")) {
                        replies.add(line.substring(2));
                    } else {
                        lastOutput = line; // e.g. the JVM's "Terminating due to java.lang.OutOfMemoryError: ..."
                    }
                }
            } catch (IOException ignored) {
                // the child is gone; request() reports it
            }
        }, "victim-stdout");
        reader.setDaemon(true);
        reader.start();
        String[] ready = request(null).split(" ");
        this.endpoint = ready[0];
        this.serverKey = ready[1].equals("-") ? null : ready[1];
    }

    /**
     * Starts a child binding {@code type} on {@code transport} ("tcp" or "ipc"), CURVE if {@code curve}, with
     * MAX_SUBSCRIPTION_BYTES set to {@code subscriptionBudget}.
     */
    static VictimProcess start(ZmtpSocketType type, String transport, boolean curve, long subscriptionBudget)
            throws IOException {
        // One log per start: a victim started again after one died must not overwrite the dead one's last words.
        Path log = Path.of("target", "hostile-victims", type + "-" + transport + "-" + (curve ? "CURVE" : "NULL")
                + "-" + STARTS.incrementAndGet() + ".log");
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                MAX_HEAP, MAX_DIRECT,
                // An OutOfMemoryError anywhere ends the child: the test sees a dead victim, not a half-broken one.
                "-XX:+ExitOnOutOfMemoryError",
                // The test JVM runs the paranoid leak detector; the victim would spend its time in stack traces.
                "-Dio.netty.leakDetection.level=disabled",
                "-cp", System.getProperty("java.class.path"),
                VictimProcess.class.getName(),
                type.name(), transport, curve ? "CURVE" : "NULL", Long.toString(subscriptionBudget)));
        Process p = new ProcessBuilder(command).redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
        return new VictimProcess(p, log);
    }

    /** Sends one request line (none if null) and returns the child's reply; fails if the child died or hangs. */
    synchronized String request(String line) throws IOException {
        if (line != null) {
            try {
                stdin.write(line + "\n");
                stdin.flush();
            } catch (IOException e) {
                throw new AssertionError("victim died: " + exitStatus(), e);
            }
        }
        try {
            long deadline = System.nanoTime() + scaled(Duration.ofSeconds(60)).toNanos();
            while (System.nanoTime() < deadline) {
                String reply = replies.poll(100, TimeUnit.MILLISECONDS);
                if (reply != null) {
                    return reply;
                }
                if (!process.isAlive()) {
                    throw new AssertionError("victim died: " + exitStatus());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new AssertionError("victim did not answer '" + line + "' within 60 s (log " + log + ")");
    }

    private String exitStatus() {
        try {
            process.waitFor(scaledSeconds(5), TimeUnit.SECONDS);
            String tail = Files.readString(log);
            tail = tail.substring(Math.max(0, tail.length() - 2000));
            return "exit " + (process.isAlive() ? "none yet" : process.exitValue()) + " (" + lastOutput
                    + "), end of its log " + log + ":\n" + tail;
        } catch (Exception e) {
            return "(no status: " + e + ")";
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Memory measure() throws IOException {
        String[] f = request("measure").split(" ");
        return new Memory(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
    }

    int peers() throws IOException {
        return Integer.parseInt(request("peers"));
    }

    /** How many events of {@code type} the socket's monitor has seen since it started. */
    long events(ZmtpSocketEvent.Type type) throws IOException {
        return Long.parseLong(request("events " + type.name()));
    }

    /** PULL: messages from the good peer received; PUB and XPUB: ticks published; ROUTER, REP: messages echoed. */
    long served() throws IOException {
        return Long.parseLong(request("served"));
    }

    /** Waits until the socket has {@code expected} peers (a hostile one left, or arrived); returns the count. */
    int awaitPeers(int expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + scaled(Duration.ofSeconds(15)).toNanos();
        int n = peers();
        while (n != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            n = peers();
        }
        return n;
    }

    /**
     * The child's largest classes by heap (jcmd GC.class_histogram, first {@code lines} lines), for a failure that
     * must say what was held; empty if jcmd is not there.
     */
    String histogram(int lines) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()), "GC.class_histogram").redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor(scaledSeconds(30), TimeUnit.SECONDS);
            return out.lines().limit(lines).collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Ends the child at once: one that failed an attack may be out of memory and thrashing in its GC. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(scaledSeconds(10), TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        try {
            if (process.isAlive()) {
                request("quit");
            }
            if (!process.waitFor(scaledSeconds(10), TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (AssertionError dead) {
            // already gone: the test that saw it has reported it
        }
    }

    // ---------------------------------------------------------------- the child

    private static final Map<ZmtpSocketEvent.Type, AtomicLong> EVENTS = new EnumMap<>(ZmtpSocketEvent.Type.class);
    private static final AtomicLong SERVED = new AtomicLong();
    private static volatile boolean running = true;

    public static void main(String[] args) throws Exception {
        ZmtpSocketType type = ZmtpSocketType.valueOf(args[0]);
        String transport = args[1];
        boolean curve = args[2].equals("CURVE");
        long budget = Long.parseLong(args[3]);
        PrintStream out = System.out;
        for (ZmtpSocketEvent.Type t : ZmtpSocketEvent.Type.values()) {
            EVENTS.put(t, new AtomicLong());
        }
        Path ipcDir = Files.createTempDirectory("hostile-victim");
        try (ZmtpContext context = new ZmtpContext(); ZmtpSocket socket = context.socket(type)) {
            socket.monitor(e -> EVENTS.get(e.type()).incrementAndGet());
            socket.setOption(ZmtpSocketOption.LINGER, 0);
            String key = "-";
            if (curve) {
                CurveKeyPair keys = CurveKeyPair.generate();
                socket.setOption(ZmtpSocketOption.CURVE_SERVER, true);
                socket.setOption(ZmtpSocketOption.CURVE_SECRETKEY, keys.secretKey());
                key = keys.publicKeyZ85();
            }
            socket.setOption(ZmtpSocketOption.MAX_SUBSCRIPTION_BYTES, budget);
            String endpoint = socket.bind(transport.equals("ipc") ? "ipc://" + ipcDir.resolve("victim.sock")
                    : "tcp://127.0.0.1:*");
            Thread server = new Thread(() -> serve(socket), "victim-serve");
            server.start();
            out.println("@ " + endpoint + " " + key);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            for (String line; (line = in.readLine()) != null && !line.equals("quit"); ) {
                out.println("@ " + answer(line, socket));
                out.flush();
            }
            running = false;
            server.join(2000);
        } finally {
            Files.deleteIfExists(ipcDir.resolve("victim.sock"));
            Files.deleteIfExists(ipcDir);
        }
        out.println("@ bye");
        out.flush();
        System.exit(0);
    }

    private static String answer(String line, ZmtpSocket socket) throws Exception {
        String[] w = line.split(" ");
        switch (w[0]) {
            case "measure":
                return measureHere();
            case "peers":
                return Integer.toString(socket.peers().size());
            case "events":
                return Long.toString(EVENTS.get(ZmtpSocketEvent.Type.valueOf(w[1])).get());
            case "served":
                return Long.toString(SERVED.get());
            default:
                return "unknown request " + line;
        }
    }

    /**
     * Heap used after a few collections (what is still reachable), the direct memory of Netty's default allocator
     * (what its arenas hold from the OS), and VmRSS and VmHWM of this process.
     */
    private static String measureHere() throws Exception {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(30);
        }
        // Runtime, not MemoryMXBean: the tests are patched into module io.zmtp.socket, which doesn't read
        // java.management; the figure is the same (committed heap minus free).
        Runtime runtime = Runtime.getRuntime();
        long heap = runtime.totalMemory() - runtime.freeMemory();
        long direct = ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider
                ? ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric().usedDirectMemory()
                : PlatformDependent.usedDirectMemory();
        long rss = 0;
        long hwm = 0;
        for (String s : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (s.startsWith("VmRSS:")) {
                rss = kib(s);
            } else if (s.startsWith("VmHWM:")) {
                hwm = kib(s);
            }
        }
        return heap + " " + direct + " " + rss + " " + hwm;
    }

    private static long kib(String statusLine) {
        return Long.parseLong(statusLine.replaceAll("[^0-9]", "")) * 1024;
    }

    /**
     * What the victim's application does: PULL counts what the good peer sends; ROUTER and REP echo everything
     * (so that a hostile peer that never reads has replies piling up toward SNDHWM); PUB and XPUB publish a numbered
     * "tick" every 10 ms, and XPUB reads and drops the subscriptions it is told of.
     */
    private static void serve(ZmtpSocket socket) {
        Duration poll = Duration.ofMillis(10);
        try {
            while (running) {
                switch (socket.type()) {
                    case PUB:
                    case XPUB:
                        socket.send(ZmtpMessage.of("tick", Long.toString(SERVED.incrementAndGet())));
                        if (socket.type() == ZmtpSocketType.XPUB) {
                            for (ZmtpMessage m; (m = socket.tryReceive()) != null; ) {
                                m.release();
                            }
                        }
                        Thread.sleep(10);
                        break;
                    default:
                        ZmtpMessage m = socket.receive(poll);
                        if (m == null) {
                            continue;
                        }
                        if (socket.type() == ZmtpSocketType.PULL) {
                            if (m.frameString(0).startsWith("good")) {
                                SERVED.incrementAndGet();
                            }
                            m.release();
                        } else {
                            socket.send(m);
                            SERVED.incrementAndGet();
                        }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (running) {
                e.printStackTrace();
            }
        }
    }
}
