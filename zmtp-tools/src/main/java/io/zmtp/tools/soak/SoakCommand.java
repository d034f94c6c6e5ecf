package io.zmtp.tools.soak;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A soak with faults: this process connects a PUSH to a PULL (or a DEALER to a ROUTER that echoes) in a peer process
 * that it kills with SIGKILL and restarts every few seconds, sends numbered messages as fast as the peer takes them
 * for the whole run, and counts what arrived against ZeroMQ's guarantee: what the connecting side still queues is
 * delivered after the reconnection, and only what was in flight when the peer died (in the kernel's buffers, in the
 * peer's queue, or received and not yet reported by it) can be lost. So every kill may cost one run of consecutive
 * numbers, and nothing else may go missing; nothing may arrive twice. Exit status 0 when that held.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = "Kill-and-restart soak: PUSH->PULL or DEALER->ROUTER at full speed against a peer process "
                + "(ours or libzmq via pyzmq) killed every few seconds; counts sent, received, lost, duplicated.")
public final class SoakCommand implements Callable<Integer> {
    @Option(names = "--pattern", defaultValue = "push-pull", paramLabel = "<push-pull|dealer-router>",
            description = "push-pull (the peer PULL reports what it got) or dealer-router (the peer ROUTER echoes; "
                    + "replies are counted here). Default: ${DEFAULT-VALUE}.")
    String pattern;

    @Option(names = "--peer", defaultValue = "ours", paramLabel = "<ours|libzmq>",
            description = "ours (a JVM running zmtp soak-peer) or libzmq (pyzmq, see --python). Default: "
                    + "${DEFAULT-VALUE}.")
    String peer;

    @Option(names = "--python", defaultValue = "python3", paramLabel = "<path>",
            description = "Python with pyzmq, for --peer libzmq. Default: ${DEFAULT-VALUE}.")
    String python;

    @Option(names = "--duration", defaultValue = "60", paramLabel = "<seconds>",
            description = "How long to send. Default: ${DEFAULT-VALUE}.")
    double durationSeconds;

    @Option(names = "--kill-every", defaultValue = "3", paramLabel = "<seconds>",
            description = "Kill and restart the peer this often. Default: ${DEFAULT-VALUE}.")
    double killEverySeconds;

    @Option(names = "--size", defaultValue = "16", paramLabel = "<bytes>",
            description = "Message size, at least 8 (the sequence number). Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--endpoint", paramLabel = "<endpoint>",
            description = "Where the peer binds: tcp://host:port, or ws://host:port/path with --peer ours (pyzmq's "
                    + "bundled libzmq has no ws). Default: a free tcp port on 127.0.0.1.")
    String endpoint;

    /** What a run counted; the check is {@link #guaranteeHeld()}. */
    public record Result(String pattern, String peer, double seconds, long kills, long sent, long received,
                         long lost, long duplicated, long gaps, long longestGap) {
        /** Nothing twice, and at most one run of consecutive messages lost per kill. */
        public boolean guaranteeHeld() {
            return duplicated == 0 && gaps <= kills;
        }

        @Override
        public String toString() {
            return String.format("soak %s, peer %s, %.0f s, %d kills: sent %,d, received %,d, lost %,d (%d runs, "
                            + "longest %,d), duplicated %,d: %s", pattern, peer, seconds, kills, sent, received, lost,
                    gaps, longestGap, duplicated, guaranteeHeld() ? "within ZeroMQ's guarantee"
                            : "BEYOND ZeroMQ's guarantee (only in-flight messages, one run per kill, may be lost)");
        }
    }

    @Override
    public Integer call() throws Exception {
        if (!pattern.equals("push-pull") && !pattern.equals("dealer-router")) {
            System.err.println("soak: --pattern must be push-pull or dealer-router");
            return 2;
        }
        if (!peer.equals("ours") && !peer.equals("libzmq")) {
            System.err.println("soak: --peer must be ours or libzmq");
            return 2;
        }
        if (size < 8) {
            System.err.println("soak: --size must be at least 8 (the sequence number)");
            return 2;
        }
        Result r = run();
        System.out.println(r);
        return r.guaranteeHeld() ? 0 : 1;
    }

