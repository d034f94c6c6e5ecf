package io.zmtp.tools.perf;

import io.zmtp.tools.Transports;
import picocli.CommandLine.Option;

/** The perf tools' common options. */
final class TransportOption {
    @Option(names = "--transport", description = "nio or epoll (default: epoll where available).")
    Transports transport;

    Transports transport() {
        return transport != null ? transport : Transports.best();
    }
}
