package io.zmtp.jeromq.guide.perf;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * JeroMQ's remote_thr on its public API: a PUSH socket connects and sends {@code message-count} messages of
 * {@code message-size} bytes; the context's close waits (linger -1) until all are on the wire.
 *
 * <p>Arguments: {@code <connect-to> <message-size> <message-count>}.
 */
public final class RemoteThr {
    private RemoteThr() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.out.println("usage: remote_thr <connect-to> <message-size> <message-count>");
            return;
        }
        String connectTo = args[0];
        int messageSize = Integer.parseInt(args[1]);
        long messageCount = Long.parseLong(args[2]);

        try (ZContext ctx = new ZContext(1)) {
            // ZContext closes its sockets with its own linger (0 by default): keep everything until it is sent.
            ctx.setLinger(-1);
            ZMQ.Socket s = ctx.createSocket(SocketType.PUSH);
            s.connect(connectTo);

            byte[] data = new byte[messageSize];
            for (long i = 0; i != messageCount; i++) {
                if (!s.send(data, 0)) {
                    throw new IllegalStateException("send failed after " + i + " messages");
                }
            }
        }
    }
}