    public Result run() throws Exception {
        String bindTo = endpoint != null ? endpoint : "tcp://127.0.0.1:" + freePort();
        List<String> command = peer.equals("ours") ? PeerProcess.ours(pattern, bindTo)
                : PeerProcess.libzmq(python, pattern, bindTo);
        boolean pushPull = pattern.equals("push-pull");
        SequenceLedger ledger = new SequenceLedger();
        AtomicLong sent = new AtomicLong();
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicBoolean receiving = new AtomicBoolean(true);
        long kills = 0;
        PeerProcess current = startPeer(command, ledger);
        // The run is timed from the first peer's READY: a JVM can take seconds to start on a busy machine.
        long start = System.nanoTime();
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket socket = context.socket(pushPull ? ZmtpSocketType.PUSH : ZmtpSocketType.DEALER)) {
            socket.setOption(ZmtpSocketOption.LINGER, 0);
            socket.connect(bindTo);
            Thread sender = new Thread(() -> send(socket, sent, sending), "soak-sender");
            Thread receiver = new Thread(() -> receive(socket, ledger, receiving), "soak-receiver");
            sender.start();
            if (!pushPull) {
                receiver.start();
            }
            // Each life of the peer lasts --kill-every from the moment it is bound (starting one can take seconds on
            // a busy machine, and a peer killed as soon as it is up would test nothing).
            long end = start + (long) (durationSeconds * 1e9);
            long life = (long) (killEverySeconds * 1e9);
            while (System.nanoTime() + life < end) {
                TimeUnit.NANOSECONDS.sleep(life);
                current.kill();
                kills++;
                System.err.printf("soak: %5.1f s: killed the peer (%d), sent %,d, received %,d%n",
                        (System.nanoTime() - start) / 1e9, kills, sent.get(), ledger.unique());
                current = startPeer(command, ledger);
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, end - System.nanoTime()));
            sending.set(false);
            sender.join();
            // What the last life of the peer is still owed arrives now; nothing more after 5 s without progress.
            long seen = -1;
            long quietSince = System.nanoTime();
            while (ledger.unique() < sent.get() && System.nanoTime() - quietSince < TimeUnit.SECONDS.toNanos(5)) {
                if (ledger.unique() != seen) {
                    seen = ledger.unique();
                    quietSince = System.nanoTime();
                }
                Thread.sleep(50);
            }
            receiving.set(false);
            if (!pushPull) {
                receiver.join();
            }
        } finally {
            current.kill();
        }
        long total = sent.get();
        long[] gaps = ledger.gaps(total);
        return new Result(pattern, peer, (System.nanoTime() - start) / 1e9, kills, total, ledger.unique(),
                total - ledger.unique(), ledger.duplicates(), gaps[0], gaps[1]);
    }

    private static PeerProcess startPeer(List<String> command, SequenceLedger ledger) throws InterruptedException {
        PeerProcess p = PeerProcess.start(command, ledger);
        if (!p.awaitReady(30_000)) {
            p.kill();
            throw new IllegalStateException("the soak peer did not start: " + String.join(" ", command));
        }
        return p;
    }

    private void send(ZmtpSocket socket, AtomicLong sent, AtomicBoolean sending) {
        byte[] padding = new byte[size - 8];
        long n = 0;
        while (sending.get()) {
            ZmtpMessage m = ZmtpMessage.wrap(Unpooled.buffer(size).writeLong(n).writeBytes(padding));
            if (socket.send(m, Duration.ofMillis(100))) {
                sent.set(++n);
            }
        }
    }

    private static void receive(ZmtpSocket socket, SequenceLedger ledger, AtomicBoolean receiving) {
        while (receiving.get()) {
            ZmtpMessage m = socket.receive(Duration.ofMillis(100));
            if (m != null) {
                long n = m.frame(0).getLong(m.frame(0).readerIndex());
                m.release();
                ledger.record(n, n);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
