package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What JeroMQ's users suffer from, done better: an interrupted blocking call throws EINTR and leaves the socket and
 * the context usable; terminating a context wakes the threads blocked on its sockets with ETERM and returns.
 * The {@code @Timeout}s only stop a hung run; nothing here asserts on time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptAndTermTest {

    /** Runs {@code call} on a new thread, which reports what it threw; returns the thread. */
    private static Thread blockIn(Runnable call, AtomicReference<Throwable> thrown, CountDownLatch done) {
        Thread t = new Thread(() -> {
            try {
                call.run();
            } catch (Throwable e) {
                thrown.set(e);
            } finally {
                done.countDown();
            }
        });
        t.start();
        return t;
    }

    private static void awaitWaiting(Thread t) {
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
    }

    @Test
    void anInterruptedReceiveThrowsEintrAndTheSocketStaysUsable() throws Exception {
        ZMQ.Context context = ZMQ.context(1);
        try {
            ZMQ.Socket pull = context.socket(SocketType.PULL);
            pull.bind("inproc://interrupt");
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Thread t = blockIn(pull::recv, thrown, done);
            awaitWaiting(t);
            t.interrupt();
            done.await();
            assertThat(thrown.get()).isInstanceOfSatisfying(ZMQException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EINTR.getCode()));

            ZMQ.Socket push = context.socket(SocketType.PUSH);
            push.connect("inproc://interrupt");
            push.send("after");
            assertThat(pull.recvStr()).isEqualTo("after");
        } finally {
            context.term();
        }
    }

    @Test
    void anInterruptedPollThrowsEintr() throws Exception {
        ZMQ.Context context = ZMQ.context(1);
        try {
            ZMQ.Socket pull = context.socket(SocketType.PULL);
            ZMQ.Poller poller = context.poller(1);
            poller.register(pull, ZMQ.Poller.POLLIN);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Thread t = blockIn(() -> poller.poll(-1), thrown, done);
            awaitWaiting(t);
            t.interrupt();
            done.await();
            assertThat(thrown.get()).isInstanceOfSatisfying(ZMQException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.EINTR.getCode()));
            poller.close();
        } finally {
            context.term();
        }
    }

    @Test
    void termWakesAThreadBlockedInReceiveWithEterm() throws Exception {
        ZMQ.Context context = ZMQ.context(1);
        ZMQ.Socket pull = context.socket(SocketType.PULL);
        pull.bind("inproc://term");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = blockIn(pull::recv, thrown, done);
        awaitWaiting(t);
        context.term();
        done.await();
        assertThat(thrown.get()).isInstanceOfSatisfying(ZMQException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.ETERM.getCode()));
        assertThat(context.isTerminated()).isTrue();
    }

    @Test
    void termReturnsThoughASocketWasNeverClosed() {
        ZMQ.Context context = ZMQ.context(1);
        ZMQ.Socket push = context.socket(SocketType.PUSH);
        push.setLinger(0);
        push.connect("tcp://127.0.0.1:1");
        push.send("never delivered");
        // JeroMQ's term() waits for every socket to be closed; this one never is, and term returns.
        CompletableFuture.runAsync(context::term, ProxyTest.OWN_THREAD).join();
        assertThat(context.isClosed()).isTrue();
    }

    @Test
    void zcontextCloseWakesABlockedThreadWithEterm() throws Exception {
        ZContext ctx = new ZContext();
        ZMQ.Socket rep = ctx.createSocket(SocketType.REP);
        rep.bind("inproc://zcontext-term");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread t = blockIn(rep::recvStr, thrown, done);
        awaitWaiting(t);
        ctx.close();
        done.await();
        assertThat(thrown.get()).isInstanceOfSatisfying(ZMQException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.ETERM.getCode()));
        assertThat(ctx.isClosed()).isTrue();
    }

    @Test
    void aSocketOfATerminatedContextThrowsEterm() {
        ZMQ.Context context = ZMQ.context(1);
        ZMQ.Socket pair = context.socket(SocketType.PAIR);
        context.term();
        try {
            pair.send("x");
        } catch (ZMQException e) {
            assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.ETERM.getCode());
            return;
        }
        throw new AssertionError("send on a terminated context's socket did not throw");
    }

    @Test
    void aCancelledReceiveThrowsEcanceledAndLeavesNoInterrupt() throws Exception {
        ZMQ.Context context = ZMQ.context(1);
        try {
            ZMQ.Socket pull = context.socket(SocketType.PULL);
            pull.bind("inproc://cancel");
            ZMQ.CancellationToken token = pull.createCancellationToken();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<Boolean> interruptedAfter = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            Thread t = blockIn(() -> {
                try {
                    pull.recv(0, token);
                } finally {
                    interruptedAfter.set(Thread.currentThread().isInterrupted());
                }
            }, thrown, done);
            awaitWaiting(t);
            token.cancel();
            done.await();
            assertThat(thrown.get()).isInstanceOfSatisfying(ZMQException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(125));
            assertThat(interruptedAfter.get()).isFalse();

            token.reset();
            ZMQ.Socket push = context.socket(SocketType.PUSH);
            push.connect("inproc://cancel");
            assertThat(push.send("x".getBytes(ZMQ.CHARSET), 0, push.createCancellationToken())).isTrue();
            assertThat(pull.recv(0, token)).containsExactly('x');
        } finally {
            context.term();
        }
    }
}
