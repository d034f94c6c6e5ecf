import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's Majordomo client and worker APIs make a {@code ZMQ.Poller} for every receive and never close it. Here a
 * REQ client does the same against a REP echo thread over tcp, for {@code seconds} seconds, and prints the round trips
 * of each second: a build on which a forgotten poller still costs something slows down as they pile up.
 * Arguments: seconds (10).
 */
public class ForgottenPollerProbe {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket rep = ctx.createSocket(SocketType.REP);
            int port = rep.bindToRandomPort("tcp://127.0.0.1");
            Thread echo = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        byte[] m = rep.recv(0);
                        if (m == null) {
                            return;
                        }
                        rep.send(m, 0);
                    }
                } catch (RuntimeException closed) {
                    // the context closed
                }
            });
            echo.setDaemon(true);
            echo.start();
            ZMQ.Socket req = ctx.createSocket(SocketType.REQ);
            req.connect("tcp://127.0.0.1:" + port);
            StringBuilder perSecond = new StringBuilder();
            long total = 0;
            for (int s = 0; s < seconds; s++) {
                long end = System.nanoTime() + 1_000_000_000L;
                int n = 0;
                while (System.nanoTime() - end < 0) {
                    req.send("ping", 0);
                    ZMQ.Poller items = ctx.createPoller(1);
                    items.register(req, ZMQ.Poller.POLLIN);
                    if (items.poll(2500) > 0 && items.pollin(0)) {
                        req.recv(0);
                        n++;
                    } else {
                        throw new IllegalStateException("no reply in 2.5 s");
                    }
                }
                total += n;
                perSecond.append(s == 0 ? "" : " ").append(n);
            }
            System.out.printf("forgotten pollers: %d round trips in %d s, per second: %s%n", total, seconds,
                    perSecond);
        }
    }
}
