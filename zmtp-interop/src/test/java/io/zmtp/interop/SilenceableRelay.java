package io.zmtp.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP relay on 127.0.0.1 in front of a peer, which can go silent: it stops forwarding in both directions but keeps
 * every connection open. To each end that is a peer that vanished without a FIN (a frozen process, a host gone behind
 * a NAT), made deterministic and without signals to a process.
 */
final class SilenceableRelay implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean silent;

    /** Relays every connection accepted to {@code target} ("tcp://127.0.0.1:port"). */
    SilenceableRelay(String target) throws IOException {
        this.targetPort = NettyZmtp.port(target);
        this.server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String endpoint() {
        return "tcp://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on nothing is forwarded either way; the connections stay open until {@link #close}. */
    void silence() {
        silent = true;
    }

    private void accept() {
        try {
            while (true) {
                Socket downstream = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(downstream);
                sockets.add(upstream);
                pump(downstream, upstream, "relay-up");
                pump(upstream, downstream, "relay-down");
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to, String name) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    if (silent) {
                        // Drop what was in flight and read no more: the socket stays open, the other end hears nothing.
                        closed.await();
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // a socket closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!silent) {
                    // A real close (FIN) passes through, as it would without the relay.
                    closeQuietly(to);
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed.countDown();
        closeQuietly(server);
        for (AutoCloseable s : sockets) {
            closeQuietly(s);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
