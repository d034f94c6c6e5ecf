package io.zmtp.tools.bench;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;

/**
 * The start-up benchmark's program on netty-zmtp's own API (bench/startup.sh), the same steps as zmtp-jeromq-guide's
 * {@code HelloRoundTrip}: a context, a REP bound and a REQ connected over tcp, one round trip, close, and a
 * {@code main} that returns. Run on its own (not through the {@code zmtp} command, whose argument parsing would be
 * counted too).
 */
public final class StartupRoundTrip {
    private StartupRoundTrip() {}

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        long contextNanos;
        long roundTripNanos;
        try (ZmtpContext ctx = new ZmtpContext()) {
            contextNanos = System.nanoTime() - t0;
            ZmtpSocket rep = ctx.socket(ZmtpSocketType.REP);
            String endpoint = rep.bind("tcp://127.0.0.1:*");
            ZmtpSocket req = ctx.socket(ZmtpSocketType.REQ);
            req.connect(endpoint);
            req.send("hello");
            String request = rep.receiveString();
            rep.send("world");
            String reply = req.receiveString();
            roundTripNanos = System.nanoTime() - t0;
            if (!"hello".equals(request) || !"world".equals(reply)) {
                throw new IllegalStateException("got " + request + " and " + reply);
            }
        }
        System.out.println("context_ms=" + contextNanos / 1_000_000 + " roundtrip_ms=" + roundTripNanos / 1_000_000
                + " closed_at=" + System.currentTimeMillis());
    }
}
