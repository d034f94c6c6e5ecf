package io.zmtp.examples.echo;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;

import java.util.ArrayList;
import java.util.List;

/**
 * The echo service's clients on ZeroMQ sockets: each a DEALER on its own connection and thread, keeping a number of
 * requests in flight, sending the next as each reply comes back. A request is an empty delimiter frame and the
 * packet, the envelope a REQ would send, so REP workers can answer it.
 */
final class EchoClients implements AutoCloseable {
    private final ZmtpContext context;
    private final List<Thread> threads = new ArrayList<>();

    EchoClients(EchoOptions options, EchoStats stats, int port) {
        context = ZmtpContext.builder().ioThreads(options.ioThreads).lingerCapMillis(0).build();
        byte[] packet = new byte[options.size];
        String endpoint = "tcp://" + options.host + ":" + port;
        for (int i = 0; i < options.clients; i++) {
            ZmtpSocket client = context.socket(ZmtpSocketType.DEALER);
            client.connect(endpoint);
            EchoStats.Counter counter = stats.client(i);
            Thread t = new Thread(() -> run(client, options.inFlight, packet, counter), "echo-client-" + (i + 1));
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    private static void run(ZmtpSocket client, int inFlight, byte[] packet, EchoStats.Counter counter) {
        try {
            for (int i = 0; i < inFlight; i++) {
                client.send(request(packet));
            }
            for (;;) {
                ZmtpMessage reply = client.receive();
                try {
                    counter.add(reply.frame(reply.size() - 1).readableBytes());
                } finally {
                    reply.release();
                }
                client.send(request(packet));
            }
        } catch (ZmtpSocketException.Closed e) {
            // close(): the context closed the socket under the loop.
        }
    }

    private static ZmtpMessage request(byte[] packet) {
        // The packet's bytes are only read, so every request wraps the same array.
        return ZmtpMessage.wrap(Unpooled.EMPTY_BUFFER, Unpooled.wrappedBuffer(packet));
    }

    @Override
    public void close() throws InterruptedException {
        context.close();
        for (Thread t : threads) {
            t.join(2000);
        }
    }
}
