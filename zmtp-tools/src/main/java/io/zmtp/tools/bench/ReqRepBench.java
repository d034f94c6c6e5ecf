package io.zmtp.tools.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.Payload;
import io.zmtp.tools.ProgressPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request/reply between zmtp-socket sockets in one JVM: {@code --clients} DEALERs each keep {@code --inflight}
 * requests outstanding against one ROUTER, whose thread sends every request back to the peer it came from by its
 * routing id, as a ROUTER-based server does. A request is an empty delimiter (the REQ-style envelope a ROUTER server
 * expects), a 16-byte header (sequence number, send time) and {@code --frames} frames of {@code --size} bytes. The
 * DEALERs and the ROUTER are in contexts of their own (one I/O thread each), as two processes would be.
 */
@Command(name = "reqrep", mixinStandardHelpOptions = true,
        description = "DEALER -> ROUTER request/reply on zmtp-socket over tcp://127.0.0.1 (or ws://) in one JVM, "
                + "a line per second with the average latency.")
public final class ReqRepBench implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(100);

    @Mixin
    BenchOptions options;

    @Option(names = "--inflight", defaultValue = "1000",
            description = "Requests each client keeps outstanding (default: ${DEFAULT-VALUE}).")
    int inflight;

    @Option(names = "--clients", defaultValue = "1",
            description = "DEALER sockets, each with an application thread (default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--transport", defaultValue = "tcp",
            description = "tcp, or ws (ZWS 2.0 over ws://127.0.0.1) (default: ${DEFAULT-VALUE}).")
    String transport;

    @Override
    public Integer call() throws Exception {
        try {
            options.check();
            if (!"tcp".equals(transport) && !"ws".equals(transport)) {
                throw new IllegalArgumentException("--transport: tcp or ws (got " + transport + ")");
            }
            if (inflight < 1 || clients < 1) {
                throw new IllegalArgumentException("--inflight >= 1, --clients >= 1 expected (got " + inflight
                        + ", " + clients + ")");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("zmtp bench reqrep: " + e.getMessage());
            return 2;
        }
        LongAdder replies = new LongAdder();
        LongAdder latencyNanos = new LongAdder();
        ByteBuf payload = Payload.shared(options.size);
        // A ROUTER drops what it can't queue for a peer, and a DEALER blocks its sender at the HWM: queues that hold
        // every request in flight keep the benchmark from measuring drops or its own stalls.
        int hwm = Math.max(1000, 2 * inflight);
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        try (ZmtpContext serverContext = options.context.newContext();
             ZmtpContext clientContext = options.context.newContext();
             ZmtpSocket router = serverContext.socket(ZmtpSocketType.ROUTER)) {
            router.setOption(ZmtpSocketOption.SNDHWM, hwm);
            router.setOption(ZmtpSocketOption.RCVHWM, hwm);
            router.setOption(ZmtpSocketOption.LINGER, 0);
            String endpoint = router.bind("ws".equals(transport) ? "ws://127.0.0.1:*/bench" : "tcp://127.0.0.1:*");
            threads.add(new Thread(() -> serve(router, running), "bench-router"));
            for (int c = 0; c < clients; c++) {
                ZmtpSocket dealer = clientContext.socket(ZmtpSocketType.DEALER);
                dealer.setOption(ZmtpSocketOption.SNDHWM, hwm);
                dealer.setOption(ZmtpSocketOption.RCVHWM, hwm);
                dealer.setOption(ZmtpSocketOption.LINGER, 0);
                dealer.connect(endpoint);
                threads.add(new Thread(() -> request(dealer, payload, running, replies, latencyNanos),
                        "bench-dealer-" + c));
            }
            threads.forEach(Thread::start);
            System.out.printf("zmtp bench reqrep: %d DEALER -> ROUTER over %s, 16 B header + %d x %d B frames, "
                            + "%d in flight per client, %s, socket layer, %d s%n", clients, endpoint, options.frames,
                    options.size, inflight, serverContext.ioTransport(),
                    options.durationSeconds);
            printRates(replies, latencyNanos);
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
        return 0;
    }

    /** Sends each request back where it came from: the routing id the ROUTER prepended addresses the reply. */
    private static void serve(ZmtpSocket router, AtomicBoolean running) {
        while (running.get()) {
            ZmtpMessage request = router.receive(POLL);
            if (request != null) {
                router.send(request);
            }
        }
    }

    private void request(ZmtpSocket dealer, ByteBuf payload, AtomicBoolean running, LongAdder replies,
                         LongAdder latencyNanos) {
        try (dealer) {
            long sequence = 0;
            for (int i = 0; i < inflight; i++) {
                dealer.send(request(sequence++, payload));
            }
            while (running.get()) {
                ZmtpMessage reply = dealer.receive(POLL);
                if (reply == null) {
                    continue;
                }
                ByteBuf header = reply.frame(1);
                long sent = header.getLong(header.readerIndex() + 8);
                reply.release();
                latencyNanos.add(System.nanoTime() - sent);
                replies.increment();
                dealer.send(request(sequence++, payload), POLL);
            }
        }
    }

    private ZmtpMessage request(long sequence, ByteBuf payload) {
        ByteBuf header = Unpooled.buffer(16).writeLong(sequence).writeLong(System.nanoTime());
        ZmtpMessage m = ZmtpMessage.create().add(Unpooled.EMPTY_BUFFER).add(header);
        for (int i = 0; i < options.frames; i++) {
            m.add(payload.duplicate());
        }
        return m;
    }

    private void printRates(LongAdder replies, LongAdder latencyNanos) throws InterruptedException {
        ProgressPrinter.printRequestRates(System.out, options.durationSeconds, replies, latencyNanos);
    }
}
