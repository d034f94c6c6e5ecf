package io.zmtp.tools.bench;

import io.zmtp.tools.ContextOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every in-process benchmark takes. */
final class BenchOptions {
    @Option(names = "--size", defaultValue = "100", description = "Bytes per frame (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--frames", defaultValue = "1", description = "Frames per message (default: ${DEFAULT-VALUE}).")
    int frames;

    @Option(names = "--duration", defaultValue = "10", description = "Seconds to run (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    /** Socket-layer runs build their contexts from these; codec-only runs take the transport choice. */
    @Mixin
    ContextOptions context;

    void check() {
        if (size < 0 || frames < 1 || durationSeconds < 1) {
            throw new IllegalArgumentException("--size >= 0, --frames >= 1, --duration >= 1 expected (got "
                    + size + ", " + frames + ", " + durationSeconds + ")");
        }
    }

    /** {@code --batching on|off} of the codec-only runs. */
    static boolean batching(String value) {
        if (!"on".equals(value) && !"off".equals(value)) {
            throw new IllegalArgumentException("--batching: " + value + " (expected: on or off)");
        }
        return "on".equals(value);
    }
}
