package io.zmtp.tools;

import io.zmtp.tools.bench.BenchCommand;
import io.zmtp.tools.cat.CatCommand;
import io.zmtp.tools.demo.DemoCommand;
import io.zmtp.tools.keygen.KeygenCommand;
import io.zmtp.tools.perf.LocalLatCommand;
import io.zmtp.tools.perf.LocalThrCommand;
import io.zmtp.tools.perf.RemoteLatCommand;
import io.zmtp.tools.perf.RemoteThrCommand;
import io.zmtp.tools.perf.RrClientCommand;
import io.zmtp.tools.perf.RrServerCommand;
import io.zmtp.tools.proxy.ProxyCommand;
import io.zmtp.tools.soak.SoakCommand;
import io.zmtp.tools.soak.SoakPeerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code zmtp} command line.
 */
@Command(name = "zmtp", mixinStandardHelpOptions = true, version = "netty-zmtp 0.1.0-SNAPSHOT",
        description = {"ZeroMQ (ZMTP) on Netty: demo, perf tools, benchmarks, cat, proxy, keygen and a kill-and-restart "
                + "soak.",
            "./zmtp example NAME runs the example programs (echo, http, poller; see zmtp-examples/README.md)."},
        subcommands = {DemoCommand.class, LocalLatCommand.class, RemoteLatCommand.class, LocalThrCommand.class,
                RemoteThrCommand.class, RrServerCommand.class, RrClientCommand.class, BenchCommand.class,
                CatCommand.class, ProxyCommand.class, KeygenCommand.class, SoakCommand.class, SoakPeerCommand.class,
                CommandLine.HelpCommand.class})
public final class Zmtp {

    public static void main(String[] args) {
        // Like libzmq's tools, run without Netty's leak detector (its default samples and touches every message);
        // -Dio.netty.leakDetection.level=... on the command line still wins. Set before any Netty class loads.
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        // Netty 4.2 declares JFR events for its allocator; with JFR present it loads them at start-up, which has the
        // JDK generate and compile bytecode (ASM) while the first messages flow. Off, a 2 M-message run is about 20%
        // faster on 2 cores (docs/performance-notes.md, "Warm-up: what was tried"). -Dio.netty.jfr.enabled=true
        // still wins.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        System.exit(new CommandLine(new Zmtp()).execute(args));
    }
}
