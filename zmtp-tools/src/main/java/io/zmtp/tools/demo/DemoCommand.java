package io.zmtp.tools.demo;

import io.zmtp.tools.bench.ThroughputBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * The README's first command: {@code zmtp bench throughput} with its defaults (a codec-only PUSH client streaming
 * 100-byte messages to a PULL server over tcp on 127.0.0.1 for 10 s, batched flushes), a line per second.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Stream messages from a codec-only PUSH client to a PULL server over tcp://127.0.0.1 "
                + "and print the rate each second (zmtp bench throughput with its defaults).")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--duration", description = "Seconds to run (default: ${DEFAULT-VALUE}).", defaultValue = "10")
    int durationSeconds;

    @Override
    public Integer call() {
        return new CommandLine(new ThroughputBench()).execute("--duration", Integer.toString(durationSeconds));
    }
}
