package io.zmtp.tools;

import io.zmtp.tools.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code zmtp} command line.
 */
@Command(name = "zmtp", mixinStandardHelpOptions = true, version = "netty-zmtp 0.1.0-SNAPSHOT",
        description = "ZeroMQ (ZMTP) on Netty: demo, perf tools and benchmarks.",
        subcommands = {DemoCommand.class, CommandLine.HelpCommand.class})
public final class Zmtp {

    public static void main(String[] args) {
        System.exit(new CommandLine(new Zmtp()).execute(args));
    }
}
