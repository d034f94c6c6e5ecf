package io.zmtp.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One end of a socket pair, ours or the foreign peer's, with the same operations, so that each scenario of the
 * matrix is written once and run with our socket on either side.
 */
interface SocketEnd {
    Duration SEND_WAIT = Duration.ofSeconds(5);

    ZmtpSocketType type();

    /** "our REQ" or "libzmq REP". */
    String describe();

    /** Returns the endpoint bound ({@code tcp://127.0.0.1:*} asks for an ephemeral port). */
    String bind(String endpoint);

    void connect(String endpoint);

    /** Sends, failing the test if it can't be queued within {@link #SEND_WAIT}. */
    void send(List<byte[]> frames);

    default void send(String... frames) {
        List<byte[]> list = new ArrayList<>();
        for (String f : frames) {
            list.add(SocketPeer.bytes(f));
        }
        send(list);
    }

    /** The next message's frames, or null if none came within {@code timeout}. */
    List<byte[]> recv(Duration timeout);

    /** SUBSCRIBE option (SUB) or a {@code 01}-prefixed message (XSUB). */
    default void subscribe(String topic) {
        if (type() == ZmtpSocketType.XSUB) {
            send("\u0001" + topic);
        } else {
            option(true, topic);
        }
    }

    /** UNSUBSCRIBE option (SUB) or a {@code 00}-prefixed message (XSUB). */
    default void unsubscribe(String topic) {
        if (type() == ZmtpSocketType.XSUB) {
            send("\u0000" + topic);
        } else {
            option(false, topic);
        }
    }

    void option(boolean subscribe, String topic);

    /** Closes the socket (linger 0 for a foreign one). */
    void close();

    /** Our socket. */
    final class Ours implements SocketEnd {
        final ZmtpSocket socket;

        Ours(ZmtpSocket socket) {
            this.socket = socket;
        }

        @Override
        public ZmtpSocketType type() {
            return socket.type();
        }

        @Override
        public String describe() {
            return "our " + socket.type();
        }

        @Override
        public String bind(String endpoint) {
            return socket.bind(endpoint);
        }

        @Override
        public void connect(String endpoint) {
            socket.connect(endpoint);
        }

        @Override
        public void send(List<byte[]> frames) {
            assertThat(socket.send(ZmtpMessage.ofBytes(frames.toArray(new byte[0][])), SEND_WAIT))
                    .as("%s: send queued within %s", describe(), SEND_WAIT).isTrue();
        }

        @Override
        public List<byte[]> recv(Duration timeout) {
            ZmtpMessage m = socket.receive(timeout);
            return m == null ? null : frames(m);
        }

        @Override
        public void option(boolean subscribe, String topic) {
            socket.setOption(subscribe ? io.zmtp.socket.ZmtpSocketOption.SUBSCRIBE : io.zmtp.socket.ZmtpSocketOption.UNSUBSCRIBE,
                    SocketPeer.bytes(topic));
        }

        @Override
        public void close() {
            socket.close();
        }

        /** The frames' bytes; releases the message. */
        static List<byte[]> frames(ZmtpMessage m) {
            try {
                List<byte[]> frames = new ArrayList<>(m.size());
                for (int i = 0; i < m.size(); i++) {
                    frames.add(m.frameBytes(i));
                }
                return frames;
            } finally {
                m.release();
            }
        }
    }

    /** A socket of the foreign peer, by name. */
    final class Theirs implements SocketEnd {
        final SocketPeer peer;
        final String name;
        final ZmtpSocketType type;

        /** Creates socket {@code name} of {@code type} on {@code peer}, with socket_peer.py options. */
        Theirs(SocketPeer peer, String name, ZmtpSocketType type, String... options) {
            this.peer = peer;
            this.name = name;
            this.type = type;
            peer.ok("new " + name + " " + type + (options.length == 0 ? "" : " " + String.join(" ", options)));
        }

        @Override
        public ZmtpSocketType type() {
            return type;
        }

        @Override
        public String describe() {
            return peer.version().split(" ")[0] + " " + type;
        }

        @Override
        public String bind(String endpoint) {
            return peer.ok("bind " + name + " " + endpoint);
        }

        @Override
        public void connect(String endpoint) {
            peer.ok("connect " + name + " " + endpoint);
        }

        @Override
        public void send(List<byte[]> frames) {
            peer.ok("send " + name + " " + SocketPeer.hex(frames));
        }

        @Override
        public List<byte[]> recv(Duration timeout) {
            return SocketPeer.frames(peer.call("recv " + name + " " + timeout.toMillis()));
        }

        @Override
        public void close() {
            peer.ok("close " + name);
        }

        @Override
        public void option(boolean subscribe, String topic) {
            peer.ok((subscribe ? "sub " : "unsub ") + name + " " + SocketPeer.hex(SocketPeer.bytes(topic)));
        }
    }
}
