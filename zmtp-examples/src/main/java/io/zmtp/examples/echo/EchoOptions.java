package io.zmtp.examples.echo;

import picocli.CommandLine.Option;

import java.util.concurrent.TimeUnit;

/** The options both echo services share, so they run the same load: the article's parameters by default. */
public final class EchoOptions {
    /** Which side(s) this process runs. */
    public enum Mode { both, server, client }

    @Option(names = "--mode", defaultValue = "both",
            description = "both (default): server and clients in this process; server; client.")
    Mode mode;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Host the clients connect to "
            + "(default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "5555", description = "tcp port (default: ${DEFAULT-VALUE}); 0 with --mode both: any free port.")
    int port;

    @Option(names = "--clients", defaultValue = "10", description = "Clients, each with its own connection "
            + "(default: ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--in-flight", defaultValue = "10", description = "Requests each client keeps in flight "
            + "(default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--workers", defaultValue = "2", description = "Worker threads in the server "
            + "(default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--size", defaultValue = "1024", description = "Bytes per packet (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--work-ms", defaultValue = "2", description = "Milliseconds of simulated work per request "
            + "(a sleep; default: ${DEFAULT-VALUE}).")
    double workMillis;

    @Option(names = "--io-threads", defaultValue = "1", description = "I/O threads of the server and of the "
            + "clients (default: ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--duration", defaultValue = "0", description = "Seconds to run; 0 (default): until Ctrl-C.")
    long durationSeconds;

    long workNanos() {
        return (long) (workMillis * TimeUnit.MILLISECONDS.toNanos(1));
    }

    boolean runsServer() {
        return mode != Mode.client;
    }

    boolean runsClients() {
        return mode != Mode.server;
    }

    /** Checks the numbers; returns a message for the first bad one, or null. */
    String check() {
        if (clients < 1 || inFlight < 1 || workers < 1 || ioThreads < 1) {
            return "--clients, --in-flight, --workers and --io-threads must be at least 1";
        }
        if (size < 0 || size > 1 << 20) {
            return "--size: " + size + " (expected: 0 to 1048576)";
        }
        if (workMillis < 0) {
            return "--work-ms: " + workMillis + " (expected: >= 0)";
        }
        return null;
    }
}
