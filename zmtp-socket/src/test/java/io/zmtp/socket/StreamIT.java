package io.zmtp.socket;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static io.zmtp.socket.SocketTestSupport.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** STREAM over tcp with plain (non-ZeroMQ) peers: java.net sockets on the other side. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class StreamIT {
    @RegisterExtension
    final SocketsExtension sockets = new SocketsExtension(2000, 1000);

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Receives {@code [id, text]}; returns the text, checking the id. */
    private static String receive(ZmtpSocket stream, byte[] id) {
        ZmtpMessage m = stream.receive(WAIT);
        assertThat(m).isNotNull();
        try {
            assertThat(m.size()).isEqualTo(2);
            assertThat(m.frameBytes(0)).isEqualTo(id);
            return m.frameString(1);
        } finally {
            m.release();
        }
    }

    @Test
    void shouldServeAPlainTcpClient() throws Exception {
        ZmtpSocket server = sockets.socket(ZmtpSocketType.STREAM);
        String endpoint = server.bind("tcp://127.0.0.1:*");
        int port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
            client.setSoTimeout(5000);
            // The connection is announced as [id, ""].
            ZmtpMessage hello = server.receive(WAIT);
            assertThat(hello.size()).isEqualTo(2);
            byte[] id = hello.frameBytes(0);
            assertThat(id).hasSize(5);
            assertThat(hello.frame(1).readableBytes()).isZero();
            hello.release();
            ZmtpPeer peer = server.lastPeer();
            assertThat(peer.routingId()).isEqualTo(id);
            assertThat(peer.remoteAddress()).isEqualTo(client.getLocalSocketAddress());

            OutputStream out = client.getOutputStream();
            out.write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            StringBuilder request = new StringBuilder();
            while (!request.toString().endsWith("\r\n\r\n")) {
                request.append(receive(server, id));
            }
            assertThat(request.toString()).isEqualTo("GET / HTTP/1.0\r\n\r\n");

            server.send(ZmtpMessage.ofBytes(id, "HTTP/1.0 200 OK\r\n\r\nhi".getBytes(StandardCharsets.US_ASCII)));
            // An empty frame closes the connection once what was sent before is out.
            server.send(peer, ZmtpMessage.of(""));
            assertThat(readAll(client.getInputStream())).isEqualTo("HTTP/1.0 200 OK\r\n\r\nhi");
            // And the disconnection is announced as [id, ""] too.
            assertThat(receive(server, id)).isEmpty();
        }
        assertThatThrownBy(() -> server.send(ZmtpMessage.of("gone", "x")))
                .isInstanceOf(ZmtpSocketException.HostUnreachable.class);
    }

    @Test
    void shouldCallAPlainTcpServer() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ZmtpSocket client = sockets.socket(ZmtpSocketType.STREAM);
            client.connect("tcp://127.0.0.1:" + listener.getLocalPort());
            try (Socket accepted = listener.accept()) {
                accepted.setSoTimeout(5000);
                ZmtpMessage connected = client.receive(WAIT);
                byte[] id = connected.frameBytes(0);
                assertThat(connected.frame(1).readableBytes()).isZero();
                connected.release();

                client.send(ZmtpMessage.ofBytes(id, "ping\n".getBytes(StandardCharsets.US_ASCII)));
                byte[] buf = new byte[5];
                new java.io.DataInputStream(accepted.getInputStream()).readFully(buf);
                assertThat(new String(buf, StandardCharsets.US_ASCII)).isEqualTo("ping\n");

                accepted.getOutputStream().write("pong\n".getBytes(StandardCharsets.US_ASCII));
                accepted.getOutputStream().flush();
                assertThat(receive(client, id)).isEqualTo("pong\n");
            }
            // The server hung up: announced as [id, ""].
            ZmtpMessage gone = client.receive(WAIT);
            assertThat(gone.frame(1).readableBytes()).isZero();
            gone.release();
            assertThat(client.peers().get(0).isOutgoing()).isTrue();
            assertThat(client.peers().get(0).remoteAddress())
                    .isEqualTo(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()));
        }
    }

    @Test
    void shouldRefuseInproc() {
        ZmtpSocket s = sockets.socket(ZmtpSocketType.STREAM);
        assertThatThrownBy(() -> s.bind("inproc://raw")).isInstanceOf(ZmtpSocketException.EndpointFailed.class);
    }
}
