package io.zmtp.jeromq.guide.perf;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * JeroMQ's local_thr on its public API: a PULL socket binds, receives {@code message-count} messages of
 * {@code message-size} bytes and prints the throughput from the first message to the last, in libzmq's format
 * (the same lines as {@code zmtp local_thr}).
 *
 * <p>Arguments: {@code <bind-to> <message-size> <message-count>}.
 */
public final class LocalThr {
    private LocalThr() {}

    public static void main(String[] args) {
        if (args.length != 3) {
            System.out.println("usage: local_thr <bind-to> <message-size> <message-count>");
            return;
        }
        String bindTo = args[0];
        int messageSize = Integer.parseInt(args[1]);
        long messageCount = Long.parseLong(args[2]);

        try (ZContext ctx = new ZContext(1)) {
            ZMQ.Socket s = ctx.createSocket(SocketType.PULL);
            s.bind(bindTo);

            byte[] data = s.recv(0);
            check(data, messageSize);

            long watch = System.nanoTime();
            for (long i = 1; i != messageCount; i++) {
                data = s.recv(0);
                check(data, messageSize);
            }
            long elapsed = Math.max((System.nanoTime() - watch) / 1000, 1);

            long throughput = (long) ((double) messageCount / (double) elapsed * 1000000);
            double megabits = (double) (throughput * messageSize * 8) / 1000000;

            System.out.printf("message size: %d [B]%n", messageSize);
            System.out.printf("message count: %d%n", messageCount);
            System.out.printf("mean throughput: %d [msg/s]%n", throughput);
            System.out.printf("mean throughput: %.3f [Mb/s]%n", megabits);
        }
    }

    static void check(byte[] data, int messageSize) {
        if (data == null || data.length != messageSize) {
            throw new IllegalStateException("message of incorrect size received: "
                    + (data == null ? "none" : data.length + " B") + " (expected: " + messageSize + " B)");
        }
    }
}
