package io.zmtp.examples.echo;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpProxy;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;

import java.util.ArrayList;
import java.util.List;

/**
 * The echo service on ZeroMQ sockets: clients' requests arrive on a ROUTER over tcp; a {@link ZmtpProxy} passes
 * them to a DEALER over inproc, which spreads them over a pool of REP workers, each on its own thread; a worker
 * works on a request, then sends it back the way it came.
 *
 * <pre>
 *   clients (DEALER) --tcp--> ROUTER | ZmtpProxy | DEALER --inproc://echo-workers--> REP worker x N
 * </pre>
 */
final class EchoServer implements EchoRunner.Server {
    static final String WORKERS = "inproc://echo-workers";

    private final ZmtpContext context;
    private final List<Thread> threads = new ArrayList<>();
    private final int port;

    EchoServer(EchoOptions options) {
        context = ZmtpContext.builder().ioThreads(options.ioThreads).lingerCapMillis(0).build();
        ZmtpSocket frontend = context.socket(ZmtpSocketType.ROUTER);
        String bound = frontend.bind("tcp://*:" + options.port);
        port = Integer.parseInt(bound.substring(bound.lastIndexOf(':') + 1));
        ZmtpSocket backend = context.socket(ZmtpSocketType.DEALER);
        backend.bind(WORKERS);
        ZmtpProxy proxy = ZmtpProxy.builder(frontend, backend).build();
        start("echo-proxy", proxy::run);
        long workNanos = options.workNanos();
        for (int i = 0; i < options.workers; i++) {
            ZmtpSocket worker = context.socket(ZmtpSocketType.REP);
            worker.connect(WORKERS);
            start("echo-worker-" + (i + 1), () -> serve(worker, workNanos));
        }
    }

    @Override
    public int port() {
        return port;
    }

    private static void serve(ZmtpSocket worker, long workNanos) {
        for (;;) {
            ZmtpMessage request = worker.receive();
            Work.simulate(workNanos);
            // The REP socket puts the request's envelope back on: the reply finds its client.
            worker.send(request);
        }
    }

    private void start(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (ZmtpSocketException.Closed e) {
                // close(): the context closed the sockets under the loop.
            }
        }, name);
        t.setDaemon(true);
        t.start();
        threads.add(t);
    }

    @Override
    public void close() throws InterruptedException {
        context.close();
        for (Thread t : threads) {
            t.join(2000);
        }
    }
}
