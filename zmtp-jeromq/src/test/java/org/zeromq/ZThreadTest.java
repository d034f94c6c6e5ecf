package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZThreadTest {

    @Test
    void shouldRunAForkedTaskWithItsArgumentsAndAPipe() throws Exception {
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket pipe = ZThread.fork(ctx, (args, shadow, theirs) -> {
                worker.complete(Thread.currentThread());
                String request = theirs.recvStr();
                theirs.send(request + args[0] + args[1]);
            }, "-a", 7);
            assertThat(pipe.getSocketType()).isEqualTo(SocketType.PAIR);
            assertThat(pipe.send("ping")).isTrue();
            assertThat(pipe.recvStr()).isEqualTo("ping-a7");
            Thread thread = worker.get();
            thread.join();
            assertThat(thread).isNotSameAs(Thread.currentThread());
            // The task's context was a shadow: closed with the task, leaving the caller's pipe alone in ctx.
            assertThat(ctx.getSockets()).containsExactly(pipe);
        }
    }

    @Test
    void shouldDeliverWhatATaskSentJustBeforeItReturned() {
        try (ZContext ctx = new ZContext()) {
            // The task's context closes (linger 0) right after the send: the pipe must be attached by then.
            for (int i = 0; i < 200; i++) {
                ZMQ.Socket pipe = ZThread.fork(ctx, (args, shadow, theirs) -> theirs.send("last words"));
                assertThat(pipe.recvStr()).isEqualTo("last words");
                pipe.close();
            }
        }
    }

    @Test
    void shouldCloseTheSocketsATaskLeftOpenWhenItReturns() throws Exception {
        CompletableFuture<ZContext> shadowOf = new CompletableFuture<>();
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket pipe = ZThread.fork(ctx, (args, shadow, theirs) -> {
                shadow.createSocket(SocketType.PUB).bind("inproc://left-open");
                shadowOf.complete(shadow);
                worker.complete(Thread.currentThread());
                theirs.send("bound");
            });
            assertThat(pipe.recvStr()).isEqualTo("bound");
            worker.get().join();
            assertThat(shadowOf.get().isClosed()).isTrue();
            assertThat(shadowOf.get().getSockets()).isEmpty();
            // The name is free again: the task's PUB was closed with its context.
            ZMQ.Socket again = ctx.createSocket(SocketType.PUB);
            assertThat(again.bind("inproc://left-open")).isTrue();
        }
    }

    @Test
    void shouldEndAForkedThreadBlockedInReceiveWhenTheContextCloses() throws Exception {
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        ZContext ctx = new ZContext();
        ctx.setUncaughtExceptionHandler((t, e) -> uncaught.complete(e));
        ZMQ.Socket pipe = ZThread.fork(ctx, (args, shadow, theirs) -> {
            worker.complete(Thread.currentThread());
            theirs.send("waiting");
            theirs.recv(); // blocks until the context closes: ETERM, which ends the thread quietly
        });
        assertThat(pipe.recvStr()).isEqualTo("waiting");
        ctx.close();
        worker.get().join();
        assertThat(uncaught).isNotDone();
        assertThat(ctx.isClosed()).isTrue();
    }

    @Test
    void shouldHandAnyOtherFailureToTheContextsUncaughtExceptionHandler() throws Exception {
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        try (ZContext ctx = new ZContext()) {
            ctx.setUncaughtExceptionHandler((t, e) -> uncaught.complete(e));
            ZThread.fork(ctx, (args, shadow, theirs) -> {
                throw new IllegalStateException("task failed");
            });
            assertThat(uncaught.get()).isInstanceOf(IllegalStateException.class).hasMessage("task failed");
        }
    }

    @Test
    void shouldRunADetachedTaskOnADaemonThread() throws Exception {
        BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
        CountDownLatch done = new CountDownLatch(1);
        ZThread.start(args -> {
            seen.add(Thread.currentThread().isDaemon());
            seen.add(args[0]);
            done.countDown();
        }, "arg");
        done.await();
        assertThat(seen).containsExactly(true, "arg");
    }
}
