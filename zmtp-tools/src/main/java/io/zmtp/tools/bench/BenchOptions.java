package io.zmtp.tools.bench;

import io.zmtp.tools.Transports;
import picocli.CommandLine.Option;

/** Options both in-process benchmarks take. */
final class BenchOptions {
    @Option(names = "--size", defaultValue = "100", description = "Bytes per frame (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--frames", defaultValue = "1", description = "Frames per message (default: ${DEFAULT-VALUE}).")
    int frames;

    @Option(names = "--duration", defaultValue = "10", description = "Seconds to run (default: ${DEFAULT-VALUE}).")
    int durationSeconds;

    @Option(names = "--transport", description = "nio or epoll (default: epoll where available).")
    Transports transport;

    @Option(names = "--batching", defaultValue = "on", arity = "1",
            description = "on: flush once per burst or read batch; off: flush every message (default: ${DEFAULT-VALUE}).")
    String batching;

    @Option(names = "--socket", description = "Run on zmtp-socket's ZmqSocket instead of a bare codec pipeline.")
    boolean socket;

    Transports transport() {
        return transport != null ? transport : Transports.best();
    }

    boolean batching() {
        if (!"on".equals(batching) && !"off".equals(batching)) {
            throw new IllegalArgumentException("--batching: " + batching + " (expected: on or off)");
        }
        return "on".equals(batching);
    }

    /** Checks the options; {@code socketSupported} says whether this benchmark has a socket-layer variant. */
    void checkMode(boolean socketSupported) {
        if (socket && !socketSupported) {
            throw new IllegalArgumentException("--socket: this benchmark has no socket-layer variant yet; run "
                    + "without --socket for the codec-only pipeline");
        }
        if (size < 0 || frames < 1 || durationSeconds < 1) {
            throw new IllegalArgumentException("--size >= 0, --frames >= 1, --duration >= 1 expected (got "
                    + size + ", " + frames + ", " + durationSeconds + ")");
        }
        batching();
    }
}
