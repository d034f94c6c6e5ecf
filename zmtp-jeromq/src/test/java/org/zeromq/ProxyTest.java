package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** ZMQ.proxy, ZMQQueue and ZSocket over inproc. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyTest {
    /**
     * Blocking tasks get a thread each: on the common pool (parallelism = cores - 1) a task that blocks holds a worker,
     * and on a machine with a few cores one left blocked by a failing test would starve the next test's task.
     */
    static final java.util.concurrent.Executor OWN_THREAD = task -> new Thread(task).start();

    @Test
    void aSteerableProxyPassesMessagesUntilTerminated() {
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket frontend = ctx.createSocket(SocketType.PULL);
            frontend.bind("inproc://proxy-in");
            ZMQ.Socket backend = ctx.createSocket(SocketType.PUSH);
            backend.bind("inproc://proxy-out");
            ZMQ.Socket control = ctx.createSocket(SocketType.PAIR);
            control.bind("inproc://proxy-control");
            CompletableFuture<Boolean> proxy =
                    CompletableFuture.supplyAsync(() -> ZMQ.proxy(frontend, backend, null, control), OWN_THREAD);

            ZMQ.Socket producer = ctx.createSocket(SocketType.PUSH);
            producer.connect("inproc://proxy-in");
            ZMQ.Socket consumer = ctx.createSocket(SocketType.PULL);
            consumer.connect("inproc://proxy-out");
            producer.send("through");
            assertThat(consumer.recvStr()).isEqualTo("through");

            ZMQ.Socket steer = ctx.createSocket(SocketType.PAIR);
            steer.connect("inproc://proxy-control");
            steer.send(ZMQ.PROXY_TERMINATE, 0);
            assertThat(proxy.join()).isTrue();
        }
    }

    @Test
    void aQueueEndsWhenItsContextCloses() {
        ZContext ctx = new ZContext();
        ZMQ.Socket in = ctx.createSocket(SocketType.ROUTER);
        in.bind("inproc://queue-in");
        ZMQ.Socket out = ctx.createSocket(SocketType.DEALER);
        out.bind("inproc://queue-out");
        CompletableFuture<Void> queue = CompletableFuture.runAsync(new ZMQQueue(ctx.getContext(), in, out), OWN_THREAD);

        ZMQ.Socket worker = ctx.createSocket(SocketType.REP);
        worker.connect("inproc://queue-out");
        ZMQ.Socket client = ctx.createSocket(SocketType.REQ);
        client.connect("inproc://queue-in");
        client.send("work");
        assertThat(worker.recvStr()).isEqualTo("work");
        worker.send("done");
        assertThat(client.recvStr()).isEqualTo("done");

        ctx.close();
        queue.join();
    }

    @Test
    void zsocketsNeedNoContext() {
        try (ZSocket pull = new ZSocket(SocketType.PULL); ZSocket push = new ZSocket(ZMQ.PUSH)) {
            assertThat(pull.bind("inproc://zsocket")).isTrue();
            assertThat(push.connect("inproc://zsocket")).isTrue();
            assertThat(push.sendStringUtf8("hi", ZMQ.SNDMORE)).isEqualTo(2);
            assertThat(push.send(new byte[] {1})).isEqualTo(1);
            assertThat(pull.receiveStringUtf8()).isEqualTo("hi");
            assertThat(pull.hasReceiveMore()).isTrue();
            assertThat(pull.receive()).containsExactly(1);
            assertThat(pull.receive(ZMQ.DONTWAIT)).isNull();
            assertThat(push.sendMessage(ZMsg.newStringMsg("a", "b"))).isTrue();
            assertThat(pull.receiveStringUtf8()).isEqualTo("a");
            assertThat(pull.receiveStringUtf8()).isEqualTo("b");
            assertThat(pull.getSocketType()).isEqualTo(SocketType.PULL);
        }
    }
}
