package io.zmtp.examples;

import io.zmtp.examples.echo.EchoCommand;
import io.zmtp.examples.echo.NettyEchoCommand;
import io.zmtp.examples.http.HttpCommand;
import io.zmtp.examples.poller.PollerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ./zmtp example NAME}: the example programs, each in its own package, each on zmtp-socket's public API only.
 */
@Command(name = "zmtp example", mixinStandardHelpOptions = true,
        description = "Example programs on netty-zmtp's sockets (see zmtp-examples/README.md).",
        subcommands = {EchoCommand.class, NettyEchoCommand.class, HttpCommand.class, PollerCommand.class,
                CommandLine.HelpCommand.class})
public final class Examples {

    private Examples() {
    }

    public static void main(String[] args) {
        // As the zmtp tools do: no leak detector sampling messages in programs that are also measured;
        // -Dio.netty.leakDetection.level=... on the command line still wins. Set before any Netty class loads.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        System.exit(new CommandLine(Examples.class).execute(args));
    }
}
