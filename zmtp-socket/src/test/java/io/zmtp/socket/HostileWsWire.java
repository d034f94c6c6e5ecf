package io.zmtp.socket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * A hostile ws:// peer on a plain blocking socket, writing the HTTP upgrade and WebSocket frames (rfc 6455) by hand,
 * so that it can write what no WebSocket library would: half an upgrade, a frame declaring 2^63 bytes, fragments,
 * text, reserved bits and opcodes, unmasked client frames, a flood of pings it never reads the answers to.
 */
final class HostileWsWire implements AutoCloseable {
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int PING = 0x9;

    final Socket socket;
    final InputStream in;
    final OutputStream out;
    private final String path;
    private final int port;

    HostileWsWire(String endpoint) throws IOException {
        URI uri = URI.create(endpoint);
        port = uri.getPort();
        path = uri.getPath().isEmpty() ? "/" : uri.getPath();
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(5000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** The upgrade request for the endpoint's path, offering {@code ZWS2.0/NULL}. */
    byte[] upgradeRequest() {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ZWS2.0/NULL\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Upgrades, then sends READY as {@code socketType} and reads the socket's READY: afterwards the peer is a
     * connected {@code socketType} (NULL, no greeting: ZWS 2.0).
     */
    HostileWsWire handshake(String socketType) throws IOException {
        out.write(upgradeRequest());
        out.flush();
        String status = readHeaders();
        if (!status.startsWith("HTTP/1.1 101")) {
            throw new IOException("upgrade refused: " + status);
        }
        byte[] ready = HostileWire.ready(socketType);
        // ZWS: the flags byte (0x02, a command) and the command, without the ZMTP frame header (2 bytes).
        byte[] body = new byte[ready.length - 1];
        body[0] = 0x02;
        System.arraycopy(ready, 2, body, 1, ready.length - 2);
        out.write(frame(true, BINARY, body));
        out.flush();
        readFrame();
        return this;
    }

    private String readHeaders() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the upgrade: " + head);
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads one frame from the socket (unmasked, as a server's); returns its payload. */
    byte[] readFrame() throws IOException {
        int first = in.read();
        int second = in.read();
        if (first < 0 || second < 0) {
            throw new IOException("closed before a frame");
        }
        long length = second & 0x7F;
        if (length == 126) {
            length = (in.read() << 8) | in.read();
        } else if (length == 127) {
            length = 0;
            for (int i = 0; i < 8; i++) {
                length = (length << 8) | in.read();
            }
        }
        return in.readNBytes((int) length);
    }

    /** A client frame: masked (with a zero key, so the payload reads as is) unless {@code masked} is false. */
    static byte[] frame(boolean fin, int opcode, byte[] payload) {
        return frame(fin ? 0x80 | opcode : opcode, payload, true);
    }

    /** A client frame with this first byte (FIN, RSV bits, opcode), masked or not. */
    static byte[] frame(int first, byte[] payload, boolean masked) {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        f.write(first);
        int mask = masked ? 0x80 : 0;
        if (payload.length <= 125) {
            f.write(mask | payload.length);
        } else if (payload.length <= 0xFFFF) {
            f.write(mask | 126);
            f.write(payload.length >> 8);
            f.write(payload.length);
        } else {
            f.write(mask | 127);
            for (int i = 7; i >= 0; i--) {
                f.write((int) ((long) payload.length >> (8 * i)));
            }
        }
        if (masked) {
            f.writeBytes(new byte[4]);
        }
        f.writeBytes(payload);
        return f.toByteArray();
    }

    /** A masked binary frame header declaring {@code length} bytes, and nothing behind it. */
    static byte[] declaring(long length) {
        byte[] h = new byte[2 + 8 + 4];
        h[0] = (byte) (0x80 | BINARY);
        h[1] = (byte) (0x80 | 127);
        for (int i = 0; i < 8; i++) {
            h[2 + i] = (byte) (length >> (8 * (7 - i)));
        }
        return h;
    }

    /** Whether the socket closed this connection within {@code millis}: end-of-stream or a reset. */
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
