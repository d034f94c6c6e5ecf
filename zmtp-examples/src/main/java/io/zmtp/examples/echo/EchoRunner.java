package io.zmtp.examples.echo;

import io.zmtp.examples.Lifetime;

import java.io.PrintStream;

/**
 * What both echo services share: start the server and the clients this process runs, print a line per client and a
 * total each second until Ctrl-C or the duration, then stop the clients before the server and print the average.
 */
final class EchoRunner {
    /** Starts one side; what it returns is closed at the end. */
    interface Side {
        AutoCloseable start() throws Exception;
    }

    /** Starts the clients, counting into the stats. */
    interface Clients {
        AutoCloseable start(EchoStats stats) throws Exception;
    }

    private EchoRunner() {
    }

    static int run(EchoOptions options, String name, PrintStream out, Side server, Clients clients)
            throws Exception {
        String bad = options.check();
        if (bad != null) {
            System.err.println("echo: " + bad);
            return 2;
        }
        try (Lifetime lifetime = new Lifetime(options.durationSeconds)) {
            AutoCloseable serverSide = null;
            AutoCloseable clientSide = null;
            EchoStats stats = null;
            try {
                if (options.runsServer()) {
                    serverSide = server.start();
                    out.printf("%s: server on tcp port %d, %d workers, %.1f ms of work per request%n", name,
                            options.port, options.workers, options.workMillis);
                }
                if (options.runsClients()) {
                    stats = new EchoStats(options.clients, out);
                    clientSide = clients.start(stats);
                    out.printf("%s: %d clients to %s:%d, %d requests in flight each, %d B packets%n", name,
                            options.clients, options.host, options.port, options.inFlight, options.size);
                }
                out.flush();
                if (stats == null) {
                    lifetime.awaitStop();
                } else {
                    long start = stats.startNanos();
                    for (int s = 1; !lifetime.awaitStopUntil(start + s * 1_000_000_000L); s++) {
                        stats.printSecond();
                        if (lifetime.isOver()) {
                            break;
                        }
                    }
                }
            } finally {
                // Clients first, so the server sees them leave rather than the other way round.
                closeQuietly(clientSide);
                closeQuietly(serverSide);
            }
            out.printf("%s: stopped%s%n", name, stats == null ? "" : "; " + stats.summary());
            out.flush();
        }
        return 0;
    }

    private static void closeQuietly(AutoCloseable c) throws Exception {
        if (c != null) {
            c.close();
        }
    }
}
