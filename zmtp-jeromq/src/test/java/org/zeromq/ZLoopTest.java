package org.zeromq;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZLoopTest {
    private final ZContext ctx = new ZContext();

    @AfterEach
    void closeContext() {
        ctx.close();
    }

    @Test
    void shouldEndWhenATimerHandlerReturnsMinusOne() {
        ZLoop loop = new ZLoop(ctx);
        AtomicInteger calls = new AtomicInteger();
        loop.addTimer(1, 0, (l, item, arg) -> {
            assertThat(item).isNull();
            assertThat(arg).isEqualTo("tick");
            return calls.incrementAndGet() == 5 ? -1 : 0;
        }, "tick");
        assertThat(loop.start()).isEqualTo(-1);
        assertThat(calls).hasValue(5);
    }

    @Test
    void shouldRunATimerTheNumberOfTimesAsked() {
        ZLoop loop = new ZLoop(ctx);
        AtomicInteger twice = new AtomicInteger();
        AtomicInteger ticks = new AtomicInteger();
        loop.addTimer(0, 2, (l, item, arg) -> {
            twice.incrementAndGet();
            return 0;
        }, null);
        loop.addTimer(2, 0, (l, item, arg) -> ticks.incrementAndGet() == 10 ? -1 : 0, null);
        assertThat(loop.start()).isEqualTo(-1);
        assertThat(twice).hasValue(2);
    }

    @Test
    void shouldCancelTheTimersOfAnArgumentAndStartTimersAddedByAHandler() {
        ZLoop loop = new ZLoop(ctx);
        Object cancelMe = new Object();
        AtomicInteger cancelled = new AtomicInteger();
        AtomicInteger added = new AtomicInteger();
        loop.addTimer(1, 0, (l, item, arg) -> {
            cancelled.incrementAndGet();
            l.removeTimer(cancelMe);
            l.addTimer(1, 0, (l2, i2, a2) -> added.incrementAndGet() == 3 ? -1 : 0, "added");
            return 0;
        }, cancelMe);
        assertThat(loop.start()).isEqualTo(-1);
        assertThat(cancelled).hasValue(1);
        assertThat(added).hasValue(3);
    }

    @Test
    void shouldCallAPollersHandlerForEachMessageUntilItReturnsMinusOne() {
        ZMQ.Socket in = ctx.createSocket(SocketType.PULL);
        in.bind("inproc://zloop-poller");
        ZMQ.Socket out = ctx.createSocket(SocketType.PUSH);
        out.connect("inproc://zloop-poller");
        for (String s : List.of("a", "b", "c")) {
            assertThat(out.send(s)).isTrue();
        }
        ZLoop loop = new ZLoop(ctx);
        List<String> received = new ArrayList<>();
        ZMQ.PollItem item = new ZMQ.PollItem(in, ZMQ.Poller.POLLIN);
        loop.addPoller(item, (l, ready, arg) -> {
            assertThat(ready).isSameAs(item);
            assertThat(arg).isEqualTo("arg");
            received.add(ready.getSocket().recvStr());
            return received.size() == 3 ? -1 : 0;
        }, "arg");
        assertThat(loop.start()).isEqualTo(-1);
        assertThat(received).containsExactly("a", "b", "c");
    }

    @Test
    void shouldNoLongerCallARemovedPoller() {
        ZMQ.Socket in = ctx.createSocket(SocketType.PULL);
        in.bind("inproc://zloop-removed");
        ZMQ.Socket out = ctx.createSocket(SocketType.PUSH);
        out.connect("inproc://zloop-removed");
        out.send("zero");
        assertThat(in.recvStr()).isEqualTo("zero"); // connected: what follows is readable at once
        out.send("one");
        out.send("two");
        ZLoop loop = new ZLoop(ctx);
        AtomicInteger calls = new AtomicInteger();
        loop.addPoller(new ZMQ.PollItem(in, ZMQ.Poller.POLLIN), (l, item, arg) -> {
            calls.incrementAndGet();
            assertThat(item.getSocket().recvStr()).isEqualTo("one");
            l.removePoller(item); // "two" stays unread
            return 0;
        }, null);
        AtomicInteger ticks = new AtomicInteger();
        loop.addTimer(1, 0, (l, item, arg) -> ticks.incrementAndGet() == 5 ? -1 : 0, null);
        assertThat(loop.start()).isEqualTo(-1);
        assertThat(calls).hasValue(1);
        assertThat(in.recvStr(ZMQ.DONTWAIT)).isEqualTo("two");
    }

    @Test
    void shouldReturnZeroWithTheInterruptKeptWhenItsThreadIsInterrupted() throws Exception {
        ZMQ.Socket quiet = ctx.createSocket(SocketType.PULL);
        quiet.bind("inproc://zloop-quiet");
        for (boolean withPoller : new boolean[] {true, false}) {
            ZLoop loop = new ZLoop(ctx);
            if (withPoller) {
                loop.addPoller(new ZMQ.PollItem(quiet, ZMQ.Poller.POLLIN), (l, item, arg) -> 0, null);
            }
            CountDownLatch started = new CountDownLatch(1);
            // A timer far off: the loop waits (in poll, or asleep with no poll item) until interrupted.
            loop.addTimer(0, 1, (l, item, arg) -> {
                started.countDown();
                return 0;
            }, null);
            loop.addTimer(3_600_000, 1, (l, item, arg) -> -1, null);
            CompletableFuture<Object[]> result = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                int rc = loop.start();
                result.complete(new Object[] {rc, Thread.currentThread().isInterrupted()});
            });
            thread.start();
            started.await();
            thread.interrupt();
            assertThat(result.get()).containsExactly(0, true);
            thread.join();
        }
        // The socket survived the interrupted poll.
        assertThat(quiet.recvStr(ZMQ.DONTWAIT)).isNull();
    }

    @Test
    void shouldReturnWhenTheContextIsClosed() throws Exception {
        ZContext own = new ZContext();
        ZMQ.Socket quiet = own.createSocket(SocketType.PULL);
        quiet.bind("inproc://zloop-closed");
        ZLoop loop = new ZLoop(own);
        loop.addPoller(new ZMQ.PollItem(quiet, ZMQ.Poller.POLLIN), (l, item, arg) -> 0, null);
        CountDownLatch started = new CountDownLatch(1);
        loop.addTimer(0, 1, (l, item, arg) -> {
            started.countDown();
            return 0;
        }, null);
        CompletableFuture<Integer> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> result.complete(loop.start()));
        thread.start();
        started.await();
        own.close();
        assertThat(result.get()).isZero();
        thread.join();
    }

    @Test
    void shouldCallTheHandlerOfAReadyChannelBesideASocket() throws Exception {
        ZMQ.Socket quiet = ctx.createSocket(SocketType.PULL);
        quiet.bind("inproc://zloop-channel");
        Pipe pipe = Pipe.open();
        try {
            pipe.source().configureBlocking(false);
            ZLoop loop = new ZLoop(ctx);
            List<Object> calls = new ArrayList<>();
            loop.addPoller(new ZMQ.PollItem(quiet, ZMQ.Poller.POLLIN), (l, item, arg) -> {
                calls.add(arg);
                return 0;
            }, "socket");
            ZMQ.PollItem channelItem = new ZMQ.PollItem(pipe.source(), ZMQ.Poller.POLLIN);
            loop.addPoller(channelItem, (l, item, arg) -> {
                calls.add(arg);
                assertThat(item.getRawSocket()).isSameAs(pipe.source());
                assertThat(item.isReadable()).isTrue();
                return -1;
            }, "channel");
            // The loop is waiting (or about to) on both when the pipe gets its byte.
            loop.addTimer(1, 1, (l, item, arg) -> {
                try {
                    pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return 0;
            }, null);
            assertThat(loop.start()).isEqualTo(-1);
            assertThat(calls).containsExactly("channel");
        } finally {
            pipe.source().close();
            pipe.sink().close();
        }
    }
}
