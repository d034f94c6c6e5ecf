package io.zmtp.examples.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.zmtp.examples.Lifetime;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpWebSocketHandler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.net.ssl.KeyManagerFactory;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./zmtp example http}: an HTTP/1.1 microservice on Netty whose {@code POST /work} is served by ZeroMQ
 * workers over DEALER/ROUTER, and which serves on the same port a web page that talks ZeroMQ from the browser:
 * it subscribes to a PUB of live stats ({@code /zmq/stats}) and sends requests straight to the workers' ROUTER
 * ({@code /zmq/work}), both over WebSocket (ZWS 2.0) through {@link ZmtpWebSocketHandler}. HTTPS and wss:// with
 * {@code --tls-cert}/{@code --tls-key} (PEM) or {@code --tls-keystore} (PKCS#12).
 */
@Command(name = "http", mixinStandardHelpOptions = true,
        description = {"HTTP/1.1 (keep-alive) microservice on Netty: GET / answers "
                + "{\"applicationName\":\"...\",\"applicationVersion\":\"1.0\"}; POST /work hands the body to "
                + "ZeroMQ workers (a DEALER here, a ROUTER served by a thread pool there) and answers with their "
                + "reply, without blocking the event loop.",
            "The web page (GET /app/) subscribes to live stats over ZeroMQ-over-WebSocket (a PUB at /zmq/stats) and "
                + "sends requests to the workers' ROUTER (/zmq/work) from the browser.",
            "Try: curl localhost:9090/ and curl -d hello localhost:9090/work; the page: localhost:9090/app/ in a "
                + "browser"})
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

    @Option(names = "--stats-ms", defaultValue = "1000",
            description = "How often the stats PUB publishes, in milliseconds (default: ${DEFAULT-VALUE}).")
    long statsMillis;

    @Option(names = "--tls-cert", paramLabel = "PEM", description = "HTTPS and wss://: the server's certificate "
            + "chain (PEM), with --tls-key.")
    File tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "The certificate's private key (PKCS#8 PEM, "
            + "unencrypted).")
    File tlsKey;

    @Option(names = "--tls-keystore", paramLabel = "P12", description = "HTTPS and wss://: a PKCS#12 key store "
            + "(keytool's) holding the key and certificate; instead of --tls-cert and --tls-key.")
    File tlsKeystore;

    @Option(names = "--tls-password", defaultValue = "", description = "The key store's password.")
    String tlsPassword;

    PrintStream out = System.out;
    private volatile Lifetime lifetime;

    @Override
    public Integer call() throws Exception {
        if (workers < 1 || ioThreads < 1 || statsMillis < 1) {
            System.err.println("http: --workers, --io-threads and --stats-ms must be at least 1");
            return 2;
        }
        if ((tlsCert == null) != (tlsKey == null) || (tlsKeystore != null && tlsCert != null)) {
            System.err.println("http: TLS takes --tls-cert with --tls-key, or --tls-keystore");
            return 2;
        }
        SslContext tls = serverTls();
        try (Lifetime lifetime = new Lifetime(durationSeconds)) {
            this.lifetime = lifetime;
            ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build();
            WorkerPool pool = null;
            WorkClient work = null;
            StatsPublisher stats = null;
            HttpServer server = null;
            try {
                pool = new WorkerPool(context, workersEndpoint, workers,
                        (long) (workMillis * TimeUnit.MILLISECONDS.toNanos(1)));
                work = new WorkClient(context, pool.endpoint(), timeoutMillis);
                stats = new StatsPublisher(context, pool::served, statsMillis);
                ZmtpWebSocketHandler[] zmq = {
                    ZmtpWebSocketHandler.of(stats.socket(), "/zmq/stats"),
                    ZmtpWebSocketHandler.of(pool.router(), "/zmq/work")};
                byte[] appInfo = AppInfo.json(name);
                StaticFiles files = new StaticFiles();
                WorkClient w = work;
                server = new HttpServer(port, ioThreads, tls, zmq, () -> new HttpHandler(appInfo, w, files));
                String scheme = tls != null ? "https" : "http";
                out.printf("http: listening on %s://127.0.0.1:%d/ (GET /, POST /work, the web page at /app/, "
                        + "ZeroMQ over %s at /zmq/stats and /zmq/work); %d ZeroMQ workers on %s%n", scheme,
                        server.port(), tls != null ? "wss" : "ws", workers, pool.endpoint());
                out.flush();
                lifetime.awaitStop();
            } finally {
                // No new connections, so no new work comes in; then the sockets (which close their WebSocket
                // connections on the server's event loops), then those loops, then the threads that used them.
                if (stats != null) {
                    stats.close();
                }
                if (server != null) {
                    server.stopAccepting();
                }
                context.close();
                if (server != null) {
                    server.close();
                }
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

    /** The server's TLS context from the options, or null without them. */
    private SslContext serverTls() throws Exception {
        if (tlsCert != null) {
            return SslContextBuilder.forServer(tlsCert, tlsKey).build();
        }
        if (tlsKeystore == null) {
            return null;
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tlsKeystore.toPath())) {
            ks.load(in, tlsPassword.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, tlsPassword.toCharArray());
        return SslContextBuilder.forServer(kmf).build();
    }

    /** Stops a running server as Ctrl-C does. */
    void stop() {
        Lifetime l = lifetime;
        if (l != null) {
            l.stop();
        }
    }
}
