package io.zmtp.jeromq.guide.perf;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * JeroMQ's local_lat on its public API: a REP socket binds and sends back each of {@code roundtrip-count}
 * messages of {@code message-size} bytes.
 *
 * <p>Arguments: {@code <bind-to> <message-size> <roundtrip-count>}.
 */
public final class LocalLat {
    private LocalLat() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.out.println("usage: local_lat <bind-to> <message-size> <roundtrip-count>");
            return;
        }
        String bindTo = args[0];
        int messageSize = Integer.parseInt(args[1]);
        long roundtripCount = Long.parseLong(args[2]);

        try (ZContext ctx = new ZContext(1)) {
            ctx.setLinger(-1);
            ZMQ.Socket s = ctx.createSocket(SocketType.REP);
            s.bind(bindTo);

            for (long i = 0; i != roundtripCount; i++) {
                byte[] data = s.recv(0);
                LocalThr.check(data, messageSize);
                s.send(data, 0);
            }
        }
    }
}
