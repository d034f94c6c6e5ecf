package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the properties of the socket types (*PropertiesIT) share: a context per try, sockets with no LINGER and a
 * short reconnection interval, and an endpoint that a socket can bind again after a restart, over tcp or inproc.
 * LeakCheckExtension checks each test (all its tries) for buffer leaks.
 */
final class PropertySockets implements AutoCloseable {
    private static final AtomicInteger NAMES = new AtomicInteger();

    /** The transports the properties run over; each try picks one. */
    enum Transport {
        TCP, INPROC;

        /** A fresh endpoint that binds again to the same address after the socket bound to it closes. */
        String endpoint() {
            if (this == INPROC) {
                return "inproc://property-" + NAMES.incrementAndGet();
            }
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress("127.0.0.1", 0));
                return "tcp://127.0.0.1:" + s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final ZmtpContext context = ZmtpContext.builder().lingerCapMillis(1000).build();

    ZmtpSocket socket(ZmtpSocketType type) {
        ZmtpSocket s = context.socket(type);
        s.setOption(ZmtpSocketOption.LINGER, 0);
        s.setOption(ZmtpSocketOption.RECONNECT_IVL, 10);
        return s;
    }

    /** Receives within {@code timeout} and returns the first frame as text (null if nothing came); releases. */
    static String receive(ZmtpSocket s, Duration timeout) {
        ZmtpMessage m = s.receive(timeout);
        return m == null ? null : SocketTestSupport.text(m);
    }

    @Override
    public void close() {
        context.close();
    }
}
