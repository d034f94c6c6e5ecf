package io.zmtp.examples.http;

import io.zmtp.examples.Lifetime;
import io.zmtp.socket.ZmtpContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./zmtp example http}: an HTTP/1.1 microservice on Netty whose {@code POST /work} is served by ZeroMQ
 * workers over DEALER/ROUTER.
 */
@Command(name = "http", mixinStandardHelpOptions = true,
        description = {"HTTP/1.1 (keep-alive) microservice on Netty: GET / answers "
                + "{\"applicationName\":\"...\",\"applicationVersion\":\"1.0\"}; POST /work hands the body to "
                + "ZeroMQ workers (a DEALER here, a ROUTER served by a thread pool there) and answers with their "
                + "reply, without blocking the event loop.",
            "Try: curl localhost:9090/ and curl -d hello localhost:9090/work"})
public final class HttpCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "9090", description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--name", defaultValue = AppInfo.DEFAULT_NAME,
            description = "applicationName in GET / (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--workers", defaultValue = "2", description = "Worker threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--workers-endpoint", defaultValue = "inproc://http-workers",
            description = "Where the workers' ROUTER binds: inproc://name or tcp://127.0.0.1:port "
                    + "(default: ${DEFAULT-VALUE}).")
    String workersEndpoint;

    @Option(names = "--work-ms", defaultValue = "0", description = "Milliseconds a worker sleeps per request, "
            + "to stand for real work (default: ${DEFAULT-VALUE}).")
    double workMillis;

    @Option(names = "--timeout-ms", defaultValue = "5000", description = "How long POST /work waits for a worker "
            + "before answering 504 (default: ${DEFAULT-VALUE}).")
    long timeoutMillis;

    @Option(names = "--io-threads", description = "Netty event loop threads (default: one per core).")
    int ioThreads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--duration", defaultValue = "0", description = "Seconds to run; 0 (default): until Ctrl-C.")
    long durationSeconds;

    PrintStream out = System.out;
    private volatile Lifetime lifetime;

    @Override
    public Integer call() throws Exception {
        if (workers < 1 || ioThreads < 1) {
            System.err.println("http: --workers and --io-threads must be at least 1");
            return 2;
        }
        try (Lifetime lifetime = new Lifetime(durationSeconds)) {
            this.lifetime = lifetime;
            ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build();
            WorkerPool pool = null;
            WorkClient work = null;
            HttpServer server = null;
            try {
                pool = new WorkerPool(context, workersEndpoint, workers,
                        (long) (workMillis * TimeUnit.MILLISECONDS.toNanos(1)));
                work = new WorkClient(context, pool.endpoint(), timeoutMillis);
                server = new HttpServer(port, ioThreads, AppInfo.json(name), work);
                out.printf("http: listening on http://127.0.0.1:%d/ (GET /, POST /work); %d ZeroMQ workers on %s%n",
                        server.port(), workers, pool.endpoint());
                out.flush();
                lifetime.awaitStop();
            } finally {
                // The HTTP side first, so no new work comes in; then the sockets, then the threads that used them.
                if (server != null) {
                    server.close();
                }
                context.close();
                if (work != null) {
                    work.close();
                }
                if (pool != null) {
                    pool.close();
                }
            }
            out.println("http: stopped");
            out.flush();
        }
        return 0;
    }

    /** Stops a running server as Ctrl-C does. */
    void stop() {
        Lifetime l = lifetime;
        if (l != null) {
            l.stop();
        }
    }
}
