package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code Socket.base()}: JeroMQ's option calls by number, as a JVM Jupyter kernel and the Guide make them. */
class SocketBaseTest {
    private final ZContext ctx = new ZContext();

    @AfterEach
    void close() {
        ctx.close();
    }

    @Test
    void shouldReadTheLastEndpointAndTypeByNumber() {
        ZMQ.Socket socket = ctx.createSocket(SocketType.ROUTER);
        zmq.SocketBase base = socket.base();
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_LAST_ENDPOINT)).isNull();
        socket.bind("tcp://127.0.0.1:*");
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_LAST_ENDPOINT)).isEqualTo(socket.getLastEndpoint())
                .asString().startsWith("tcp://127.0.0.1:");
        assertThat(base.getSocketOpt(zmq.ZMQ.ZMQ_TYPE)).isEqualTo(zmq.ZMQ.ZMQ_ROUTER);
        assertThat(base.getSocketOpt(zmq.ZMQ.ZMQ_RCVMORE)).isZero();
        assertThat(base.getSocketOpt(zmq.ZMQ.ZMQ_EVENTS) & zmq.ZMQ.ZMQ_POLLIN).isZero();
    }

    @Test
    void shouldSetAndGetOptionsThroughTheSocketsOwnAccessors() {
        ZMQ.Socket socket = ctx.createSocket(SocketType.DEALER);
        zmq.SocketBase base = socket.base();
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_LINGER, 250)).isTrue();
        assertThat(socket.getLinger()).isEqualTo(250);
        assertThat(base.getSocketOpt(zmq.ZMQ.ZMQ_LINGER)).isEqualTo(250);
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_SNDHWM, 7)).isTrue();
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_SNDHWM)).isEqualTo(7);
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_IDENTITY, "me")).isTrue();
        assertThat((byte[]) base.getSocketOptx(zmq.ZMQ.ZMQ_IDENTITY)).isEqualTo("me".getBytes(ZMQ.CHARSET));
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_IMMEDIATE, 0)).isTrue();
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_IMMEDIATE)).isEqualTo(false);
        assertThat(base.getSocketOpt(zmq.ZMQ.ZMQ_DELAY_ATTACH_ON_CONNECT)).isEqualTo(1);
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_PLAIN_USERNAME, "alice".getBytes(ZMQ.CHARSET))).isTrue();
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_PLAIN_USERNAME)).isEqualTo("alice");
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_MAXMSGSIZE)).isEqualTo(-1L);
    }

    @Test
    void shouldFailAsJeromqDoes() {
        ZMQ.Socket socket = ctx.createSocket(SocketType.DEALER);
        zmq.SocketBase base = socket.base();
        assertThat(base.setSocketOpt(zmq.ZMQ.ZMQ_SNDHWM, -1)).isFalse();
        assertThat(base.errno()).isEqualTo(zmq.ZError.EINVAL).isEqualTo(socket.errno());
        assertThat(base.getSocketOptx(zmq.ZMQ.ZMQ_FD)).isNull();
        assertThat(base.errno()).isEqualTo(zmq.ZError.EINVAL);
        assertThatThrownBy(() -> base.getSocketOptx(12345)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> base.setSocketOpt(12345, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> base.getSocketOpt(zmq.ZMQ.ZMQ_LAST_ENDPOINT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> base.setSocketOpt(zmq.ZMQ.ZMQ_CONFLATE, true)).isInstanceOf(ZMQException.class);
    }

    /** zmq.ZError's numbers are the codes ZMQException and errno() carry. */
    @Test
    void shouldShareErrorNumbersWithZmqError() {
        assertThat(zmq.ZError.ETERM).isEqualTo(ZMQ.Error.ETERM.getCode());
        assertThat(zmq.ZError.EAGAIN).isEqualTo(ZMQ.Error.EAGAIN.getCode());
        assertThat(zmq.ZError.toString(zmq.ZError.EINVAL)).isEqualTo(ZMQ.Error.EINVAL.getMessage());
        assertThat(zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_AUTH).isEqualTo(ZMQ.HANDSHAKE_FAILED_AUTH);
        assertThat(zmq.ZMQ.ZMQ_DONTWAIT).isEqualTo(ZMQ.DONTWAIT);
    }
}
