package io.zmtp.examples.echo;

import io.zmtp.examples.Lifetime;

import java.io.PrintStream;

/**
 * What both echo services share: start the server and the clients this process runs, print a line per client and a
 * total each second until Ctrl-C or the duration, then stop the clients before the server and print the average.
 */
final class EchoRunner {
    /** A running server: closed at the end. */
    interface Server extends AutoCloseable {
        /** The tcp port it listens on (the one given, or the one picked for port 0). */
        int port();
    }

    /** Starts the server. */
    interface ServerSide {
        Server start() throws Exception;
    }

    /** Starts the clients, connecting to {@code port} and counting into the stats; closed at the end. */
    interface ClientSide {
        AutoCloseable start(EchoStats stats, int port) throws Exception;
    }

    private EchoRunner() {
    }

    static int run(EchoOptions options, String name, PrintStream out, ServerSide server, ClientSide clients)
            throws Exception {
        String bad = options.check();
        if (bad != null) {
            System.err.println("echo: " + bad);
            return 2;
        }
        // With clients, the duration is counted in printed seconds (so --duration 5 prints five); a server alone
        // just runs that long.
        long serverOnlyDuration = options.runsClients() ? 0 : options.durationSeconds;
        try (Lifetime lifetime = new Lifetime(serverOnlyDuration)) {
            Server serverSide = null;
            AutoCloseable clientSide = null;
            EchoStats stats = null;
            try {
                int port = options.port;
                if (options.runsServer()) {
                    serverSide = server.start();
                    port = serverSide.port();
                    out.printf("%s: server on tcp port %d, %d workers, %.1f ms of work per request%n", name,
                            port, options.workers, options.workMillis);
                }
                if (options.runsClients()) {
                    stats = new EchoStats(options.clients, out);
                    clientSide = clients.start(stats, port);
                    out.printf("%s: %d clients to %s:%d, %d requests in flight each, %d B packets%n", name,
                            options.clients, options.host, port, options.inFlight, options.size);
                }
                out.flush();
                if (stats == null) {
                    lifetime.awaitStop();
                } else {
                    long start = stats.startNanos();
                    for (int s = 1; !lifetime.awaitStopUntil(start + s * 1_000_000_000L); s++) {
                        stats.printSecond();
                        if (s == options.durationSeconds) {
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
