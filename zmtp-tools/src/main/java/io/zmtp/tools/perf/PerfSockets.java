package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.tools.Transports;

/**
 * Opens the sockets the perf tools use: zmtp-socket's sockets, or with {@code -Dzmtp.perf.codec=true} the codec-only
 * implementation (to see what the socket layer costs). This is the one place that knows which.
 */
final class PerfSockets {
    /** Messages queued per direction before send blocks or reading pauses, libzmq's default SNDHWM/RCVHWM. */
    static final int DEFAULT_HWM = 1000;

    private PerfSockets() {
    }

    private static final boolean CODEC_ONLY = Boolean.getBoolean("zmtp.perf.codec");

    static PerfSocket bind(ZmtpSocketType type, Endpoint endpoint, Transports transport) {
        return CODEC_ONLY ? CodecPerfSocket.bind(type, endpoint.bindAddress(), transport, DEFAULT_HWM)
                : SocketPerfSocket.bind(type, endpoint, transport, DEFAULT_HWM);
    }

    static PerfSocket connect(ZmtpSocketType type, Endpoint endpoint, Transports transport) {
        return CODEC_ONLY ? CodecPerfSocket.connect(type, endpoint.connectAddress(), transport, DEFAULT_HWM)
                : SocketPerfSocket.connect(type, endpoint, transport, DEFAULT_HWM);
    }
}
