import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * libzmq's four perf tools on JeroMQ 0.6.0, with the same arguments and result lines as `zmtp local_thr` etc. and
 * bench/*.c: {@code JeromqPerf local_thr|remote_thr|local_lat|remote_lat <endpoint> <size> <count> [<warmup-count>] [--pubsub]},
 * the warm-up (untimed messages or round trips before the counted ones) as ours take it.
 * And {@code JeromqPerf inproc_thr <size> <seconds>}: the shape of {@code zmtp bench throughput --socket --transport
 * inproc}, with the same output lines.
 */
public final class JeromqPerf {
    public static void main(String[] args) throws InterruptedException {
        if (args.length == 3 && "inproc_thr".equals(args[0])) {
            inprocThr(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            return;
        }
        if (args.length < 4) {
            System.err.println("usage: JeromqPerf local_thr|remote_thr|local_lat|remote_lat <endpoint> <size> <count> [<warmup-count>] [--pubsub]");
            System.exit(1);
        }
        String endpoint = args[1];
        int size = Integer.parseInt(args[2]);
        long count = Long.parseLong(args[3]);
        boolean pubsub = "--pubsub".equals(args[args.length - 1]);
        int positional = pubsub ? args.length - 1 : args.length;
        long warmup = positional > 4 ? Long.parseLong(args[4]) : 0;
        try (ZContext ctx = new ZContext(1)) {
            ctx.setLinger(-1);
            switch (args[0]) {
                case "local_thr":
                    localThr(ctx, endpoint, size, count, warmup, pubsub);
                    break;
                case "remote_thr":
                    remoteThr(ctx, endpoint, size, warmup + count, pubsub);
                    break;
                case "local_lat":
                    localLat(ctx, endpoint, size, warmup + count);
                    break;
                case "remote_lat":
                    remoteLat(ctx, endpoint, size, count, warmup);
                    break;
                default:
                    System.err.println("unknown tool: " + args[0]);
                    System.exit(1);
            }
        }
    }

    private static void check(byte[] m, int size) {
        if (m == null || m.length != size) {
            System.err.println("message of incorrect size received");
            System.exit(1);
        }
    }

    private static void localThr(ZContext ctx, String endpoint, int size, long count, long warmup, boolean pubsub) {
        ZMQ.Socket s = ctx.createSocket(pubsub ? SocketType.SUB : SocketType.PULL);
        if (pubsub) {
            s.subscribe(new byte[0]);
        }
        s.bind(endpoint);
        for (long i = 0; i < warmup; i++) {
            check(s.recv(0), size);
        }
        check(s.recv(0), size);
        long start = System.nanoTime();
        for (long i = 1; i < count; i++) {
            check(s.recv(0), size);
        }
        long elapsed = Math.max((System.nanoTime() - start) / 1000, 1);
        long throughput = (long) ((double) count / (double) elapsed * 1_000_000);
        double megabits = (double) (throughput * size * 8) / 1_000_000;
        System.out.printf("message size: %d [B]%n", size);
        System.out.printf("message count: %d%n", count);
        System.out.printf("mean throughput: %d [msg/s]%n", throughput);
        System.out.printf("mean throughput: %.3f [Mb/s]%n", megabits);
    }

    private static void remoteThr(ZContext ctx, String endpoint, int size, long count, boolean pubsub) {
        ZMQ.Socket s = ctx.createSocket(pubsub ? SocketType.XPUB : SocketType.PUSH);
        if (pubsub) {
            s.setXpubNoDrop(true);
        }
        s.connect(endpoint);
        if (pubsub) {
            s.recv(0); // the subscription
        }
        byte[] payload = new byte[size];
        for (long i = 0; i < count; i++) {
            s.send(payload, 0);
        }
    }

    private static void localLat(ZContext ctx, String endpoint, int size, long count) {
        ZMQ.Socket s = ctx.createSocket(SocketType.REP);
        s.bind(endpoint);
        for (long i = 0; i < count; i++) {
            byte[] m = s.recv(0);
            check(m, size);
            s.send(m, 0);
        }
    }

    private static void remoteLat(ZContext ctx, String endpoint, int size, long count, long warmup) {
        ZMQ.Socket s = ctx.createSocket(SocketType.REQ);
        s.connect(endpoint);
        byte[] payload = new byte[size];
        long[] rtt = new long[(int) count];
        for (long i = 0; i < warmup; i++) {
            s.send(payload, 0);
            check(s.recv(0), size);
        }
        long start = System.nanoTime();
        long last = start;
        for (int i = 0; i < count; i++) {
            s.send(payload, 0);
            check(s.recv(0), size);
            long now = System.nanoTime();
            rtt[i] = now - last;
            last = now;
        }
        double elapsed = (last - start) / 1000;
        Arrays.sort(rtt);
        System.out.printf("message size: %d [B]%n", size);
        System.out.printf("roundtrip count: %d%n", count);
        System.out.printf("average latency: %.3f [us]%n", elapsed / (count * 2));
        System.out.printf("latency p50: %.3f [us]%n", pct(rtt, 50));
        System.out.printf("latency p90: %.3f [us]%n", pct(rtt, 90));
        System.out.printf("latency p99: %.3f [us]%n", pct(rtt, 99));
        System.out.printf("latency p99.9: %.3f [us]%n", pct(rtt, 99.9));
        System.out.printf("latency max: %.3f [us]%n", rtt[rtt.length - 1] / 2000.0);
    }

    /**
     * PUSH -> PULL over inproc in one context, one thread sending and one receiving for {@code seconds}, a line per
     * second of the receive rate, then the average: what {@code zmtp bench throughput --socket --transport inproc}
     * does (default HWMs, 1000 each; a payload array shared by every message, as ours shares one buffer).
     */
    private static void inprocThr(int size, int seconds) throws InterruptedException {
        try (ZContext ctx = new ZContext(1)) {
            ctx.setLinger(0);
            ZMQ.Socket pull = ctx.createSocket(SocketType.PULL);
            ZMQ.Socket push = ctx.createSocket(SocketType.PUSH);
            pull.bind("inproc://bench-throughput");
            push.connect("inproc://bench-throughput");
            pull.setReceiveTimeOut(100);
            push.setSendTimeOut(100);
            AtomicBoolean running = new AtomicBoolean(true);
            LongAdder received = new LongAdder();
            byte[] payload = new byte[size];
            Thread sender = new Thread(() -> {
                while (running.get()) {
                    push.send(payload, 0);
                }
            }, "bench-sender");
            Thread receiver = new Thread(() -> {
                while (running.get()) {
                    if (pull.recv(0) != null) {
                        received.increment();
                    }
                }
            }, "bench-receiver");
            sender.start();
            receiver.start();
            System.out.printf("jeromq inproc throughput: PUSH -> PULL over inproc://bench-throughput, %d B, %d s%n",
                    size, seconds);
            long start = System.nanoTime();
            long last = start;
            long lastTotal = 0;
            long sum = 0;
            for (int s = 1; s <= seconds; s++) {
                long wait;
                while ((wait = start + s * 1_000_000_000L - System.nanoTime()) > 0) {
                    Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                }
                long now = System.nanoTime();
                long total = received.sum();
                long rate = Math.round((total - lastTotal) * 1e9 / (now - last));
                System.out.printf("%ds:%,13d messages/s.    (total:%,13d)%n", s, rate, total);
                sum += rate;
                last = now;
                lastTotal = total;
            }
            System.out.printf("average: %,d messages/s over %d s%n", sum / seconds, seconds);
            running.set(false);
            sender.join();
            receiver.join();
        }
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(i, sorted.length - 1))] / 2000.0;
    }
}
