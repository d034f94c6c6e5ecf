package io.zmtp.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@link SocketPeer.JeroMqPeer} as a program: socket_peer.py's commands on stdin, one answer a line on stdout, in
 * order; "exit" (or the end of stdin) closes the sockets and ends it.
 *
 * <p>This class and the peer it runs are compiled against JeroMQ 0.6.0's jar (on this module's test class path);
 * {@link ZmtpJeromqPeer} runs them in a child JVM with zmtp-jeromq in that jar's place. The same JeroMQ-API code,
 * unchanged and not even recompiled, then runs on our sockets.
 */
public final class JeromqApiPeerMain {
    private static final Duration LONGEST_COMMAND = Duration.ofMinutes(5);

    private JeromqApiPeerMain() {}

    public static void main(String[] args) throws Exception {
        SocketPeer.JeroMqPeer peer = new SocketPeer.JeroMqPeer();
        // Answers are printed by their own thread, in the order the commands came, while later commands queue up.
        BlockingQueue<Boolean> submitted = new LinkedBlockingQueue<>();
        Thread printer = new Thread(() -> {
            try {
                while (submitted.take()) {
                    System.out.println(peer.reply(LONGEST_COMMAND));
                    System.out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "answers");
        printer.start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
                if (!line.isBlank()) {
                    peer.submit(line);
                    submitted.put(true);
                }
            }
        }
        submitted.put(false);
        printer.join();
        peer.close();
        System.exit(0);
    }
}
