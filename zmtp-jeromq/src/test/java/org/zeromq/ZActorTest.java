package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZActorTest {
    private final ZContext ctx = new ZContext();

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    /** Answers PING with PONG, ends on STOP; remembers its thread. */
    private static class PingActor extends ZActor.SimpleActor {
        final CompletableFuture<Thread> thread = new CompletableFuture<>();
        final Queue<String> calls = new ConcurrentLinkedQueue<>();

        @Override
        public String premiere(ZMQ.Socket pipe) {
            thread.complete(Thread.currentThread());
            return "ping-actor";
        }

        @Override
        public boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events) {
            String command = pipe.recvStr();
            calls.add(command);
            if ("STOP".equals(command)) {
                return false;
            }
            pipe.send("PONG " + Thread.currentThread().getName());
            return true;
        }

        @Override
        public boolean finished(ZMQ.Socket pipe) {
            calls.add("finished");
            return true;
        }
    }

    @Test
    void shouldAnswerOnThePipeAndLockTheAgentWhenItFinishes() throws Exception {
        PingActor ping = new PingActor();
        ZActor actor = new ZActor(ctx, ping, "THE END");
        assertThat(actor.send("PING")).isTrue();
        assertThat(actor.recv().popString()).isEqualTo("PONG ping-actor");
        assertThat(actor.sign()).isTrue();

        assertThat(actor.send("STOP")).isTrue();
        assertThat(actor.recv()).isNull(); // the lock word, taken by the agent
        assertThat(actor.sign()).isFalse();
        assertThat(actor.send("PING")).isFalse();
        actor.exit().await();
        assertThat(actor.exit().isExited()).isTrue();
        ping.thread.get().join();
        assertThat(ping.calls).containsExactly("PING", "STOP", "finished");
        // The actor's context was a shadow: closed; the caller's end of the pipe is the agent's to close.
        actor.close();
        assertThat(ctx.getSockets()).isEmpty();
    }

    @Test
    void shouldHandOverMessagesOfItsSocketsAndCloseThemAtTheEnd() throws Exception {
        Queue<String> closed = new ConcurrentLinkedQueue<>();
        ZActor.Actor relay = new ZActor.SimpleActor() {
            @Override
            public List<ZMQ.Socket> createSockets(ZContext actorCtx, Object... args) {
                ZMQ.Socket pull = actorCtx.createSocket(SocketType.PULL);
                pull.bind((String) args[0]);
                return List.of(pull);
            }

            @Override
            public void start(ZMQ.Socket pipe, List<ZMQ.Socket> sockets, ZPoller poller) {
                poller.register(sockets.get(0), ZPoller.POLLIN);
                pipe.send("READY");
            }

            @Override
            public boolean stage(ZMQ.Socket socket, ZMQ.Socket pipe, ZPoller poller, int events) {
                pipe.send("GOT " + socket.recvStr());
                return true;
            }

            @Override
            public void closed(ZMQ.Socket socket) {
                closed.add(socket.getSocketType().name());
            }
        };
        ZActor actor = new ZActor(ctx, relay, null, "inproc://zactor-relay");
        assertThat(actor.recv().popString()).isEqualTo("READY");
        ZMQ.Socket push = ctx.createSocket(SocketType.PUSH);
        push.connect("inproc://zactor-relay");
        push.send("hello");
        assertThat(actor.recv().popString()).isEqualTo("GOT hello");

        actor.send("anything"); // SimpleActor's backstage: ends the loop
        actor.exit().await();
        assertThat(closed).containsExactly("PULL");
        // The PULL is gone: its name can be bound again.
        ZMQ.Socket again = ctx.createSocket(SocketType.PULL);
        assertThat(again.bind("inproc://zactor-relay")).isTrue();
    }

    @Test
    void shouldPollWithTheTimeoutOfLoopingAndStopWhenLoopedSaysSo() throws Exception {
        AtomicInteger turns = new AtomicInteger();
        ZActor.Actor ticking = new ZActor.SimpleActor() {
            @Override
            public long looping(ZMQ.Socket pipe, ZPoller poller) {
                return 1;
            }

            @Override
            public boolean looped(ZMQ.Socket pipe, ZPoller poller) {
                return turns.incrementAndGet() < 5;
            }
        };
        ZActor actor = new ZActor(ctx, ticking, null);
        actor.exit().await();
        assertThat(turns).hasValue(5);
    }

    @Test
    void shouldStartAgainWithNewSocketsWhileDestroyedSaysSo() throws Exception {
        AtomicInteger created = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        ZActor.Actor restarting = new ZActor.SimpleActor() {
            @Override
            public List<ZMQ.Socket> createSockets(ZContext actorCtx, Object... args) {
                created.incrementAndGet();
                return List.of(actorCtx.createSocket(SocketType.PUB));
            }

            @Override
            public void start(ZMQ.Socket pipe, List<ZMQ.Socket> sockets, ZPoller poller) {
                pipe.send("started " + created.get());
            }

            @Override
            public boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events) {
                // Read the command: left unread, "restart" would end the second show too, and the actor could be
                // gone (its end of the pipe closed) before "stop" is sent, which would then wait for ever.
                pipe.recvStr();
                return false;
            }

            @Override
            public void closed(ZMQ.Socket socket) {
                closed.incrementAndGet();
            }

            @Override
            public boolean destroyed(ZContext actorCtx, ZMQ.Socket pipe, ZPoller poller) {
                return created.get() < 2;
            }
        };
        ZActor actor = new ZActor(ctx, restarting, null);
        assertThat(actor.recv().popString()).isEqualTo("started 1");
        actor.send("restart");
        assertThat(actor.recv().popString()).isEqualTo("started 2");
        actor.send("stop");
        actor.exit().await();
        assertThat(created).hasValue(2);
        assertThat(closed).hasValue(2);
    }

    @Test
    void shouldEndWhenTheCallersContextIsClosed() throws Exception {
        ZContext own = new ZContext();
        PingActor ping = new PingActor();
        ZActor actor = new ZActor(own, ping, "THE END");
        actor.send("PING");
        assertThat(actor.recv().popString()).startsWith("PONG");
        own.close();
        actor.exit().await();
        ping.thread.get().join();
        assertThat(ping.calls).containsExactly("PING", "finished");
        assertThat(actor.recv()).isNull();
        assertThat(actor.sign()).isFalse();
    }

    @Test
    void shouldRunWithAContextOfItsOwnClosedAtTheEnd() throws Exception {
        PingActor ping = new PingActor();
        ZActor actor = new ZActor(ping, "THE END");
        actor.send("PING");
        assertThat(actor.recv().popString()).startsWith("PONG");
        actor.send("STOP");
        actor.exit().await();
        ping.thread.get().join();
        assertThat(actor.recv()).isNull();
        assertThat(actor.sign()).isFalse();
    }

    @Test
    void shouldCallTheShadowOfADuoFirstAndCountTheMainsResults() throws Exception {
        Queue<String> calls = new ConcurrentLinkedQueue<>();
        ZActor.Actor shadow = new ZActor.SimpleActor() {
            @Override
            public String premiere(ZMQ.Socket pipe) {
                calls.add("shadow premiere");
                return "shadow";
            }

            @Override
            public boolean backstage(ZMQ.Socket pipe, ZPoller poller, int events) {
                calls.add("shadow backstage");
                return false;
            }

            @Override
            public boolean finished(ZMQ.Socket pipe) {
                calls.add("shadow finished");
                return false;
            }
        };
        PingActor main = new PingActor();
        ZActor actor = new ZActor(ctx, new ZActor.Duo(main, shadow), "THE END");
        actor.send("PING");
        assertThat(actor.recv().popString()).isEqualTo("PONG ping-actor");
        actor.send("STOP");
        assertThat(actor.recv()).isNull();
        actor.exit().await();
        assertThat(calls).containsExactly("shadow premiere", "shadow backstage", "shadow backstage",
                "shadow finished");
        assertThat(main.calls).containsExactly("PING", "STOP", "finished");
    }
}
