package io.zmtp.tools.soak;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * The peer {@code zmtp soak} kills and restarts: binds, prints {@code READY}, then serves until killed. A PULL
 * (pattern push-pull) prints each run of consecutive sequence numbers it received as {@code R first last}, at
 * least every 20 ms; a ROUTER (dealer-router) echoes every message, with ROUTER_MANDATORY so that a full pipe makes
 * it wait rather than drop (a drop at HWM is ZeroMQ's rule, but not what the soak measures).
 */
@Command(name = "soak-peer", hidden = true, description = "The peer process of zmtp soak (not for direct use).")
public final class SoakPeerCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<pattern>", description = "push-pull or dealer-router")
    String pattern;

    @Parameters(index = "1", paramLabel = "<bind-to>")
    String bindTo;

    @Override
    public Integer call() throws Exception {
        boolean pull = pattern.equals("push-pull");
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.US_ASCII);
        try (ZmtpContext context = new ZmtpContext();
             ZmtpSocket socket = context.socket(pull ? ZmtpSocketType.PULL : ZmtpSocketType.ROUTER)) {
            socket.setOption(ZmtpSocketOption.LINGER, 0);
            if (!pull) {
                socket.setOption(ZmtpSocketOption.ROUTER_MANDATORY, true);
            }
            bind(socket);
            out.println("READY");
            out.flush();
            if (!pull) {
                while (true) {
                    socket.send(socket.receive());
                }
            }
            long first = -1;
            long last = -1;
            long flushAt = System.nanoTime();
            while (true) {
                ZmtpMessage m = socket.receive(Duration.ofMillis(20));
                if (m != null) {
                    long n = m.frame(0).getLong(m.frame(0).readerIndex());
                    m.release();
                    if (first >= 0 && n != last + 1) {
                        out.println("R " + first + " " + last);
                        first = -1;
                    }
                    if (first < 0) {
                        first = n;
                    }
                    last = n;
                }
                if (m == null || System.nanoTime() - flushAt > 20_000_000L) {
                    if (first >= 0) {
                        out.println("R " + first + " " + last);
                        first = -1;
                    }
                    out.flush();
                    flushAt = System.nanoTime();
                }
            }
        }
    }

    /** The killed peer's port may still be held for a moment: retry for up to 5 s. */
    private void bind(ZmtpSocket socket) throws InterruptedException {
        for (int i = 0; ; i++) {
            try {
                socket.bind(bindTo);
                return;
            } catch (ZmtpSocketException e) {
                if (i >= 100) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
