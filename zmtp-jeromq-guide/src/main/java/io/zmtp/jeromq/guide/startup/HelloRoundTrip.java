package io.zmtp.jeromq.guide.startup;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The start-up benchmark's program on JeroMQ's API (bench/startup.sh): what a command-line tool or a short job does
 * once, timed as a whole process. A context, a REP bound and a REQ connected over tcp, one round trip, close; then
 * {@code main} returns, and the JVM must end by itself. It prints when the context was made, when the round trip
 * ended and when close returned (epoch milliseconds for the last, so the script can tell how long the JVM took to
 * exit after it).
 */
public final class HelloRoundTrip {
    private HelloRoundTrip() {}

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        long contextNanos;
        long roundTripNanos;
        try (ZContext ctx = new ZContext()) {
            contextNanos = System.nanoTime() - t0;
            ZMQ.Socket rep = ctx.createSocket(SocketType.REP);
            int port = rep.bindToRandomPort("tcp://127.0.0.1");
            ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
            req.connect("tcp://127.0.0.1:" + port);
            req.send("hello");
            String request = rep.recvStr();
            rep.send("world");
            String reply = req.recvStr();
            roundTripNanos = System.nanoTime() - t0;
            if (!"hello".equals(request) || !"world".equals(reply)) {
                throw new IllegalStateException("got " + request + " and " + reply);
            }
        }
        System.out.println("context_ms=" + contextNanos / 1_000_000 + " roundtrip_ms=" + roundTripNanos / 1_000_000
                + " closed_at=" + System.currentTimeMillis());
    }
}
