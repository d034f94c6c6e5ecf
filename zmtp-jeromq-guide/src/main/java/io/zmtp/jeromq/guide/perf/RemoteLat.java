package io.zmtp.jeromq.guide.perf;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * JeroMQ's remote_lat on its public API: a REQ socket connects, makes {@code roundtrip-count} round trips of
 * {@code message-size} bytes and prints the average one-way latency (half a round trip) in libzmq's format.
 *
 * <p>Arguments: {@code <connect-to> <message-size> <roundtrip-count>}.
 */
public final class RemoteLat {
    private RemoteLat() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.out.println("usage: remote_lat <connect-to> <message-size> <roundtrip-count>");
            return;
        }
        String connectTo = args[0];
        int messageSize = Integer.parseInt(args[1]);
        long roundtripCount = Long.parseLong(args[2]);

        try (ZContext ctx = new ZContext(1)) {
            ZMQ.Socket s = ctx.createSocket(SocketType.REQ);
            s.connect(connectTo);

            byte[] data = new byte[messageSize];
            long watch = System.nanoTime();
            for (long i = 0; i != roundtripCount; i++) {
                s.send(data, 0);
                data = s.recv(0);
                LocalThr.check(data, messageSize);
            }
            double elapsed = (System.nanoTime() - watch) / 1000.0;
            double latency = elapsed / (roundtripCount * 2);

            System.out.printf("message size: %d [B]%n", messageSize);
            System.out.printf("roundtrip count: %d%n", roundtripCount);
            System.out.printf("average latency: %.3f [us]%n", latency);
        }
    }
}
