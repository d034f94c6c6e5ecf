package io.zmtp.examples.echo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code ./zmtp example echo}: the worker-pool echo service on ZeroMQ sockets, with its clients. */
@Command(name = "echo", mixinStandardHelpOptions = true,
        description = {"Echo service with a worker pool on ZeroMQ sockets: a ROUTER on tcp, a ZmtpProxy, a DEALER "
                + "on inproc and REP workers that work (sleep) on each request and reply; DEALER clients keep "
                + "requests in flight. Prints packets/s and bytes/s per client and in total each second.",
            "echo-netty is the same service on plain Netty, with the same options and output."})
public final class EchoCommand implements Callable<Integer> {
    @Mixin
    EchoOptions options;

    PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        return EchoRunner.run(options, "echo (ZeroMQ)", out, () -> new EchoServer(options),
                (stats, port) -> new EchoClients(options, stats, port));
    }
}
