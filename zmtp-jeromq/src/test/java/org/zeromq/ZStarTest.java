package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZStarTest {
    private final ZContext ctx = new ZContext();

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    /** A fortune whose one star echoes on the pipe until "bye", recording each call of the lifecycle. */
    private static final class EchoFortune implements ZStar.Fortune {
        final Queue<String> calls = new ConcurrentLinkedQueue<>();

        @Override
        public String premiere(ZMQ.Socket mic, Object... args) {
            calls.add("premiere " + args.length);
            return null;
        }

        @Override
        public ZStar.Star create(ZContext starCtx, ZMQ.Socket mic, int count, ZStar.Star previous, Object... args) {
            calls.add("create " + count);
            return new ZStar.Star() {
                private String last;

                @Override
                public void prepare() {
                    calls.add("prepare");
                }

                @Override
                public int breathe() {
                    last = mic.recvStr();
                    return 1;
                }

                @Override
                public boolean act(int events) {
                    return !"bye".equals(last) && mic.send("echo " + last);
                }

                @Override
                public boolean entract() {
                    return true;
                }

                @Override
                public boolean renews() {
                    calls.add("renews");
                    return false;
                }
            };
        }

        @Override
        public boolean interview(ZMQ.Socket mic) {
            calls.add("interview");
            return true;
        }

        @Override
        public void party(ZContext starCtx) {
            calls.add("party " + starCtx.isClosed());
        }
    }

    @Test
    void shouldPlayTheLifecycleInOrderWithTheEntourageAroundIt() throws Exception {
        EchoFortune fortune = new EchoFortune();
        CompletableFuture<String> threadName = new CompletableFuture<>();
        ZStar.Entourage entourage = new ZStar.Entourage() {
            @Override
            public void breakaleg(ZContext starCtx, ZStar.Fortune f, ZMQ.Socket phone, Object... bags) {
                fortune.calls.add("breakaleg");
            }

            @Override
            public void party(ZContext starCtx) {
                fortune.calls.add("entourage party");
                threadName.complete(Thread.currentThread().getName());
            }
        };
        ZStar star = new ZStar(ctx, fortune, "LOCK", entourage, "more");
        assertThat(star.send("one")).isTrue();
        assertThat(star.recv().popString()).isEqualTo("echo one");
        assertThat(star.send("bye")).isTrue();
        assertThat(star.recv()).isNull();
        assertThat(star.sign()).isFalse();
        star.exit().await();
        assertThat(fortune.calls).containsExactly("breakaleg", "premiere 2", "create 0", "prepare", "renews",
                "interview", "party false", "entourage party");
        assertThat(threadName.get()).startsWith("Star-");
    }

    @Test
    void shouldStopTheShowWhenTheSetFires() throws Exception {
        EchoFortune fortune = new EchoFortune();
        CountDownLatch lit = new CountDownLatch(1);
        ZStar.Set set = new ZStar.Set() {
            @Override
            public void lights(String name, int id) {
                Thread.currentThread().setName("lit-" + id);
                lit.countDown();
            }

            @Override
            public boolean fire() {
                return true;
            }
        };
        ZStar star = new ZStar(ctx, fortune, "LOCK", set);
        lit.await();
        star.exit().await();
        assertThat(fortune.calls).containsExactly("premiere 1", "create 0", "prepare", "renews", "interview",
                "party false");
        assertThat(star.recv()).isNull();
    }

    @Test
    void shouldLockAnAgentOnlyWithItsOwnWordAloneInAMessage() {
        ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
        a.bind("inproc://zagent-lock");
        ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
        b.connect("inproc://zagent-lock");
        ZAgent agent = ZAgent.Creator.create(b, "LOCK");

        a.sendMore("LOCK");
        a.send("not alone");
        assertThat(agent.recv().popString()).isEqualTo("LOCK");
        a.send("LOCKED");
        assertThat(agent.recv().popString()).isEqualTo("LOCKED");
        assertThat(agent.sign()).isTrue();

        a.send("LOCK");
        assertThat(agent.recv()).isNull();
        assertThat(agent.sign()).isFalse();
        assertThat(agent.send("x")).isFalse();
        assertThat(agent.send(new ZMsg())).isFalse();
        assertThat(agent.recv(false)).isNull();
    }

    @Test
    void shouldReturnNullAfterTheTimeoutAndKeepThePipesOwnTimeout() {
        ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
        a.bind("inproc://zagent-timeout");
        ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
        b.connect("inproc://zagent-timeout");
        b.setReceiveTimeOut(-1);
        ZAgent agent = new ZAgent.SimpleAgent(b, null);
        assertThat(agent.recv(1)).isNull();
        assertThat(agent.recv(false)).isNull();
        assertThat(b.getReceiveTimeOut()).isEqualTo(-1);
        assertThat(agent.sign()).isTrue();
        a.send("late");
        assertThat(agent.recv(-1).popString()).isEqualTo("late");
    }

    @Test
    void shouldThrowEintrAndStayOpenWhenInterrupted() {
        ZMQ.Socket a = ctx.createSocket(SocketType.PAIR);
        a.bind("inproc://zagent-eintr");
        ZMQ.Socket b = ctx.createSocket(SocketType.PAIR);
        b.connect("inproc://zagent-eintr");
        ZAgent agent = new ZAgent.SimpleAgent(b, "LOCK");
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(agent::recv).isInstanceOfSatisfying(ZMQException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EINTR.getCode()));
        } finally {
            Thread.interrupted();
        }
        assertThat(agent.sign()).isTrue();
        a.send("after");
        assertThat(agent.recv().popString()).isEqualTo("after");
    }

    @Test
    void shouldLockTheAgentWhenTheContextIsClosed() {
        ZContext own = new ZContext();
        ZMQ.Socket a = own.createSocket(SocketType.PAIR);
        a.bind("inproc://zagent-closed");
        ZAgent agent = new ZAgent.SimpleAgent(a, null);
        own.close();
        assertThat(agent.recv()).isNull();
        assertThat(agent.sign()).isFalse();
    }
}
