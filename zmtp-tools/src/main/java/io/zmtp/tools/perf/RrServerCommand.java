package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.SocketTypeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * Request/reply with many requests in flight, echoing side: a ROUTER binds and sends each of
 * {@code max(warmup-count, 1) + request-count} requests back to its sender (routing id + payload), then closes once the
 * last reply is written. Prints nothing on stdout, as local_lat; its peer is {@code rr_client} with the same size,
 * count and warm-up. With {@code --type SERVER}, a SERVER sends each request back to the routing id it arrived with
 * (the peer's, told beside the message, not in a frame); a SERVER takes only CLIENTs, so its peer is
 * {@code rr_client --type CLIENT}.
 */
@Command(name = "rr_server", mixinStandardHelpOptions = true,
        description = "Request/reply throughput, echoing side: ROUTER (or SERVER) binds and echoes "
                + "max(<warmup-count>, 1) + <request-count> requests (peer: rr_client, ours or libzmq's, with "
                + "DEALER or CLIENT).")
public final class RrServerCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<bind-to>",
            description = "e.g. tcp://*:5555 or ipc:///tmp/perf.sock")
    String bindTo;

    @Parameters(index = "1", paramLabel = "<message-size>", description = "bytes per request and per reply")
    int messageSize;

    @Parameters(index = "2", paramLabel = "<request-count>", description = "timed requests")
    long requestCount;

    @Parameters(index = "3", arity = "0..1", paramLabel = "<warmup-count>", defaultValue = "0",
            description = "untimed requests, the client's first included (default: ${DEFAULT-VALUE})")
    long warmupCount;

    @Option(names = {"-t", "--type"}, paramLabel = "<type>", converter = SocketTypeConverter.class,
            description = "ROUTER (default; peer: rr_client --type DEALER) or SERVER (peer: rr_client --type "
                    + "CLIENT), replying to each request's routing id.")
    ZmtpSocketType type;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    SecurityOptions security;

    @Override
    public Integer call() {
        try {
            PerfSupport.checkArguments(messageSize, requestCount);
            PerfSupport.checkWarmup(warmupCount);
            ZmtpSocketType echoer = PerfSupport.checkType(type, ZmtpSocketType.ROUTER, ZmtpSocketType.ROUTER,
                    ZmtpSocketType.SERVER);
            boolean router = echoer == ZmtpSocketType.ROUTER;
            long total = Math.max(warmupCount, 1) + requestCount;
            try (ZmtpContext context = contextOptions.newContext();
                 ZmtpSocket socket = context.socket(echoer)) {
                // A ROUTER silently drops a reply for a peer at SNDHWM, and the client would then wait forever for
                // it: no HWM, and ROUTER_MANDATORY so an unroutable reply fails loudly instead of vanishing. A
                // SERVER waits at SNDHWM instead, and always fails on an unknown routing id; no HWM either, so the
                // echo loop never stalls on a client that is busy sending.
                socket.setOption(ZmtpSocketOption.SNDHWM, 0);
                socket.setOption(ZmtpSocketOption.RCVHWM, 0);
                if (router) {
                    socket.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
                }
                // Close must write the last replies, not discard them (LINGER 0 would): the client counts them.
                // Bounded, so a client that vanished can't keep us here.
                socket.setOption(ZmtpSocketOption.LINGER, (int) PerfSupport.STALL.toMillis());
                security.apply(socket, true);
                security.bind(socket, bindTo);
                try (PerfSupport.Progress progress = new PerfSupport.Progress()) {
                    for (long i = 0; i < total; i++) {
                        // The first request may take as long as the client takes to start; after that, silence
                        // means the client is gone.
                        ZmtpMessage request = i == 0 ? socket.receive() : socket.receive(PerfSupport.STALL);
                        if (request == null) {
                            throw new PerfSupport.PerfException("no request for " + PerfSupport.STALL.toSeconds()
                                    + " s: " + i + " of " + total + " echoed");
                        }
                        if (router) {
                            checkRequest(request, messageSize);
                        } else {
                            // One frame; its routing id, set on receipt, is where the send goes back.
                            PerfSupport.checkSize(request, messageSize);
                        }
                        socket.send(request);
                        progress.increment();
                    }
                }
            }
            return 0;
        } catch (RuntimeException e) {
            System.err.println("rr_server: " + e.getMessage());
            return 1;
        }
    }

    /** A request as a ROUTER receives it: the routing id, then one frame of the expected size. */
    private static void checkRequest(ZmtpMessage request, int expected) {
        if (request.size() != 2 || request.frame(1).readableBytes() != expected) {
            String got = request.size() < 2 ? "no payload" : request.frame(1).readableBytes() + " B";
            int frames = request.size() - 1;
            request.release();
            throw new PerfSupport.PerfException("request of incorrect size received: " + got + " in " + frames
                    + " frame(s) (expected: " + expected + " B in 1 frame)");
        }
    }
}
