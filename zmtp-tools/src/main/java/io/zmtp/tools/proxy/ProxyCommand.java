package io.zmtp.tools.proxy;

import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpProxy;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.tools.ContextOptions;
import io.zmtp.tools.WssOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code zmtp proxy}: a {@link ZmtpProxy} between two sockets named on the command line, with optional capture and
 * control sockets, until TERMINATE on the control socket or Ctrl-C.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true,
        description = {"Pass messages between a frontend and a backend socket, as libzmq's zmq_proxy_steerable.",
            "A socket is TYPE@endpoint (bind) or TYPE>endpoint (connect), several endpoints separated by commas: "
                    + "ROUTER@tcp://*:5555, DEALER>tcp://10.0.0.7:5556, PUB@tcp://*:5557,@ipc:///tmp/capture.",
            "Steer it through the control socket with PAUSE, RESUME, TERMINATE and STATISTICS (eight u64 "
                    + "little-endian frames), e.g. echo STATISTICS | zmtp cat --type REQ --connect "
                    + "tcp://127.0.0.1:5558 -n 1."},
        footer = {"", "Example: a shared queue between REQ clients on 5555 and REP workers on 5556:",
            "  zmtp proxy --frontend ROUTER@tcp://*:5555 --backend DEALER@tcp://*:5556 --control REP@tcp://*:5558",
            "Browsers and libzmq's ws:// clients on 8080, workers over tcp:",
            "  zmtp proxy --frontend ROUTER@ws://*:8080/zmq --backend DEALER@tcp://*:5556"})
public final class ProxyCommand implements Callable<Integer> {

    @Option(names = "--frontend", required = true, paramLabel = "TYPE@endpoint",
            converter = SocketSpec.Converter.class, description = "The socket clients talk to, e.g. ROUTER@tcp://*:5555.")
    SocketSpec frontend;

    @Option(names = "--backend", required = true, paramLabel = "TYPE@endpoint",
            converter = SocketSpec.Converter.class, description = "The socket workers talk to, e.g. DEALER@tcp://*:5556.")
    SocketSpec backend;

    @Option(names = "--capture", paramLabel = "TYPE@endpoint", converter = SocketSpec.Converter.class,
            description = "A socket every passed message is also sent to, e.g. PUB@tcp://*:5557 (a PUB never slows "
                    + "the proxy; other types block it when they can't keep up).")
    SocketSpec capture;

    @Option(names = "--control", paramLabel = "TYPE@endpoint", converter = SocketSpec.Converter.class,
            description = "A socket to steer the proxy: REP, PAIR, DEALER, SUB or PULL, e.g. REP@tcp://*:5558.")
    SocketSpec control;

    @Option(names = "--stats", description = "Print the proxy's counters to stderr once a second.")
    boolean stats;

    @Mixin
    ContextOptions contextOptions;

    @Mixin
    WssOptions wss;

    PrintStream err = System.err;

    @Override
    public Integer call() throws InterruptedException {
        ZmtpContext context = contextOptions.builder().lingerCapMillis(1000).build();
        Thread hook = new Thread(context::close, "zmtp-proxy-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread printer = null;
        try {
            ZmtpProxy proxy = open(context);
            if (stats) {
                printer = startPrinter(proxy);
            }
            proxy.run();
            err.println("proxy: terminated by the control socket; " + proxy.statistics());
            return 0;
        } catch (ZmtpSocketException.Closed e) {
            // Ctrl-C: the hook closed the context under the proxy.
            return 0;
        } catch (IllegalArgumentException | ZmtpSocketException e) {
            err.println("zmtp proxy: " + e.getMessage());
            return 1;
        } finally {
            if (printer != null) {
                printer.interrupt();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
                context.close();
            } catch (IllegalStateException e) {
                // Shutting down already: the hook closes the context.
            }
        }
    }

    private ZmtpProxy open(ZmtpContext context) {
        ZmtpProxy.Builder builder = ZmtpProxy.builder(open(context, "frontend", frontend),
                open(context, "backend", backend));
        if (capture != null) {
            builder.capture(open(context, "capture", capture));
        }
        if (control != null) {
            builder.control(open(context, "control", control));
        }
        return builder.build();
    }

    private ZmtpSocket open(ZmtpContext context, String role, SocketSpec spec) {
        List<String> bound = new ArrayList<>();
        ZmtpSocket socket = spec.open(context, wss, err, bound);
        for (String endpoint : bound) {
            err.println("proxy: " + role + " " + spec.type + " bound to " + endpoint);
        }
        for (String endpoint : spec.connects) {
            err.println("proxy: " + role + " " + spec.type + " connecting to " + endpoint);
        }
        return socket;
    }

    private Thread startPrinter(ZmtpProxy proxy) {
        Thread t = new Thread(() -> {
            try {
                for (int s = 1; ; s++) {
                    Thread.sleep(1000);
                    err.println(s + "s: " + proxy.statistics());
                }
            } catch (InterruptedException e) {
                // done
            }
        }, "zmtp-proxy-stats");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
