package io.zmtp.tools.perf;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmqContext;
import io.zmtp.socket.ZmqOption;
import io.zmtp.socket.ZmqSocket;
import io.zmtp.tools.Transports;

/**
 * A {@link PerfSocket} on zmtp-socket's {@link ZmqSocket}: the socket layer does envelopes, queues and HWM. A PUB is
 * opened as an XPUB so it can wait for the subscriber's subscription before the clock starts, as libzmq's perf tools
 * can't (they sleep instead), and with XPUB_NODROP, so it waits at the HWM instead of dropping.
 */
final class SocketPerfSocket implements PerfSocket {
    private final ZmqContext context;
    private final ZmqSocket socket;

    private SocketPerfSocket(ZmtpSocketType type, Transports transport, int hwm) {
        this.context = ZmqContext.builder().nativeTransport(transport == Transports.EPOLL).build();
        ZmtpSocketType actual = type == ZmtpSocketType.PUB ? ZmtpSocketType.XPUB : type;
        this.socket = context.socket(actual);
        socket.setOption(ZmqOption.SNDHWM, hwm);
        socket.setOption(ZmqOption.RCVHWM, hwm);
        if (actual == ZmtpSocketType.XPUB) {
            // A throughput test counts every message: wait at the HWM as libzmq's XPUB_NODROP does, don't drop.
            socket.setOption(ZmqOption.XPUB_NODROP, true);
        }
        if (type == ZmtpSocketType.SUB) {
            socket.setOption(ZmqOption.SUBSCRIBE, new byte[0]);
        }
    }

    static PerfSocket bind(ZmtpSocketType type, Endpoint endpoint, Transports transport, int hwm) {
        SocketPerfSocket s = new SocketPerfSocket(type, transport, hwm);
        s.socket.bind(endpoint.toString());
        s.awaitSubscriber(type);
        return s;
    }

    static PerfSocket connect(ZmtpSocketType type, Endpoint endpoint, Transports transport, int hwm) {
        SocketPerfSocket s = new SocketPerfSocket(type, transport, hwm);
        s.socket.connect("tcp://" + endpoint.connectAddress().getHostString() + ":" + endpoint.connectAddress().getPort());
        s.awaitSubscriber(type);
        return s;
    }

    private void awaitSubscriber(ZmtpSocketType type) {
        if (type == ZmtpSocketType.PUB) {
            socket.receive().release();
        }
    }

    @Override
    public void send(ZmtpMessage message) {
        socket.send(message);
    }

    @Override
    public ZmtpMessage receive() {
        return socket.receive();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } finally {
            context.close();
        }
    }
}
