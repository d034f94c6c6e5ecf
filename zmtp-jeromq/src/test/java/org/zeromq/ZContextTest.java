package org.zeromq;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ZContext: its sockets, shadows and closing. */
class ZContextTest {

    @Test
    void socketsGetTheContextsHwmsAndLinger() {
        try (ZContext ctx = new ZContext()) {
            ctx.setSndHWM(7);
            ctx.setRcvHWM(8);
            ctx.setLinger(9);
            ZMQ.Socket s = ctx.createSocket(SocketType.PUSH);
            assertThat(s.getSndHWM()).isEqualTo(7);
            assertThat(s.getRcvHWM()).isEqualTo(8);
            assertThat(s.getLinger()).isEqualTo(9);
            assertThat(ctx.getLinger()).isEqualTo(9);
        }
    }

    @Test
    void aClosedSocketLeavesItsContextsList() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
            ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
            assertThat(ctx.getSockets()).containsExactlyInAnyOrder(a, b);
            a.close();
            ctx.destroySocket(b);
            assertThat(ctx.getSockets()).isEmpty();
            assertThat(ctx.isEmpty()).isTrue();
        }
    }

    @Test
    void closingTheContextClosesItsSockets() {
        ZContext ctx = new ZContext();
        ZMQ.Socket s = ctx.createSocket(SocketType.PAIR);
        assertThat(ctx.isClosed()).isFalse();
        ctx.close();
        assertThat(ctx.isClosed()).isTrue();
        assertThatThrownBy(() -> s.send("x")).isInstanceOfSatisfying(ZMQException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.ETERM.getCode()));
        assertThatThrownBy(() -> ctx.createSocket(SocketType.PAIR)).isInstanceOf(ZMQException.class);
        ctx.close();
    }

    @Test
    void aShadowSharesTheContextAndClosesOnlyItsOwnSockets() {
        try (ZContext ctx = new ZContext()) {
            ZContext shadow = ctx.shadow();
            assertThat(shadow.isMain()).isFalse();
            assertThat(shadow.getContext()).isSameAs(ctx.getContext());
            assertThatThrownBy(shadow::shadow).isInstanceOf(IllegalStateException.class);

            ZMQ.Socket bound = ctx.createSocket(SocketType.PAIR);
            bound.bind("inproc://shadow");
            ZMQ.Socket inShadow = shadow.createSocket(SocketType.PAIR);
            inShadow.connect("inproc://shadow");
            inShadow.send("from the shadow");
            assertThat(bound.recvStr()).isEqualTo("from the shadow");

            shadow.close();
            assertThat(shadow.getSockets()).isEmpty();
            assertThat(ctx.getSockets()).containsExactly(bound);
            assertThat(ctx.isClosed()).isFalse();
        }
    }

    @Test
    void closingTheMainContextClosesItsShadowsSockets() {
        ZContext ctx = new ZContext();
        ZContext shadow = ctx.shadow();
        ZMQ.Socket s = shadow.createSocket(SocketType.PAIR);
        ctx.close();
        assertThat(shadow.getSockets()).isEmpty();
        assertThatThrownBy(() -> s.recv(ZMQ.DONTWAIT)).isInstanceOf(ZMQException.class);
    }

    @Test
    void aPollerFromTheContextPollsItsSockets() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
            a.bind("inproc://ctx-poller");
            ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
            b.connect("inproc://ctx-poller");
            ZMQ.Poller poller = ctx.createPoller(1);
            poller.register(b, ZMQ.Poller.POLLIN);
            a.send("x");
            assertThat(poller.poll(-1)).isEqualTo(1);
            poller.close();
        }
    }

    @Test
    void forkRunsATaskWithAPipeToIt() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket pipe = ctx.fork((args, context, taskPipe) -> taskPipe.send("hello " + args[0]), "fork");
            assertThat(pipe.recvStr()).isEqualTo("hello fork");
        }
    }
}
