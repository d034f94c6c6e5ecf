package io.zmtp.socket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A hostile peer on a plain blocking socket, writing ZMTP by hand so that it can write what no codec would: a greeting
 * a byte at a time, a frame header claiming 2^63 bytes, half a message and then a close.
 */
final class HostileWire implements AutoCloseable {
    final Socket socket;
    final InputStream in;
    final OutputStream out;

    HostileWire(String endpoint) throws IOException {
        int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** The 64-byte ZMTP 3.1 greeting with the NULL mechanism. */
    static byte[] greeting() {
        byte[] g = new byte[64];
        g[0] = (byte) 0xFF;
        g[9] = 0x7F;
        g[10] = 3;
        g[11] = 1;
        System.arraycopy("NULL".getBytes(StandardCharsets.US_ASCII), 0, g, 12, 4);
        return g;
    }

    /**
     * READY announcing {@code socketType} and any further properties ({@code name, value} pairs), as a short command
     * frame.
     */
    static byte[] ready(String socketType, String... properties) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(5);
        body.writeBytes("READY".getBytes(StandardCharsets.US_ASCII));
        property(body, "Socket-Type", socketType);
        for (int i = 0; i < properties.length; i += 2) {
            property(body, properties[i], properties[i + 1]);
        }
        byte[] b = body.toByteArray();
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.write(0x04);
        frame.write(b.length);
        frame.writeBytes(b);
        return frame.toByteArray();
    }

    private static void property(ByteArrayOutputStream body, String name, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        body.write(name.length());
        body.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(ByteBuffer.allocate(4).putInt(v.length).array());
        body.writeBytes(v);
    }

    /**
     * Greeting and READY (with any further properties) both ways: afterwards the peer is a connected
     * {@code socketType}.
     */
    HostileWire handshake(String socketType, String... properties) throws IOException {
        out.write(greeting());
        out.write(ready(socketType, properties));
        out.flush();
        in.readNBytes(64);
        int flags = in.read();
        int size = flags == 0x04 ? in.read() : -1;
        if (size < 0 || in.readNBytes(size).length != size) {
            throw new IOException("no READY from the socket (flags " + flags + ")");
        }
        return this;
    }

    /** Whether the socket closed this connection within {@code millis}: it reads end-of-stream or a reset. */
    boolean closedBySocketWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            byte[] sink = new byte[8192];
            while (true) {
                if (in.read(sink) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
