package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.tools.Transports;

/**
 * Opens the sockets the perf tools use. This is the one place that knows they are codec-backed.
 */
final class PerfSockets {
    /** Messages queued per direction before send blocks or reading pauses, libzmq's default SNDHWM/RCVHWM. */
    static final int DEFAULT_HWM = 1000;

    private PerfSockets() {
    }

    static PerfSocket bind(ZmtpSocketType type, Endpoint endpoint, Transports transport) {
        return CodecPerfSocket.bind(type, endpoint.bindAddress(), transport, DEFAULT_HWM);
    }

    static PerfSocket connect(ZmtpSocketType type, Endpoint endpoint, Transports transport) {
        return CodecPerfSocket.connect(type, endpoint.connectAddress(), transport, DEFAULT_HWM);
    }
}
