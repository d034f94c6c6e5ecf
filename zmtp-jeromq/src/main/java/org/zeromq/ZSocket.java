package org.zeromq;

/**
 * A socket that needs no context: it is made in a process-wide one (terminated when the JVM exits), as JeroMQ's
 * ZSocket. Closing it discards what it has not sent (LINGER 0). Its methods mirror {@link ZMQ.Socket}'s; the
 * {@code zmq.Msg} ones are absent (docs/jeromq.md). Not thread-safe.
 */
public class ZSocket implements AutoCloseable {
    private final ZMQ.Socket socket;

    /** A socket of JeroMQ's type number {@code socketType}. */
    public ZSocket(final int socketType) {
        this(SocketType.type(socketType));
    }

    /** A socket of {@code socketType}. */
    public ZSocket(final SocketType socketType) {
        this.socket = ManagedContext.context().socket(socketType);
    }

    public SocketType getSocketType() {
        return socket.getSocketType();
    }

    public int getType() {
        return socket.getType();
    }

    public boolean bind(final String endpoint) {
        return socket.bind(endpoint);
    }

    /** Stops listening on {@code endpoint} (JeroMQ 0.6.0's binds again instead, a bug not kept here). */
    public boolean unbind(final String endpoint) {
        return socket.unbind(endpoint);
    }

    public boolean connect(final String endpoint) {
        return socket.connect(endpoint);
    }

    public boolean disconnect(final String endpoint) {
        return socket.disconnect(endpoint);
    }

    public final boolean hasReceiveMore() {
        return socket.hasReceiveMore();
    }

    public void subscribe(byte[] topic) {
        socket.subscribe(topic);
    }

    public void subscribe(String topic) {
        socket.subscribe(topic);
    }

    public void unsubscribe(byte[] topic) {
        socket.unsubscribe(topic);
    }

    public void unsubscribe(String topic) {
        socket.unsubscribe(topic);
    }

    /** Sends {@code b}; its length, or -1 (DONTWAIT and no room). */
    public int send(byte[] b) {
        return send(b, 0);
    }

    public int send(byte[] b, int flags) {
        return socket.send(b, flags) ? b.length : -1;
    }

    /** Sends {@code frame}'s data with {@code flags} (SNDMORE, DONTWAIT). */
    public boolean sendFrame(ZFrame frame, int flags) {
        return frame.send(socket, flags);
    }

    /** Sends the frames of {@code message}, taking them out of it. */
    public boolean sendMessage(ZMsg message) {
        boolean sent = message.send(socket, false);
        message.clear();
        return sent;
    }

    public int sendStringUtf8(String str) {
        return sendStringUtf8(str, 0);
    }

    public int sendStringUtf8(String str, int flags) {
        return send(str.getBytes(ZMQ.CHARSET), flags);
    }

    /** The next frame, or null (DONTWAIT, nothing there). */
    public byte[] receive() {
        return receive(0);
    }

    public byte[] receive(int flags) {
        return socket.recv(flags);
    }

    public String receiveStringUtf8() {
        return receiveStringUtf8(0);
    }

    /** The next frame as UTF-8; null where {@link #receive(int)} returns null. */
    public String receiveStringUtf8(int flags) {
        return socket.recvStr(flags);
    }

    /** Closes with LINGER 0. Idempotent. */
    @Override
    public void close() {
        try {
            socket.setLinger(0);
        } catch (ZMQException closedAlready) {
            // Closed before, or the process-wide context is gone: nothing left to discard.
        }
        socket.close();
    }
}
