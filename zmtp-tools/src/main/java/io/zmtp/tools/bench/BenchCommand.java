package io.zmtp.tools.bench;

import picocli.CommandLine.Command;

/** {@code zmtp bench}: client and server in one JVM, a line per second. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "In-process benchmarks: client and server in one JVM over tcp://127.0.0.1, a line per second.",
        subcommands = {ThroughputBench.class, ReqRepBench.class, CustomCodecBench.class, FanoutBench.class,
                RouterScaleBench.class})
public final class BenchCommand {
}
