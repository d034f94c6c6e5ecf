package io.zmtp.examples.echo;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code ./zmtp example echo-netty}: the echo service and its clients on plain Netty, to compare with echo. */
@Command(name = "echo-netty", mixinStandardHelpOptions = true,
        description = {"The echo example's service on plain Netty, without ZeroMQ sockets: length-prefixed packets, "
                + "a fixed pool of worker threads that work (sleep) on each and write it back; clients keep "
                + "requests in flight. Same options and output as echo."})
public final class NettyEchoCommand implements Callable<Integer> {
    @Mixin
    EchoOptions options;

    PrintStream out = System.out;

    @Override
    public Integer call() throws Exception {
        return EchoRunner.run(options, "echo (plain Netty)", out, () -> new NettyEchoServer(options),
                (stats, port) -> new NettyEchoClients(options, stats, port));
    }
}
